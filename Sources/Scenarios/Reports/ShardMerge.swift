import ScenarioFile
import Plan
import Catalogs
/// Combines the shard files of one scenario into the `ResultSet` a single run
/// would have produced (and so into the same output bytes).
public enum ShardMerge {
    public struct MergeError: Error, CustomStringConvertible { public var description: String }

    /// Shards of different model identities (builds) are refused unless `allowModelMix`; the
    /// result then records them all.
    public static func merge(_ shards: [(where_: String, file: ShardFile)], allowModelMix: Bool = false) throws -> ResultSet {
        guard let first = shards.first?.file else { throw MergeError(description: "merge: no shard folders given") }
        if !allowModelMix, let other = shards.first(where: { $0.file.models != first.models || $0.file.models.count != 1 }) {
            let which = other.where_ == shards[0].where_ ? "\(other.where_) was run by \(ModelIdentity.describe(other.file.models))"
                : "\(other.where_) was run by \(ModelIdentity.describe(other.file.models)), \(shards[0].where_) by \(ModelIdentity.describe(first.models))"
            throw MergeError(description: "merge: \(which): builds of grouper-sim whose numbers may differ. Rerun the shards "
                + "with one build, or add \(ModelIdentity.mixOption) to merge them anyway (the manifest then lists every model)")
        }
        let models = Array(Set(shards.flatMap(\.file.models))).sorted()
        let n = first.of
        for (w, s) in shards {
            guard s.source.bytes == first.source.bytes else {
                throw MergeError(description: "merge: \(w) ran a different scenario file than \(shards[0].where_)")
            }
            guard s.engine == first.engine else {
                throw MergeError(description: "merge: \(w) was run with --engine \(s.engine.rawValue), \(shards[0].where_) with --engine \(first.engine.rawValue); results of different engines cannot be merged")
            }
            func show<T>(_ v: T?) -> String { v.map { "\($0)" } ?? "none" }
            var differs: [String] = []
            if s.of != n { differs.append("--shard i/\(s.of) (\(shards[0].where_): i/\(n))") }
            if s.seed != first.seed { differs.append("--seed \(show(s.seed)) (\(shards[0].where_): \(show(first.seed)))") }
            if s.replications != first.replications {
                differs.append("--replications \(show(s.replications)) (\(shards[0].where_): \(show(first.replications)))")
            }
            if s.precision != first.precision { differs.append("--precision \(show(s.precision)) (\(shards[0].where_): \(show(first.precision)))") }
            func list(_ m: [MetricName]?) -> String { m.map { $0.map(\.rawValue).joined(separator: ",") } ?? "none" }
            if s.precisionMetrics != first.precisionMetrics {
                differs.append("--precision-metrics \(list(s.precisionMetrics)) (\(shards[0].where_): \(list(first.precisionMetrics)))")
            }
            if s.precisionStop != first.precisionStop {
                differs.append("--precision-stop \(show(s.precisionStop?.rawValue)) (\(shards[0].where_): \(show(first.precisionStop?.rawValue)))")
            }
            guard differs.isEmpty else {
                throw MergeError(description: "merge: \(w) was run with other options than \(shards[0].where_): \(differs.joined(separator: ", "))")
            }
        }
        let ids = shards.map(\.file.shard).sorted()
        guard ids == Array(1...n) else {
            let missing = (1...n).filter { !ids.contains($0) }.map(String.init)
            let dup = ids.indices.dropFirst().filter { ids[$0] == ids[$0 - 1] }.map { String(ids[$0]) }
            throw MergeError(description: "merge: need each of shards 1...\(n) exactly once"
                             + (missing.isEmpty ? "" : "; missing: \(missing.joined(separator: ", "))")
                             + (dup.isEmpty ? "" : "; given twice: \(dup.joined(separator: ", "))"))
        }
        let scenario: LoadedScenario
        do {
            scenario = try ScenarioLoader.load(first.source).overriding(seed: first.seed, replications: first.replications, precision: first.precision,
                                                                        precisionMetrics: first.precisionMetrics, precisionStop: first.precisionStop)
        } catch {
            throw MergeError(description: "merge: the embedded scenario no longer validates:\n\(error)")
        }
        if scenario.base.precision != nil {
            let records = try PrecisionShard.merged(shards.flatMap(\.file.records), scenario)
            return ResultSet(scenario: scenario, records: records, engine: first.engine, models: models)
        }
        let plan = RunPlan(scenario)
        let records = shards.flatMap(\.file.records).sorted { $0.index < $1.index }
        guard records.map(\.index) == plan.runs.map(\.index),
              zip(records, plan.runs).allSatisfy({ $0.seed == $1.seed && $0.point == $1.point && $0.replication == $1.replication })
        else { throw MergeError(description: "merge: the shards' runs do not match the scenario's run plan (\(plan.runs.count) runs)") }
        return ResultSet(scenario: scenario, records: records, engine: first.engine, models: models)
    }
}
