import ScenarioFile
import Plan
import Execution
/// Shards of a scenario with a precision target split the sweep by point: shard i of N runs
/// points i − 1, i − 1 + N, … each to its own stopping count (a point's count depends only on
/// its own records), and `merge` checks every point's count against the rule before numbering
/// the runs as one `run` does. A sweep with fewer points than shards leaves some shards empty.
/// Only a target whose points stop per point can be sharded: points that stop together need
/// every point's records at every checkpoint, which independent shard processes do not have
/// (the command line refuses such a shard).
public enum PrecisionShard {
    /// The records of shard `i` of `n` (plan indices; `merged` renumbers them).
    public static func records(_ plan: RunPlan, shard i: Int, of n: Int, session: RunSession) throws -> [RunRecord] {
        let points = plan.scenario.points.indices.filter { $0 % n == i - 1 }
        return try PrecisionRunner.execute(plan, points: Array(points), session: session).flatMap { $0 }
    }

    /// Every point's records, checked (replications 0..<c in order, the plan's seeds, c the
    /// rule's count) and numbered as a single run numbers them.
    public static func merged(_ records: [RunRecord], _ scenario: LoadedScenario) throws -> [RunRecord] {
        let plan = RunPlan(scenario)
        let max = scenario.base.replications
        let sorted = records.sorted { RunKey(point: $0.point, replication: $0.replication) < RunKey(point: $1.point, replication: $1.replication) }
        var perPoint: [[RunRecord]] = scenario.points.map { _ in [] }
        for r in sorted {
            guard perPoint.indices.contains(r.point), r.replication == perPoint[r.point].count, r.replication < max,
                  plan.runs[r.point * max + r.replication].seed == r.seed else {
                throw ShardMerge.MergeError(description: "merge: the shards' runs do not match the scenario's run plan (point \(r.point), replication \(r.replication))")
            }
            perPoint[r.point].append(r)
        }
        if let precision = scenario.base.precision, precision.stop == .together {
            let c = PrecisionRule.togetherStopCount(perPoint.map { $0[...] }, specs: scenario.pointSpecs, precision: precision)
            guard let c, perPoint.allSatisfy({ $0.count == c }) else {
                throw ShardMerge.MergeError(description: "merge: the points' run counts (\(perPoint.map(\.count).map(String.init).joined(separator: ", "))) "
                    + "are not where a precision target that stops the points together stops; a shard is missing or was cut short")
            }
            return PrecisionRunner.numbered(perPoint)
        }
        for (p, rs) in perPoint.enumerated() {
            let spec = scenario.pointSpecs[p]
            guard PrecisionRule.stopCount(rs[...], spec: spec, precision: spec.precision!) == rs.count else {
                throw ShardMerge.MergeError(description: "merge: point \(p) has \(rs.count) runs, which is not where its precision target stops; a shard is missing or was cut short")
            }
        }
        return PrecisionRunner.numbered(perPoint)
    }
}
