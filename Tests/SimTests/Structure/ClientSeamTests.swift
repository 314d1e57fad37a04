import Foundation
import Testing

/// The Grouper client reaches the simulator, and reports about itself, only through
/// `DeviceContext` (docs/architecture.md, "The client's seam"): in `GrouperModel/Client`, only
/// the context's simulated implementation names the kernel or World's reporting members.
@Suite struct ClientSeamTests {
    /// What only the simulated context (`SimulatedDeviceNode`) may use: the kernel, the network
    /// and CPU models, and World's log, counters, timings and internal failures.
    static let simulatorOnly = [#"\bsim\."#, #"\bworld\.(log|counters|recordTiming|internalFailure|cpu|network)\b"#]

    @Test func onlyTheSimulatedContextReachesTheSimulatorAndWorldsReports() throws {
        let client = LayeringTests.sources.appendingPathComponent("GrouperModel/Client")
        for pattern in Self.simulatorOnly {
            let users = try LayeringTests.files(in: client)
                .filter { $0.text.range(of: pattern, options: .regularExpression) != nil }.map(\.name)
            #expect(users == ["DeviceNode+Simulation.swift"], "\(pattern) used outside the context implementation")
        }
    }

    /// A device is built from the run's directory, stores and record: only the adapter that
    /// feeds it from the kernel (`SimulatedDeviceNode`) names the `World`.
    @Test func onlyTheAdapterNamesTheWorld() throws {
        let client = LayeringTests.sources.appendingPathComponent("GrouperModel/Client")
        let users = try LayeringTests.files(in: client)
            .filter { $0.text.range(of: #"\b[Ww]orld\b"#, options: .regularExpression) != nil }.map(\.name)
        #expect(users == ["DeviceNode+Simulation.swift"])
    }

    /// The cores (sender, receiver, membership) take inputs and produce effects: only the
    /// adapter (`DeviceNode.swift`, the effects it performs in `ClientEffect.swift`, the
    /// simulated context) and the context's own file name a `DeviceContext` (or a `DeviceHost`,
    /// a context that names its device) or hold a `ctx`.
    @Test func onlyTheAdapterUsesTheContext() throws {
        let client = LayeringTests.sources.appendingPathComponent("GrouperModel/Client")
        let users = try LayeringTests.files(in: client)
            .filter { $0.text.range(of: #"\bDevice(Context|Host)\b|\bctx\b"#, options: .regularExpression) != nil }.map(\.name)
        #expect(users.sorted() == ["ClientEffect.swift", "DeviceContext.swift", "DeviceNode+Simulation.swift", "DeviceNode.swift"])
    }
}
