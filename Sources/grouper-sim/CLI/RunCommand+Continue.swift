import Scenarios
import Foundation
import SimKernel

/// `run [FILE] --resume DIR` and `run [FILE] --add-replications R DIR`: the same runs and
/// output bytes as one `run` with the final replication count, reusing the records kept on
/// disk (runs are pure functions of (point, seed), and seeds of (seed, replication) only).
extension RunCommand {
    static func continueRun(_ o: RunOptions, executor: (any RunExecutor)?, io: CLIOutput, terminal: Bool) throws -> ExitCode {
        let dir = o.out!
        let dest = OutputSafety.resolved(dir)
        let partialURL = PartialRun.folder(for: dest)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dest.deletingLastPathComponent().path, isDirectory: &isFolder), isFolder.boolValue else {
            throw CLIError("run: \(dir) is not a grouper-sim run: the folder \(dest.deletingLastPathComponent().path) does not exist; nothing was written")
        }
        let lock = try lock(dir)
        defer { lock.release() }
        let opened: (run: PartialRun, header: PartialRun.Header, records: [RunRecord])?
        do { opened = try PartialRun.open(at: partialURL) } catch { throw CLIError.from(error, "run: ") }
        if let opened, opened.header.shard != nil {
            return try resumeShard(opened, o, dir: dir, executor: executor, io: io, terminal: terminal)
        }
        let finished: FinishedResult?
        do { finished = try FinishedResult.read(dest, label: dir) } catch { throw CLIError.from(error, "run: ") }
        if o.addReplications != nil && opened != nil {
            throw CLIError("run: \(partialURL.path) holds an unfinished run into \(dir); finish it first with `grouper-sim run --resume \(dir)`; nothing was written")
        }
        if opened == nil && PartialRun.exists(partialURL) {
            throw CLIError("run: \(partialURL.path) is not a grouper-sim partial run (it holds files grouper-sim does not write); nothing was written")
        }
        var folder: FolderRun
        if let opened {
            folder = try resumed(opened.header, o, dir: dir, executor: executor)
            folder.models = try models(opened.header.models, of: partialURL.path, o, mode: "--resume")
            folder.partial = opened.run
            folder.reuse = reusable(opened.records + (sameRun(finished, opened.header)?.records ?? []))
        } else if let finished {
            guard let more = o.addReplications else {
                let file = finished.scenarioFile.hasPrefix("builtin:") ? "" : InterruptNotice.shellQuoted(o.files.first ?? finished.scenarioFile) + " "
                io.out("nothing to resume: \(dir) is a finished run (\(finished.records.count) runs); "
                    + (finished.replications == nil ? "it ran with a precision target; run it again with a smaller --precision into a new folder for more replications\n"
                        : "`grouper-sim run \(file)--add-replications 10 \(InterruptNotice.shellQuoted(dir))` adds 10 replications per point\n"))
                return .ok
            }
            folder = try extended(finished, by: more, o, dir: dir, executor: executor)
            folder.models = try models(finished.models, of: dir, o, mode: "--add-replications")
        } else if opened == nil && isFinishedShard(dest) {
            guard o.addReplications == nil else {
                throw CLIError("run: \(dir) is a shard; merge the shards (`grouper-sim merge …`), then extend the merged folder with --add-replications; nothing was written")
            }
            io.out("nothing to resume: \(dir) is a finished shard (\(ShardFile.fileName))\n")
            return .ok
        } else {
            throw CLIError("run: \(dir) is not a grouper-sim run: neither an unfinished run (\(partialURL.lastPathComponent)) nor a result with a manifest.json; nothing was written")
        }
        // The run being resumed had its destination checked when it started (same scenario and
        // engine, or --replace); an extension replaces its own result.
        folder.extendsItself = true
        do {
            _ = try OutputSafety.checkFolder(dir, option: o.resume != nil ? "--resume" : "--add-replications",
                                             writing: ResultOrigin(.result, source: folder.scenario.source, engine: folder.engine),
                                             replace: folder.extendsItself)
        } catch { throw CLIError.from(error, "run: ") }
        if let opened { try recordModels(folder.models, opened.header, opened.run) }
        let records = try runIntoFolder(folder, o, io: io, terminal: terminal)
        // The replay lines name the options the runs used.
        var used = o
        used.engine = folder.engine
        used.precision = folder.scenario.base.precision?.relativeCI95
        used.replications = folder.scenario.base.precision == nil ? folder.scenario.base.replications : nil
        return report(failures: records, scenario: folder.scenario, used, io: io)
    }

    /// The model identities of a continued run: those `recorded` plus this build's. Refused
    /// (exit 2, naming both) when they differ, unless `--allow-model-mix`.
    static func models(_ recorded: [String], of what: String, _ o: RunOptions, mode: String) throws -> [String] {
        let current = ModelIdentity.current
        if recorded == [current] { return recorded }
        guard o.allowModelMix else {
            throw CLIError("run: \(what) holds runs of \(ModelIdentity.describe(recorded)); this grouper-sim is model \(current), "
                + "another build whose numbers may differ, and \(mode) would mix both in one result. Run it again into a new folder, "
                + "or add \(ModelIdentity.mixOption) to mix them (the manifest then lists every model); nothing was written")
        }
        return Array(Set(recorded + [current])).sorted()
    }

    /// Records a resumed partial folder's models in its header before any run, so that a
    /// later resume by either build sees the mix.
    static func recordModels(_ list: [String], _ h: PartialRun.Header, _ run: PartialRun) throws {
        guard list != h.models else { return }
        var header = h
        header.models = list
        do { try run.update(header) } catch { throw CLIError.from(error, "run: ") }
    }

    /// The scenario of an unfinished run, with the overrides it was started with.
    static func resumed(_ h: PartialRun.Header, _ o: RunOptions, dir: String, executor: (any RunExecutor)?) throws -> FolderRun {
        let loaded = try scenario(o.files.first, recorded: h.scenarioFile, hash: h.scenarioHash, dir: dir, mode: "--resume")
        return FolderRun(scenario: h.applied(to: loaded), destination: dir, engine: h.engine, executor: executor ?? h.engine.executor)
    }

    /// A finished result with `more` replications per point; its records are reused.
    static func extended(_ f: FinishedResult, by more: Int, _ o: RunOptions, dir: String, executor: (any RunExecutor)?) throws -> FolderRun {
        guard let reps = f.replications else {
            throw CLIError("run: \(dir) was run with a precision target, which decides each point's replications; "
                + "--add-replications extends runs with a fixed count (run again with a smaller --precision into a new folder)")
        }
        guard reps + more <= 100_000 else { throw CLIError("run: --add-replications: \(reps) + \(more) replications exceed 100000") }
        let loaded = try scenario(o.files.first, recorded: f.scenarioFile, hash: f.scenarioHash, dir: dir, mode: "--add-replications")
        let scenario = loaded.overriding(seed: f.seed, replications: reps + more)
        guard f.records.count == scenario.points.count * reps else {
            throw CLIError("run: \(dir)/\(ResultSet.recordsFileName) holds \(f.records.count) runs, expected \(scenario.points.count) points × \(reps); run it again")
        }
        return FolderRun(scenario: scenario, destination: dir, engine: f.engine, executor: executor ?? f.engine.executor,
                         reuse: reusable(f.records))
    }

    /// The finished result's records when it ran the same scenario, seed and engine as `h`
    /// (an interrupted `--add-replications` extends it).
    static func sameRun(_ f: FinishedResult?, _ h: PartialRun.Header) -> FinishedResult? {
        guard let f, f.scenarioHash == h.scenarioHash, f.seed == h.seed, f.engine == h.engine, f.replications != nil,
              h.replications != nil else { return nil }
        return f
    }

    static func reusable(_ records: [RunRecord]) -> [RunKey: RunRecord] {
        var out: [RunKey: RunRecord] = [:]
        for r in records { out[RunKey(point: r.point, replication: r.replication)] = r }
        return out
    }

    /// The scenario FILE (or the recorded built-in), refused when it is not the one `dir` ran.
    static func scenario(_ file: String?, recorded: String, hash: UInt64, dir: String, mode: String) throws -> LoadedScenario {
        let builtin = recorded.hasPrefix("builtin:") ? String(recorded.dropFirst(8)) : nil
        guard let argument = file ?? builtin else {
            throw CLIError("run: \(dir) was run from the scenario file \(recorded); give it: `grouper-sim run \(recorded) \(mode) …`")
        }
        let loaded: LoadedScenario
        do { loaded = try ScenarioLoader.load(BuiltinScenarios.resolve(argument)) } catch {
            throw CLIError("run: \(error.issues.map(\.description).joined(separator: "\n"))")
        }
        let now = StableHash.fnv1a64(bytes: loaded.source.bytes)
        guard now == hash else {
            throw CLIError("run: \(argument) is not the scenario \(dir) was run from (\(recorded), FNV-1a 64 \(StableHash.hex(hash)) in its manifest; "
                + "this file's is \(StableHash.hex(now))): a changed scenario cannot continue earlier runs. Run it into a new folder; nothing was written")
        }
        return loaded
    }
}

