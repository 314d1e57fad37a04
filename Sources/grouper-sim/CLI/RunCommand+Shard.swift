import Scenarios
import Foundation
import SimKernel

/// `run --shard i/N` into a folder: like a whole run, every finished run's record is kept in
/// `<DIR>.partial/` as it completes, so `run [FILE] --resume DIR` continues an interrupted
/// shard; `shard.json` is written whole at the end and the partial folder removed. A resumed
/// shard writes the same bytes as an uninterrupted one.
extension RunCommand {
    struct ShardRun {
        var scenario: LoadedScenario
        var slice: PartialRun.Shard
        var destination: String
        var engine: Engine
        var executor: any RunExecutor
        var reuse: [RunKey: RunRecord] = [:]
        var partial: PartialRun? = nil
        var models = [ModelIdentity.current]
    }

    static func shardRun(_ scenario: LoadedScenario, _ o: RunOptions, executor: any RunExecutor, multiple: Bool) -> ShardRun {
        let (i, n) = o.shard!
        return ShardRun(scenario: scenario,
                        slice: PartialRun.Shard(index: i, count: n, seedOverride: o.seed, replicationsOverride: o.replications,
                                                precisionOverride: o.precision, precisionMetricsOverride: o.precisionMetricNames,
                                                precisionStopOverride: o.precisionStop),
                        destination: outputFolder(scenario, o, multiple: multiple), engine: o.engine, executor: executor)
    }

    /// Runs the slice (reusing kept records), writes `shard.json`, removes the partial folder.
    static func runShardIntoFolder(_ f: ShardRun, _ o: RunOptions, io: CLIOutput, terminal: Bool) throws -> [RunRecord] {
        let plan = RunPlan(f.scenario, tracePath: o.trace, events: o.events)
        let (i, n) = (f.slice.index, f.slice.count)
        let runs = plan.shard(i, of: n)
        let precise = f.scenario.base.precision != nil
        for (option, given) in [("--trace", o.trace != nil), ("--events", o.events != nil)] where given && (runs.count != 1 || precise) {
            throw CLIError("run: \(option) needs exactly one run, \(f.scenario.base.name) has \(runs.count); add --point P --replication R")
        }
        let partial: PartialRun
        do {
            var header = PartialRun.Header(f.scenario, engine: f.engine)
            header.shard = f.slice
            header.models = f.models
            partial = try f.partial ?? PartialRun.create(at: PartialRun.folder(for: OutputSafety.resolved(f.destination)), header: header)
        } catch { throw CLIError.from(error, "run: ") }
        let bar = ProgressBar(label: f.scenario.base.name, style: ProgressBar.style(o.progress, terminal: terminal), io: io)
        let session = keepingSession(f.executor, jobs: o.jobs, reuse: f.reuse, into: partial, bar: bar)
        let points = f.scenario.points.indices.filter { $0 % n == i - 1 }.count
        if precise ? points == 0 : runs.isEmpty {
            io.err("warning: \(f.scenario.base.name): shard \(i) of \(n) holds no runs: "
                + (precise ? "with a precision target shards split the sweep's points, and it has \(f.scenario.points.count); use --shard i/N with N ≤ \(f.scenario.points.count)"
                           : "the scenario has \(plan.runs.count) runs; use --shard i/N with N ≤ \(plan.runs.count)")
                + " (merge still needs this shard)\n")
        }
        if let p = f.scenario.base.precision { bar.capped(at: points * p.maxReplications); bar.batch(1) }
        bar.begin(precise ? points * f.scenario.base.precision!.minReplications : runs.count)
        InterruptNotice.set(.init(partial: partial.url, destination: f.destination, file: InterruptNotice.argument(f.scenario.source), progress: bar))
        defer { InterruptNotice.set(nil) }
        let records: [RunRecord]
        do {
            records = precise ? try PrecisionShard.records(plan, shard: i, of: n, session: session) : try session.execute(runs)
        } catch {
            bar.finish()
            let kept = " (the runs that finished are kept in \(partial.url.path); `grouper-sim run \(InterruptNotice.shellQuoted(InterruptNotice.argument(f.scenario.source))) --resume \(InterruptNotice.shellQuoted(f.destination))` continues)"
            throw CLIError.from(error, "run: \(f.scenario.base.name): ").appending(kept)
        }
        bar.finish()
        var shard = ShardFile(shard: i, of: n, source: f.scenario.source, seed: f.slice.seedOverride,
                              replications: f.slice.replicationsOverride, records: records, engine: f.engine,
                              precision: f.slice.precisionOverride, models: f.models)
        shard.precisionMetrics = f.slice.precisionMetricsOverride
        shard.precisionStop = f.slice.precisionStopOverride
        let old: ResultOrigin?
        do {
            old = try OutputDirectory.write([(ShardFile.fileName, shard.render())], to: f.destination,
                                            writing: ResultOrigin(.shard, source: f.scenario.source, engine: f.engine), replace: o.replace)
        } catch { throw CLIError.from(error, "run: ") }
        partial.remove()
        io.err(precisionNotes(f.scenario, records))
        io.out(replaced(old, f.destination).dropFirst() + (old == nil ? "" : "\n") + "wrote \(f.destination)/\(ShardFile.fileName) (shard \(i) of \(n): \(records.count) runs)\n")
        return records
    }

    /// `--resume DIR` of an interrupted shard: the same slice, overrides and engine.
    static func resumeShard(_ opened: (run: PartialRun, header: PartialRun.Header, records: [RunRecord]), _ o: RunOptions,
                            dir: String, executor: (any RunExecutor)?, io: CLIOutput, terminal: Bool) throws -> ExitCode {
        let h = opened.header, slice = h.shard!
        if o.addReplications != nil {
            throw CLIError("run: \(dir) holds an unfinished shard (\(slice.index) of \(slice.count)); finish it with `grouper-sim run --resume \(dir)`, merge the shards, then extend the merged folder; nothing was written")
        }
        let loaded = try scenario(o.files.first, recorded: h.scenarioFile, hash: h.scenarioHash, dir: dir, mode: "--resume")
        let models = try models(h.models, of: "\(dir).partial", o, mode: "--resume")
        let folder = ShardRun(scenario: h.applied(to: loaded), slice: slice, destination: dir, engine: h.engine,
                              executor: executor ?? h.engine.executor, reuse: RunContinuation.reusable(opened.records), partial: opened.run,
                              models: models)
        do { _ = try OutputSafety.checkFolder(dir, option: "--resume", writing: ResultOrigin(.shard, source: folder.scenario.source, engine: h.engine),
                                              replace: true) } catch {
            throw CLIError.from(error, "run: ")
        }
        try recordModels(models, h, opened.run)
        var used = o
        used.engine = h.engine
        used.seed = slice.seedOverride
        used.replications = slice.replicationsOverride
        used.precision = slice.precisionOverride
        used.precisionMetrics = slice.precisionMetricsOverride?.map(\.rawValue)
        used.precisionStop = slice.precisionStopOverride
        used.shard = (slice.index, slice.count)
        // The destination was checked when the shard started (same scenario and engine, or --replace).
        used.replace = true
        let records = try runShardIntoFolder(folder, used, io: io, terminal: terminal)
        return report(failures: records, scenario: folder.scenario, used, io: io)
    }

    /// Whether `url` holds a finished shard (`shard.json`).
    static func isFinishedShard(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent(ShardFile.fileName).path)
    }
}
