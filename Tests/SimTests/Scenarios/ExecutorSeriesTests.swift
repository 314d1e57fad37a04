import Testing
import SimKernel
@testable import Scenarios
@testable import ScenarioFile
@testable import Execution
@testable import GrouperBinding
@testable import Experiments

/// `GrouperExecutor.series` (what the equations read) skips the checkers, metrics and
/// fingerprint of `execute`, and must give exactly `execute`'s series.
@Suite struct ExecutorSeriesTests {
    static func run(_ model: EquationAssumptions, offline: Double) throws -> ResolvedRun {
        var p = EquationParameters()
        p.model = model
        p.devices = 4; p.updatesPerDevice = 6; p.confirms = 1; p.offline = offline
        p.ttl = .hours(2); p.offlineTime = .hours(1); p.seed = 5
        let (spec, seed) = try ThesisEquations.replicationScenario(p)
        return ResolvedRun(index: 0, point: 0, replication: 0, seed: seed, spec: spec, assignments: [])
    }

    @Test(arguments: [(EquationAssumptions.thesis, 2.0), (.protocol, 2.0), (.protocol, 0.0)])
    func seriesAreExecutesSeries(_ model: EquationAssumptions, _ offline: Double) throws {
        let run = try Self.run(model, offline: offline)
        let full = try GrouperExecutor().execute(run)
        let series = try GrouperExecutor().series(run)
        #expect(!full.series.isEmpty && full.series.contains { $0.contains { $0 > 0 } })
        #expect(series == full.series)
    }
}
