import Testing
import SimKernel
import GrouperModel
@testable import Scenarios
@testable import Format
@testable import Catalogs
@testable import ScenarioFile
@testable import Plan
@testable import Execution
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Explore
@testable import Experiments
@testable import GrouperBinding

/// `"architecture"` in scenario files (issue #10): one file, both systems.
@Suite struct ArchitectureScenarioTests {
    static let text = """
    {"format": 1, "name": "arch", "seed": 2, "duration": "1d",
     "group": {"devices": 5, "k": 2, "n": 3, "s": 3, "ttl": "6h"},
     "workload": {"update": {"every": {"dist": "exponential", "mean": "1h"}}},
     "churn": {"online": {"dist": "exponential", "mean": "4h"}, "offline": {"dist": "exponential", "mean": "3h"}},
     "faults": [{"kind": "restart", "servers": [1], "at": "8h", "keep_data": KEEP}],
     "settle": "6h",
     "sweep": [{"path": "architecture", "values": ["grouper", "central"]}]}
    """

    static func outcome(keep: Bool, point: Int) throws -> (spec: ScenarioSpec, outcome: RunOutcome) {
        let loaded = try ScenarioLoader.load(ScenarioSource(label: "arch.json",
                                                            text: text.replacingOccurrences(of: "KEEP", with: "\(keep)")))
        let spec = loaded.pointSpecs[point]
        let run = ResolvedRun(index: point, point: point, replication: 0, seed: 11, spec: spec, assignments: [])
        return (spec, try GrouperExecutor().execute(run))
    }

    static func metric(_ o: RunOutcome, _ name: MetricName) -> Double { o.metrics.first { $0.name == name }!.value }

    @Test func sweepReachesBothArchitectures() throws {
        let loaded = try ScenarioLoader.load(ScenarioSource(label: "arch.json",
                                                            text: Self.text.replacingOccurrences(of: "KEEP", with: "true")))
        #expect(loaded.base.architecture == .grouper)
        #expect(loaded.pointSpecs.map(\.architecture) == [.grouper, .central])
    }

    /// With its data kept, both architectures converge on the same workload and churn.
    @Test(arguments: [0, 1]) func bothConvergeWhenRestartKeepsData(point: Int) throws {
        let (_, o) = try Self.outcome(keep: true, point: point)
        #expect(Self.metric(o, "converged") == 1)
        #expect(Self.metric(o, "delivery_ratio") == 1)
        #expect(Self.metric(o, "messages_uploaded") > 0)
        #expect(o.checkers.allSatisfy { $0.passed }, "\(o.checkers)")
    }

    /// A restart without data: the central server loses what was not fetched yet (counted, and
    /// the convergence checker fails); Grouper's other servers and recovery make up for server 1.
    @Test func noDataRestartLossCaughtForCentralOnly() throws {
        let (_, central) = try Self.outcome(keep: false, point: 1)
        #expect(Self.metric(central, "transfers_lost_in_restart") > 0)
        #expect(Self.metric(central, "converged") == 0)
        #expect(Self.metric(central, "lost_messages") > 0)
        let verdict = central.checkers.first { $0.name == "convergence" }!
        #expect(!verdict.passed && verdict.detail.contains("restarted without its data"))
        let (_, grouper) = try Self.outcome(keep: false, point: 0)
        #expect(Self.metric(grouper, "converged") == 1)
        #expect(Self.metric(grouper, "transfers_lost_in_restart").isNaN)
    }

    @Test func centralRunIsDeterministic() throws {
        let a = try Self.outcome(keep: false, point: 1).outcome, b = try Self.outcome(keep: false, point: 1).outcome
        #expect(a.fingerprint == b.fingerprint)
        #expect(a.metrics.map(\.value).map(\.bitPattern) == b.metrics.map(\.value).map(\.bitPattern))
    }

    @Test func retentionReachesTheModel() throws {
        let s = try ScenarioLoader.load(ScenarioSource(label: "r.json", text: """
        {"format": 1, "name": "r", "duration": "1d", "architecture": "central", "central": {"retention": "3h"},
         "group": {"devices": 3, "k": 2, "n": 3, "s": 3}}
        """)).base
        let retention = CentralExecutor.config(s, seed: 1).retention
        #expect(retention == .hours(3))
    }

    /// The built-in comparison: Grouper converges and no single server reads anything; the
    /// central server reads every message and the data-losing restart costs it transfers.
    @Test(.tags(.slow)) func builtinGrouperVsCentral() throws {
        let text = BuiltinScenarios.grouperVsCentral
        let loaded = try ScenarioLoader.load(ScenarioSource(label: "grouper-vs-central.json", text: text))
        #expect(loaded.pointSpecs.map(\.architecture) == [.grouper, .central])
        func outcome(_ point: Int) throws -> RunOutcome {
            try GrouperExecutor().execute(ResolvedRun(index: point, point: point, replication: 0, seed: 21,
                                                      spec: loaded.pointSpecs[point], assignments: []))
        }
        let g = try outcome(0), c = try outcome(1)
        #expect(Self.metric(g, "converged") == 1 && Self.metric(g, "plaintext_exposed_messages") == 0)
        #expect(Self.metric(g, "bytes_at_rest_mean") > 0 && Self.metric(g, "exposure_seconds_mean") == 0)
        #expect(Self.metric(c, "plaintext_exposed_messages") > 0 && Self.metric(c, "exposure_seconds_mean") > 0)
        #expect(Self.metric(c, "transfers_lost_in_restart") > 0 && Self.metric(c, "converged") == 0)
        #expect(g.checkers.allSatisfy { $0.passed } && c.checkers.filter(\.required).allSatisfy { $0.passed })
        // Central's convergence failure is recorded as such, though the scenario does not require it.
        let convergence = try #require(c.checkers.first { $0.name == "convergence" })
        #expect(!convergence.passed && !convergence.required)
        // Every write counts: Grouper reaches every (member, write) pair; the central server's
        // restart leaves some pairs never reached, which the delivered-only latency leaves out.
        #expect(Self.metric(g, "propagation_censored") == 0 && Self.metric(c, "propagation_censored") > 0)
    }
}
