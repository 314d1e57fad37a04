import Plan
import Execution
/// Runs a scenario with a `precision` target: every point gets its first
/// `minReplications` runs, then batches of `batch` more until `PrecisionRule` stops it. One
/// round runs the next batch of every point still going, on all `jobs`.
///
/// Points that stop together (`PrecisionSpec.Stop.together`, the default) all run the next
/// batch until every point meets the target at the same count (or the cap); their count
/// depends on the records of all `points`. A point that stops per point depends only on its
/// own records (replications 0, 1, … in order), so its count is the same for any subset of
/// points (a shard). Either way the counts are the same for every `--jobs` and for a resumed run.
public enum PrecisionRunner {
    /// Records of `points` (each point's replications in order, plan indices), point by point.
    public static func execute(_ plan: RunPlan, points: [Int], session: RunSession) throws -> [[RunRecord]] {
        let max = plan.scenario.base.replications
        var records: [[RunRecord]] = points.map { _ in [] }
        var going = Array(points.indices)
        var base = session
        var doneBefore = 0, round = 0
        while !going.isEmpty {
            round += 1
            session.batch?(round)
            var runs: [ResolvedRun] = []
            var targets: [Int] = []
            for g in going {
                let p = points[g], spec = plan.scenario.pointSpecs[p], precision = spec.precision!
                let next = precision.checkpoints.first { $0 > records[g].count } ?? precision.maxReplications
                targets.append(next)
                runs += (records[g].count..<next).map { plan.runs[p * max + $0] }
            }
            let before = doneBefore, outer = session.progress
            base.progress = { d, t in outer(before + d, before + t) }
            if let partial = session.partial { base.partial = { d, t in partial(Double(before) + d, before + t) } }
            let fresh = try base.execute(runs)
            doneBefore += runs.count
            var cursor = 0
            for (g, target) in zip(going, targets) {
                let n = target - records[g].count
                records[g] += fresh[cursor..<(cursor + n)]
                cursor += n
            }
            let precision = plan.scenario.base.precision!
            if precision.stop == .together {
                let specs = points.map { plan.scenario.pointSpecs[$0] }
                if PrecisionRule.togetherStopCount(records.map { $0[...] }, specs: specs, precision: precision) != nil { going = [] }
            } else {
                going = going.filter { g in
                    let spec = plan.scenario.pointSpecs[points[g]]
                    return PrecisionRule.stopCount(records[g][...], spec: spec, precision: spec.precision!) == nil
                }
            }
        }
        return records
    }

    /// Records of every point in run order, numbered 0, 1, … (point-major): the runs of a
    /// precision result as `runs.csv` and the manifest list them.
    public static func numbered(_ perPoint: [[RunRecord]]) -> [RunRecord] {
        var out = perPoint.flatMap { $0 }
        for i in out.indices { out[i].index = i }
        return out
    }
}
