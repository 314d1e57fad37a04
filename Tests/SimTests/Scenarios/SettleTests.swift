import Testing
@testable import Scenarios
@testable import Format
@testable import ScenarioFile
@testable import Execution
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore
@testable import GrouperBinding
import GrouperModel
import SimKernel

/// In the settle period every device is online, every server up and nobody writes, whatever
/// the churn windows, fault windows and restarts of the scenario say.
@Suite struct SettleTests {
    static let text = """
    {
      "format": 1, "name": "settle", "seed": 4, "duration": "2h", "settle": "1h",
      "group": {"devices": 4, "k": 2, "n": 4, "s": 3, "ttl": "1d"},
      "workload": {"writers": [1, 2], "update": {"every": "1min"}, "delete": {"burst": 3, "at": "90min"}},
      "churn": {"windows": [{"device": 2, "start": "30min", "end": "3h"}, {"device": 3, "start": "70min", "end": "80min"}],
                "devices": [4], "online": "10min", "offline": "2h"},
      "faults": [
        {"kind": "refuse", "servers": [1], "window": {"start": "10min"}},
        {"kind": "blackhole", "servers": [2], "window": {"start": "20min", "end": "5h"}},
        {"kind": "blackhole", "servers": [3], "window": {"start": "90min"}},
        {"kind": "restart", "servers": [4], "at": "100min", "keep_data": false}
      ]
    }
    """

    @Test func settleIsQuietWhateverTheScenarioSays() throws {
        let spec = try ScenarioLoader.load(ScenarioSource(label: "settle.json", text: Self.text)).base
        let system = try GrouperSystem(config: GrouperExecutor.config(spec, seed: 77))
        GrouperDrivers.schedule(spec, on: system, streams: RandomStreams(rootSeed: 77), latency: LatencyRecorder())
        let quiet = SimTime.zero + .hours(1)
        system.run(until: quiet - SimDuration(nanoseconds: 1))
        #expect(!system.isOnline(device: 1) && !system.isOnline(device: 3))       // windows and process before
        #expect(system.serverState(0) == .refusing && system.serverState(1) == .blackhole)
        system.run(until: quiet)
        let writes = system.writes.count
        #expect(writes > 50 && system.writes.allSatisfy { $0.time < quiet })
        let held = system.serverSnapshot(3).shares.map(\.messageID)  // a re-put renews ids, not message ids
        #expect(!held.isEmpty)
        for t in stride(from: 0, through: 60, by: 5) {
            system.run(until: quiet + .minutes(Int64(t)))
            #expect((0..<4).allSatisfy { system.isOnline(device: $0) }, "at settle + \(t) min")
            #expect((0..<4).allSatisfy { system.serverState($0) == .up }, "at settle + \(t) min")
        }
        #expect(system.writes.count == writes, "no writes in settle (the delete burst at 90 min is dropped)")
        let after = Set(system.serverSnapshot(3).shares.map(\.messageID))
        #expect(held.allSatisfy { after.contains($0) }, "the data-losing restart at 100 min is dropped")
    }

    @Test func withoutSettleWindowsRunTheirCourse() throws {
        let text = Self.text.replacingOccurrences(of: "\"settle\": \"1h\",", with: "")
        let spec = try ScenarioLoader.load(ScenarioSource(label: "settle.json", text: text)).base
        let system = try GrouperSystem(config: GrouperExecutor.config(spec, seed: 77))
        GrouperDrivers.schedule(spec, on: system, streams: RandomStreams(rootSeed: 77), latency: LatencyRecorder())
        system.run(until: SimTime.zero + .hours(2))
        #expect(!system.isOnline(device: 1) && system.serverState(0) == .refusing && system.serverState(2) == .blackhole)
        #expect(system.writes.contains { $0.time >= SimTime.zero + .minutes(90) })
    }
}
