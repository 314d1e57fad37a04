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
            folder.reuse = RunContinuation.reusable(opened.records + (RunContinuation.sameRun(finished, opened.header)?.records ?? []))
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

    /// The model identities of a continued run (`RunContinuation.models`).
    static func models(_ recorded: [String], of what: String, _ o: RunOptions, mode: String) throws -> [String] {
        do { return try RunContinuation.models(recorded, of: what, allowMix: o.allowModelMix, mode: mode) } catch { throw CLIError("run: \(error)") }
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
        let scenario: LoadedScenario
        do { scenario = try RunContinuation.extended(f, by: more, file: o.files.first, dir: dir) } catch { throw CLIError("run: \(error)") }
        return FolderRun(scenario: scenario, destination: dir, engine: f.engine, executor: executor ?? f.engine.executor,
                         reuse: RunContinuation.reusable(f.records))
    }

    /// The scenario FILE (or the recorded built-in), refused when it is not the one `dir` ran.
    static func scenario(_ file: String?, recorded: String, hash: UInt64, dir: String, mode: String) throws -> LoadedScenario {
        do { return try RunContinuation.scenario(file, recorded: recorded, hash: hash, dir: dir, mode: mode) } catch { throw CLIError("run: \(error)") }
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
                                          precisionOverride: o.precision, precisionMetricsOverride: o.precisionMetricNames,
                                          precisionStopOverride: o.precisionStop)
        }
        let theirs = opened.header
        mine.models = theirs.models
        guard mine != theirs else {
            io.err("continuing the unfinished run in \(dir).partial (\(opened.records.count) runs kept)\n")
            var r = o
            r.resume = dir
            r.out = dir
            r.seed = nil; r.replications = nil; r.precision = nil; r.shard = nil; r.engineGiven = false; r.replace = false
            r.precisionMetrics = nil; r.precisionStop = nil
            r.startOrContinue = false
            return r
        }
        let differs = RunContinuation.differences(mine, theirs)
        throw CLIError("run: --continue: \(url.path) holds an unfinished run of another command into \(dir), which differs in its "
            + differs.joined(separator: ", ") + "; resume it with `grouper-sim run \(theirs.scenarioFile) --resume \(dir)`, "
            + "or remove \(url.path) to start again; nothing was written")
    }
}

/// Which metrics a precision target is checked on, and what the output says about them.
extension RunCommand {
    /// `--precision-metrics` names metrics of the scenario, and needs a precision target:
    /// the names, parsed; nil without the option.
    static func checkPrecisionMetrics(_ s: LoadedScenario, _ o: RunOptions) throws -> [MetricName]? {
        guard let names = o.precisionMetrics else { return nil }
        guard o.precision != nil || s.base.precision != nil else {
            throw CLIError("run: --precision-metrics names the metrics of a precision target; \(s.base.name) has none: add --precision X")
        }
        let own = s.base.metrics.map(\.rawValue)
        return try names.map { n in
            guard let m = MetricName(rawValue: n), s.base.metrics.contains(m) else {
                throw CLIError("run: --precision-metrics: '\(n)' is not a metric of \(s.base.name)\(didYouMean(n, among: own)); "
                    + "its metrics: \(own.joined(separator: ", "))")
            }
            return m
        }
    }

    /// `--precision-stop` needs a precision target; a shard needs points that stop per point
    /// (independent shard processes cannot stop their points together).
    static func checkPrecisionStop(_ s: LoadedScenario, _ o: RunOptions) throws {
        if o.precisionStop != nil && s.base.precision == nil {
            throw CLIError("run: --precision-stop says how the points of a precision target stop; \(s.base.name) has none: add --precision X")
        }
        if o.shard != nil, let p = s.base.precision, p.stop == .together {
            throw CLIError("run: --shard: \(s.base.name)'s precision target stops its points together (every point runs until every point "
                + "meets the target, so all have the same replications, paired by replication), which independent shards cannot do; "
                + "add --precision-stop per-point to let each point stop on its own (runs are then paired only up to the smallest count), "
                + "or run without --shard; nothing was written")
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
                + "pair the points' runs only up to replication \(lo) (drop --precision-stop per-point or "
                + "\"stop\": \"per-point\" to stop the points together, or use a fixed --replications)\n"
        }
        return out
    }
}