/// `run FILE … --continue`: the same command run twice (a requeued cluster job) resumes its
/// own unfinished run, or starts fresh when there is none.
extension RunCommand {
    /// The options of `--resume DIR` when DIR.partial holds the unfinished run of exactly this
    /// command (scenario file bytes, seed, replications or precision, shard, engine); nil when
    /// there is none (a fresh run); refused (exit 2, naming what differs) when it is another's.
    static func ownUnfinishedRun(_ s: LoadedScenario, _ o: RunOptions, io: CLIOutput) throws -> RunOptions? {
        guard o.point == nil else { return nil }
        let dir = outputFolder(s, o, multiple: false)
        let url = PartialRun.folder(for: OutputSafety.resolved(dir))
        guard PartialRun.exists(url), let opened = try? PartialRun.open(at: url) else { return nil }
        var mine = PartialRun.Header(s, engine: o.engine)
        if let (i, n) = o.shard {
            mine.shard = PartialRun.Shard(index: i, count: n, seedOverride: o.seed, replicationsOverride: o.replications,
                                          precisionOverride: o.precision)
        }
        let theirs = opened.header
        mine.models = theirs.models
        guard mine != theirs else {
            io.err("continuing the unfinished run in \(dir).partial (\(opened.records.count) runs kept)\n")
            var r = o
            r.resume = dir
            r.out = dir
            r.seed = nil; r.replications = nil; r.precision = nil; r.shard = nil; r.engineGiven = false; r.replace = false
            r.startOrContinue = false
            return r
        }
        var differs: [String] = []
        if mine.scenarioHash != theirs.scenarioHash || mine.scenarioBytes != theirs.scenarioBytes {
            differs.append("scenario (\(theirs.scenarioFile) there, FNV-1a 64 \(StableHash.hex(theirs.scenarioHash)); this one \(StableHash.hex(mine.scenarioHash)))")
        }
        if mine.engine != theirs.engine { differs.append("engine (\(theirs.engine.rawValue) there)") }
        if mine.seed != theirs.seed { differs.append("seed (\(theirs.seed) there)") }
        if mine.replications != theirs.replications { differs.append("replications (\(theirs.replications.map(String.init) ?? "a precision target") there)") }
        if mine.precision != theirs.precision { differs.append("precision (\(theirs.precision.map { "\($0)" } ?? "none") there)") }
        if mine.precisionMetrics != theirs.precisionMetrics, mine.precision != nil, theirs.precision != nil {
            differs.append("precision metrics (\((theirs.precisionMetrics ?? []).joined(separator: ",")) there)")
        }
        if mine.shard != theirs.shard { differs.append("shard (\(theirs.shard.map { "\($0.index)/\($0.count) with its overrides" } ?? "none") there)") }
        throw CLIError("run: --continue: \(url.path) holds an unfinished run of another command into \(dir), which differs in its "
            + differs.joined(separator: ", ") + "; resume it with `grouper-sim run \(theirs.scenarioFile) --resume \(dir)`, "
            + "or remove \(url.path) to start again; nothing was written")
    }
}

