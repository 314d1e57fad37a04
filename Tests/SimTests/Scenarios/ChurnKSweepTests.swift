import Testing
import SimKernel
@testable import Scenarios
@testable import Format
@testable import Catalogs
@testable import ScenarioFile
@testable import Plan
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore

/// The first example a newcomer runs shows that k matters: with servers that withhold shares,
/// a larger k needs shares that are not there, so receivers ask for re-uploads (thesis) or lose
/// messages (no-recovery).
@Suite(.tags(.slow)) struct ChurnKSweepTests {
    @Test func kChangesTheNumbers() throws {
        let s = try ScenarioLoader.load(try #require(BuiltinScenarios.source(named: "churn-k-sweep")))
        // Replication 0 of the thesis variant at k = 1 and k = 3 (the same workload and churn:
        // common random numbers).
        func point(k: Int) -> Int {
            s.points.firstIndex { p in
                p.assignments.contains { $0.path == "group.k" && $0.value == .number(Double(k), text: String(k)) }
                    && p.assignments.contains { $0.path == "protocol.variant" && $0.value == .string("thesis") }
            }!
        }
        let runs = RunPlan(s).runs.filter { $0.replication == 0 && [point(k: 1), point(k: 3)].contains($0.point) }
        #expect(runs.count == 2)
        let records = try ParallelRunner.execute(runs, executor: GrouperExecutor(), jobs: 2)
        let m = try #require(s.base.metrics.firstIndex(of: "reuploads"))
        let (k1, k3) = (records[0].metrics[m], records[1].metrics[m])
        #expect(k3 > k1 + 10, "k = 3 needs re-uploads for the withheld shares: \(k1) vs \(k3)")
    }
}
