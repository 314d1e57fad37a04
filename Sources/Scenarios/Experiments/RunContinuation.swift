import SimKernel
import Catalogs
import ScenarioFile
import Plan
import Execution
import Reports

/// Why a run cannot be continued: what differs, and what to do instead. Bad input (exit 2).
public struct ContinuationRefusal: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The decisions of `run --resume DIR`, `run --add-replications R DIR` and `run --continue`:
/// which scenario, models and kept records a continued run uses, and when it is refused. A
/// continued run writes the same bytes as one uninterrupted run because runs are pure
/// functions of (point, seed), and seeds of (seed, replication) only; so a continuation may
/// reuse a record only for the very scenario bytes, seed and engine that made it.
public enum RunContinuation {
    /// The model identities of a continued run: those `recorded` plus this build's. Refused
    /// (naming both) when they differ, unless `allowMix`.
    public static func models(_ recorded: [String], of what: String, allowMix: Bool, mode: String) throws(ContinuationRefusal) -> [String] {
        let current = ModelIdentity.current
        if recorded == [current] { return recorded }
        guard allowMix else {
            throw ContinuationRefusal("\(what) holds runs of \(ModelIdentity.describe(recorded)); this grouper-sim is model \(current), "
                + "another build whose numbers may differ, and \(mode) would mix both in one result. Run it again into a new folder, "
                + "or add \(ModelIdentity.mixOption) to mix them (the manifest then lists every model); nothing was written")
        }
        return Array(Set(recorded + [current])).sorted()
    }

    /// The scenario `file` (or the recorded built-in), refused when it is not the one `dir` ran.
    public static func scenario(_ file: String?, recorded: String, hash: UInt64, dir: String, mode: String) throws(ContinuationRefusal) -> LoadedScenario {
        let builtin = recorded.hasPrefix("builtin:") ? String(recorded.dropFirst(8)) : nil
        guard let argument = file ?? builtin else {
            throw ContinuationRefusal("\(dir) was run from the scenario file \(recorded); give it: `grouper-sim run \(recorded) \(mode) …`")
        }
        let loaded: LoadedScenario
        do { loaded = try ScenarioLoader.load(BuiltinScenarios.resolve(argument)) } catch {
            throw ContinuationRefusal(error.issues.map(\.description).joined(separator: "\n"))
        }
        let now = StableHash.fnv1a64(bytes: loaded.source.bytes)
        guard now == hash else {
            throw ContinuationRefusal("\(argument) is not the scenario \(dir) was run from (\(recorded), FNV-1a 64 \(StableHash.hex(hash)) in its manifest; "
                + "this file's is \(StableHash.hex(now))): a changed scenario cannot continue earlier runs. Run it into a new folder; nothing was written")
        }
        return loaded
    }

    /// `f` when it ran the same scenario, seed and engine as the unfinished run `h` with fixed
    /// replications (an interrupted `--add-replications` extends it), so its records are reusable.
    public static func sameRun(_ f: FinishedResult?, _ h: PartialRun.Header) -> FinishedResult? {
        guard let f, f.scenarioHash == h.scenarioHash, f.seed == h.seed, f.engine == h.engine, f.replications != nil,
              h.replications != nil else { return nil }
        return f
    }

    /// Kept records by (point, replication), for a session to reuse.
    public static func reusable(_ records: [RunRecord]) -> [RunKey: RunRecord] {
        var out: [RunKey: RunRecord] = [:]
        for r in records { out[RunKey(point: r.point, replication: r.replication)] = r }
        return out
    }

    /// The scenario `f` with `more` replications per point, refused when it ran with a
    /// precision target, would exceed the cap, or does not hold every run it should.
    public static func extended(_ f: FinishedResult, by more: Int, file: String?, dir: String) throws(ContinuationRefusal) -> LoadedScenario {
        guard let reps = f.replications else {
            throw ContinuationRefusal("\(dir) was run with a precision target, which decides each point's replications; "
                + "--add-replications extends runs with a fixed count (run again with a smaller --precision into a new folder)")
        }
        guard reps + more <= 100_000 else { throw ContinuationRefusal("--add-replications: \(reps) + \(more) replications exceed 100000") }
        let loaded = try scenario(file, recorded: f.scenarioFile, hash: f.scenarioHash, dir: dir, mode: "--add-replications")
        let scenario = loaded.overriding(seed: f.seed, replications: reps + more)
        guard f.records.count == scenario.points.count * reps else {
            throw ContinuationRefusal("\(dir)/\(ResultSet.recordsFileName) holds \(f.records.count) runs, expected \(scenario.points.count) points × \(reps); run it again")
        }
        return scenario
    }

    /// What differs between this command's run (`mine`) and the unfinished run `theirs` kept
    /// in the same folder, each with the value found there; empty when they are the same run.
    public static func differences(_ mine: PartialRun.Header, _ theirs: PartialRun.Header) -> [String] {
        var differs: [String] = []
        if mine.scenarioHash != theirs.scenarioHash || mine.scenarioBytes != theirs.scenarioBytes {
            differs.append("scenario (\(theirs.scenarioFile) there, FNV-1a 64 \(StableHash.hex(theirs.scenarioHash)); this one \(StableHash.hex(mine.scenarioHash)))")
        }
        if mine.engine != theirs.engine { differs.append("engine (\(theirs.engine.rawValue) there)") }
        if mine.seed != theirs.seed { differs.append("seed (\(theirs.seed) there)") }
        if mine.replications != theirs.replications { differs.append("replications (\(theirs.replications.map(String.init) ?? "a precision target") there)") }
        if mine.precision != theirs.precision { differs.append("precision (\(theirs.precision.map { "\($0)" } ?? "none") there)") }
        if mine.precisionMetrics != theirs.precisionMetrics, mine.precision != nil, theirs.precision != nil {
            differs.append("precision metrics (\((theirs.precisionMetrics ?? []).map(\.rawValue).joined(separator: ",")) there)")
        }
        if mine.precisionStop != theirs.precisionStop, mine.precision != nil, theirs.precision != nil {
            differs.append("precision stop (\(theirs.precisionStop?.rawValue ?? "together") there)")
        }
        if mine.shard != theirs.shard { differs.append("shard (\(theirs.shard.map { "\($0.index)/\($0.count) with its overrides" } ?? "none") there)") }
        return differs
    }
}
