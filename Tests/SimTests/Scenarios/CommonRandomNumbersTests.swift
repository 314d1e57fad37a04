import Foundation
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

/// Common random numbers: replication r draws the same workload and churn at every sweep
/// point, and adding sweep values never changes an existing run.
@Suite struct CommonRandomNumbersTests {
    static let kSweep = """
    {
      "format": 1, "name": "crn", "seed": 5, "replications": 2, "duration": "6h",
      "group": {"devices": 4, "k": 2, "n": 4, "s": 3, "ttl": "2h"},
      "workload": {"update": {"every": {"dist": "exponential", "mean": "20min"}, "stop": "5h"},
                   "object_size": {"dist": "uniform", "min": 100, "max": 900}},
      "churn": {"online": {"dist": "exponential", "mean": "2h"}, "offline": {"dist": "exponential", "mean": "1h"}},
      "settle": "30min",
      "sweep": [{"path": "group.k", "values": [1, 2, 3]}],
      "metrics": ["updates_uploaded", "messages_uploaded"]
    }
    """

    /// The workload and churn commands (time, device, command, object, size) of one run.
    private func commands(_ run: ResolvedRun, in dir: URL) throws -> [String] {
        var r = run
        let path = dir.appendingPathComponent("p\(run.point)-r\(run.replication).jsonl").path
        r.events = EventTraceRequest(path: path, kinds: ["command"])
        _ = try GrouperExecutor().execute(r)
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains("\"command\":\"update\"") || $0.contains("\"command\":\"online\"") || $0.contains("\"command\":\"offline\"") }
            .map { line in String(line.replacingOccurrences(of: #""seq":\d+,"#, with: "", options: .regularExpression)) }
    }

    @Test func aKSweepWithoutFaultsDrawsTheSameWorkloadAtEveryK() throws {
        let dir = ScenarioFixtures.tempDir("crn")
        let plan = RunPlan(try ScenarioLoader.load(ScenarioSource(label: "crn.json", text: Self.kSweep)))
        for rep in 0..<2 {
            let runs = plan.runs.filter { $0.replication == rep }
            #expect(runs.count == 3 && Set(runs.map(\.seed)).count == 1)
            let first = try commands(runs[0], in: dir)
            #expect(first.filter { $0.contains("update") }.count > 20, "the workload must write something")
            for run in runs.dropFirst() { #expect(try commands(run, in: dir) == first, "k = \(run.point + 1)") }
        }
        // And the count of updates written and uploaded is the same at every k (no faults).
        let records = try ParallelRunner.execute(plan.runs, executor: GrouperExecutor(), jobs: 2)
        for rep in 0..<2 {
            let ups = records.filter { $0.replication == rep }.map { $0.metrics[0] }
            #expect(Set(ups).count == 1, "updates_uploaded by k: \(ups)")
        }
    }

    @Test func addingSweepValuesOnAnyAxisKeepsExistingRuns() throws {
        func records(_ ks: String, _ ttls: String) throws -> [String: RunFingerprint] {
            let text = """
            {"format": 1, "name": "grow", "seed": 9, "replications": 2, "duration": "1h",
             "group": {"devices": 3, "k": 2, "n": 3, "s": 3},
             "sweep": [{"path": "group.k", "values": [\(ks)]}, {"path": "group.ttl", "values": [\(ttls)]}]}
            """
            let plan = RunPlan(try ScenarioLoader.load(ScenarioSource(label: "g.json", text: text)))
            let recs = try ParallelRunner.execute(plan.runs, executor: GrouperExecutor(), jobs: 2)
            var out: [String: RunFingerprint] = [:]
            for r in recs { out["\(plan.scenario.points[r.point].label) r\(r.replication)"] = r.fingerprint }
            return out
        }
        let small = try records("1, 2", "\"30min\"")
        let grown = try records("1, 2, 3", "\"30min\", \"1h\"")
        #expect(small.count == 4 && grown.count == 12)
        for (key, fp) in small { #expect(grown[key] == fp, "\(key) changed when sweep values were added") }
    }
}