/// Which metrics a precision target is checked on, and what the output says about them.
extension RunCommand {
    /// `--precision-metrics` names metrics of the scenario, and needs a precision target.
    static func checkPrecisionMetrics(_ s: LoadedScenario, _ o: RunOptions) throws {
        guard let names = o.precisionMetrics else { return }
        guard o.precision != nil || s.base.precision != nil else {
            throw CLIError("run: --precision-metrics names the metrics of a precision target; \(s.base.name) has none: add --precision X")
        }
        for n in names where !s.base.metrics.contains(n) {
            throw CLIError("run: --precision-metrics: '\(n)' is not a metric of \(s.base.name)\(didYouMean(n, among: s.base.metrics)); "
                + "its metrics: \(s.base.metrics.joined(separator: ", "))")
        }
    }

    /// Warnings after a run with a precision target: a targeted metric that is 0 in more than
    /// half the runs (a relative interval around a mean near 0 needs many runs, often the cap),
    /// and points that stopped at different counts (common random numbers pair the points'
    /// runs only up to the smallest count).
    static func precisionNotes(_ s: LoadedScenario, _ records: [RunRecord]) -> String {
        guard let p = s.base.precision, !records.isEmpty else { return "" }
        var out = ""
        for m in p.metrics {
            guard let i = s.base.metrics.firstIndex(of: m) else { continue }
            let zeros = records.filter { $0.metrics.indices.contains(i) && $0.metrics[i] == 0 }.count
            if 2 * zeros > records.count {
                out += "warning: \(s.base.name): the precision target's metric \(m) is 0 in \(zeros) of \(records.count) runs; "
                    + "a relative interval around a mean near 0 needs many runs (often the cap): target other metrics with --precision-metrics\n"
            }
        }
        var counts: [Int: Int] = [:]
        for r in records { counts[r.point, default: 0] += 1 }
        let values = counts.keys.sorted().map { counts[$0]! }
        if let lo = values.min(), let hi = values.max(), lo != hi {
            out += "note: \(s.base.name): the points stopped at different replication counts (\(lo) to \(hi)); common random numbers "
                + "pair the points' runs only up to replication \(lo) (compare points with a fixed --replications to keep the pairing)\n"
        }
        return out
    }
}
