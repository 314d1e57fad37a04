import Scenarios
import SimKernel
import Foundation

/// Options of `grouper-sim run`.
public struct RunOptions: Sendable {
    public var files: [String] = []
    public var seed: UInt64?
    public var replications: Int?
    public var jobs = 1
    public var out: String?
    public var trace: String?
    /// `--events FILE` and `--event-kinds K,…`.
    public var events: EventTraceRequest?
    public var shard: (index: Int, count: Int)?
    public var point: Int?
    public var replication: Int?
    public var engine = Engine.grouper
    /// `--progress auto|always|never`.
    public var progress = ProgressMode.auto
    /// `--precision X`: replications per point until the 95% interval is within ±X of the mean.
    public var precision: Double?
    /// `--precision-metrics M,…`: the metrics the precision target is checked on.
    public var precisionMetrics: [String]?
    /// `--precision-stop together|per-point`: whether the points of a precision target stop together.
    public var precisionStop: PrecisionSpec.Stop?
    /// `--precision-metrics` as metric names (names that are none are refused when the scenario loads).
    var precisionMetricNames: [MetricName]? { precisionMetrics.map { $0.compactMap(MetricName.init(rawValue:)) } }
    /// `--resume DIR`: continue the unfinished run whose results go to DIR.
    public var resume: String?
    /// `--add-replications R DIR`: extend the finished result DIR by R replications per point.
    public var addReplications: Int?
    /// Whether `--engine` was given (`--resume` takes the engine from the run it continues).
    public var engineGiven = false
    /// `--replace`: a result folder holding a result of another scenario or engine may be replaced.
    public var replace = false
    /// `--allow-model-mix`: `--resume`/`--add-replications` may combine runs of another build.
    public var allowModelMix = false
    /// `--continue`: resume this command's own unfinished run in DIR.partial, else start fresh
    /// (what a requeued cluster job needs: the same command twice).
    public var startOrContinue = false
    public init() {}

    static let known = ["--seed", "--replications", "--jobs", "--out", "--trace", "--events", "--event-kinds", "--shard", "--point",
                        "--replication", "--engine", "--progress", "--precision", "--resume", "--add-replications", "--replace", "--allow-model-mix",
                        "--continue", "--precision-metrics", "--precision-stop"]

    public static func parse(_ args: [String]) throws -> RunOptions {
        var l = ArgumentList(args, command: "run")
        var o = RunOptions()
        o.seed = try l.uint64("--seed")
        o.replications = try l.int("--replications", in: 1...100_000)
        o.jobs = try l.int("--jobs", in: 1...1024) ?? ProcessInfo.processInfo.activeProcessorCount
        o.out = try l.option("--out")
        o.trace = try l.option("--trace")
        o.events = try parseEvents(path: l.option("--events"), kinds: l.option("--event-kinds"))
        if let s = try l.option("--shard") {
            let parts = s.split(separator: "/").map { Int($0) }
            guard parts.count == 2, let i = parts[0], let n = parts[1], n >= 1, (1...n).contains(i) else {
                throw CLIError("run: --shard must be i/N with 1 ≤ i ≤ N (e.g. 2/8), got '\(s)'")
            }
            o.shard = (i, n)
        }
        o.point = try l.int("--point", in: 0...10_000_000)
        o.replication = try l.int("--replication", in: 0...10_000_000)
        if let e = try l.option("--engine") {
            guard let engine = Engine(rawValue: e) else {
                throw CLIError("run: --engine must be one of \(Engine.allCases.map(\.rawValue).joined(separator: ", ")), got '\(e)'")
            }
            o.engine = engine
            o.engineGiven = true
        }
        if let p = try l.option("--progress") {
            guard let mode = ProgressMode(rawValue: p) else {
                throw CLIError("run: --progress must be one of \(ProgressMode.allCases.map(\.rawValue).joined(separator: ", ")), got '\(p)'")
            }
            o.progress = mode
        }
        try parseIncremental(&l, &o)
        o.replace = l.flag("--replace")
        o.allowModelMix = l.flag(ModelIdentity.mixOption)
        o.startOrContinue = l.flag("--continue")
        o.files = l.positionals()
        try l.finish(known: known)
        if o.startOrContinue && (o.resume != nil || o.addReplications != nil || o.point != nil) {
            throw CLIError("run: --continue starts a run or resumes its own unfinished one; not with "
                + (o.resume != nil ? "--resume" : o.addReplications != nil ? "--add-replications" : "--point/--replication"))
        }
        if o.resume != nil || o.addReplications != nil { return try checkIncremental(o) }
        if o.allowModelMix {
            throw CLIError("run: \(ModelIdentity.mixOption) lets --resume or --add-replications continue runs of another build; a new run has runs of this build only")
        }
        guard !o.files.isEmpty else { throw CLIError("run: which scenario? give one or more FILEs (or a built-in name from `grouper-sim list`)") }
        if o.shard != nil && (o.point != nil || o.replication != nil) {
            throw CLIError("run: --shard selects a slice of the sweep; --point/--replication select one run; use one or the other")
        }
        if o.precisionMetrics != nil && o.replications != nil {
            throw CLIError("run: --precision-metrics names the metrics of a precision target, and --replications fixes the replications; give one or the other")
        }
        if o.precisionStop != nil && o.replications != nil {
            throw CLIError("run: --precision-stop says how the points of a precision target stop, and --replications fixes the replications; give one or the other")
        }
        if o.precision != nil && o.replications != nil {
            throw CLIError("run: --precision decides the replications per point and --replications fixes them; give one or the other")
        }
        if let r = o.replication, o.point == nil {
            throw CLIError("run: --replication \(r) names one run together with --point P; did you mean --replications \(r) (replications per point)?")
        }
        if (o.point == nil) != (o.replication == nil) { throw CLIError("run: --point and --replication go together (they name one run)") }
        if o.startOrContinue && o.files.count != 1 {
            throw CLIError("run: --continue continues one scenario's folder; give one FILE")
        }
        if o.point != nil && o.out != nil {
            throw CLIError("run: --out has no effect with --point/--replication (one run prints its metrics and writes no result files); drop --out, or drop --point to write results")
        }
        if o.events != nil && o.engine != .grouper {
            throw CLIError("run: --events traces the protocol model's events; the \(o.engine.rawValue) engine has none (drop --engine)")
        }
        return o
    }

    /// `--events FILE` with an optional `--event-kinds` list of `GrouperEvent.traceKinds`.
    static func parseEvents(path: String?, kinds: String?) throws -> EventTraceRequest? {
        guard let path else {
            if kinds != nil { throw CLIError("run: --event-kinds filters the --events trace; give --events FILE too") }
            return nil
        }
        guard !path.isEmpty else { throw CLIError("run: --events needs a file name") }
        guard let kinds else { return EventTraceRequest(path: path) }
        let list = kinds.split(separator: ",", omittingEmptySubsequences: false).map { String($0) }
        let allowed = GrouperExecutor.eventKinds
        for k in list where !allowed.contains(k) {
            throw CLIError("run: --event-kinds: unknown kind '\(k)'\(didYouMean(k, among: allowed)); allowed: \(allowed.joined(separator: ", "))")
        }
        return EventTraceRequest(path: path, kinds: list)
    }
}

extension GrouperCLI {
    static var runCommand: CLICommand {
        CLICommand(name: "run", summary: "Run scenario files and write tables, plots and a manifest",
                   help: """
            USAGE: grouper-sim run FILE… [--seed S] [--replications R] [--jobs J] [--out DIR]
                                  [--trace FILE] [--events FILE [--event-kinds K,…]]
                                  [--shard i/N] [--point P --replication R]
                                  [--engine grouper|synthetic] [--progress auto|always|never]
                                  [--precision X [--precision-metrics M,…]]
                                  [--precision-stop together|per-point] [--replace] [--continue]
                   grouper-sim run [FILE] --resume DIR [--allow-model-mix]
                   grouper-sim run [FILE] --add-replications R DIR [--allow-model-mix]

            Runs every sweep point × replication of each scenario (docs/scenarios.md) and writes
            runs.csv, summary.csv, summary.md, plot-*.svg (and, with "series", series.csv and
            plot-series-*.svg), resolved.json, records.jsonl, index.html and manifest.json to
            results/<name>/, and timeline-p<P>-r<R>.html for the first 3 runs that fail a
            required checker
            (with --out DIR: into DIR for one file, DIR/<name>/ for several). A FILE that does not
            exist may name a built-in scenario (`grouper-sim list`), e.g. thesis-fig6-1.

            OPTIONS:
              --seed S           replace the scenario's seed (run seeds derive from it)
              --replications R   replace the scenario's replication count
              --precision X      replications per point in batches until the 95% interval of
                                 each targeted metric is within ±X of its mean (0 < X < 1):
                                 the scenario's "precision" block's metrics, else its first
                                 metric; not with --replications
              --precision-metrics M,…
                                 target these metrics instead (metrics of the scenario)
              --precision-stop S together (default): every point runs the next batch until
                                 every point meets the target (or the cap), so all points
                                 have the same replications, paired by replication;
                                 per-point: each point stops on its own (needed for --shard)
              --resume DIR       continue the unfinished run (or --shard slice) into DIR from
                                 the runs kept in DIR.partial/ (FILE only needed if it is
                                 not a built-in)
              --continue         if the output folder has an unfinished run of this same command
                                 (DIR.partial/: same scenario, options, shard and engine),
                                 resume it, else start fresh; for requeued cluster jobs
                                 (another run's DIR.partial/ is refused, as with --resume)
              --add-replications R DIR
                                 extend the finished result DIR by R replications per point,
                                 reusing its runs; both equal one run with the final count
              --allow-model-mix  let --resume/--add-replications reuse runs of another build
                                 (another model identity; refused otherwise); the manifest
                                 then lists every model
              --jobs J           run up to J runs at once on local cores (default: all cores);
                                 the output is identical for every J
              --out DIR          output folder (see above); replaced only when absent, empty or a
                                 previous grouper-sim result of the same scenario file and
                                 engine, else exit 2 with nothing touched (docs/cli.md)
              --replace          also replace a previous result of another scenario or engine
                                 (never a folder holding files grouper-sim did not write)
              --trace FILE       write the protocol log (one line per protocol step) of the
                                 one selected run to FILE (an existing FILE only if empty or a
                                 trace grouper-sim wrote; never the scenario file)
              --events FILE      write every simulation event of the one selected run to FILE
                                 as JSON Lines (t, time, seq, component, kind, fields)
              --event-kinds K,…  keep only these kinds in --events: request, sweep,
                                 server-command, response, timeout, push, timer, command,
                                 upload-ready, round-processed
              --shard i/N        run only the i-th of N slices (1 ≤ i ≤ N); writes shard.json to
                                 --out DIR or results/<name>.shard-i-of-N; combine with `merge`
              --point P --replication R
                                 run one run (as printed when a checker fails); prints its
                                 metrics, writes no result files
              --engine E         grouper (the protocol model, default) or synthetic (a
                                 deterministic stand-in for testing the pipeline)

              --progress P       auto (default): a bar on a terminal, else a progress line at the
                                 start, every 10 s and at the end (logs, Slurm); always: the
                                 bar even without a terminal; never: no progress

            Results go to stdout, progress to stderr.
            EXIT CODES: 0 ok, 1 a required safety checker failed, 4 only required liveness
            checkers failed (for each, the replay command is printed), 2 bad input, 3 internal error.

            """,
                   run: { args, io in
            try RunCommand.execute(RunOptions.parse(args), io: io)
        })
    }
}

/// The body of `grouper-sim run`, callable from tests with any executor.
public enum RunCommand {
    public static func execute(_ o: RunOptions, executor: (any RunExecutor)? = nil, io: CLIOutput,
                               terminal: Bool = isatty(2) != 0) throws -> ExitCode {
        if o.resume != nil || o.addReplications != nil { return try continueRun(o, executor: executor, io: io, terminal: terminal) }
        guard let scenarios = loadAll(o.files, io: io) else { return .badInput }
        let loaded = try scenarios.map { s in
            let targeted = try checkPrecisionMetrics(s, o)
            let applied = s.overriding(seed: o.seed, replications: o.replications, precision: o.precision, precisionMetrics: targeted,
                                       precisionStop: o.precisionStop)
            try checkPrecisionStop(applied, o)
            return applied
        }
        if o.startOrContinue, let own = try ownUnfinishedRun(loaded[0], o, io: io) {
            return try continueRun(own, executor: executor, io: io, terminal: terminal)
        }
        let names = loaded.map(\.base.name)
        if let dup = names.enumerated().first(where: { names[..<$0.offset].contains($0.element) }) {
            throw CLIError("run: two scenarios are named '\(dup.element)'; their results would share a folder")
        }
        let exec = executor ?? o.engine.executor
        // Checked before taking the locks (which may create the folders' parents), and again
        // under them (another writer may have finished in between).
        try checkDestinations(loaded, o, partials: false)
        let locks = try lockDestinations(loaded, o)
        defer { locks.forEach { $0.release() } }
        try checkDestinations(loaded, o)
        var failed = ExitCode.ok
        for scenario in loaded {
            if o.point == nil && o.shard == nil {
                let folder = FolderRun(scenario: scenario, destination: outputFolder(scenario, o, multiple: loaded.count > 1),
                                       engine: o.engine, executor: exec)
                let records = try runIntoFolder(folder, o, io: io, terminal: terminal)
                failed = failed.worse(report(failures: records, scenario: scenario, o, io: io))
                continue
            }
            if o.point == nil {
                let records = try runShardIntoFolder(shardRun(scenario, o, executor: exec, multiple: loaded.count > 1), o,
                                                     io: io, terminal: terminal)
                failed = failed.worse(report(failures: records, scenario: scenario, o, io: io))
                continue
            }
            let plan = RunPlan(scenario, tracePath: o.trace, events: o.events)
            let runs = try select(plan, o)
            for (option, given) in [("--trace", o.trace != nil), ("--events", o.events != nil)] where given && runs.count != 1 {
                throw CLIError("run: \(option) needs exactly one run, \(scenario.base.name) has \(runs.count); add --point P --replication R")
            }
            let bar = ProgressBar(label: scenario.base.name, style: ProgressBar.style(o.progress, terminal: terminal), io: io)
            bar.begin(runs.count)
            let records: [RunRecord]
            do {
                records = try ParallelRunner.execute(runs, executor: exec, jobs: o.jobs, progress: bar.update,
                                                     partial: bar.enabled ? bar.updatePartial : nil)
            } catch {
                bar.finish()
                throw CLIError.from(error, "run: \(scenario.base.name): ")
            }
            bar.finish()
            try write(scenario, records, o, io: io, multiple: loaded.count > 1)
            failed = failed.worse(report(failures: records, scenario: scenario, o, io: io))
        }
        return failed
    }

    /// Loads every file (or built-in name); prints all issues of all files and returns nil if any.
    static func loadAll(_ files: [String], io: CLIOutput) -> [LoadedScenario]? {
        var out: [LoadedScenario] = [], issues: [ScenarioIssue] = []
        for f in files {
            do {
                out.append(try ScenarioLoader.load(BuiltinScenarios.resolve(f)))
            } catch { issues += error.issues }
        }
        guard issues.isEmpty else {
            for i in issues { io.err("error: \(i)\n") }
            io.err("\(issues.count) problem(s) found; nothing was run or written. See docs/scenarios.md.\n")
            return nil
        }
        for w in out.flatMap(\.warnings) { io.err("warning: \(w)\n") }
        return out
    }

    /// Every output path is checked before any run starts (docs/cli.md, output safety):
    /// trace files (never an input, never both options on one file), and each result folder.
    static func checkDestinations(_ loaded: [LoadedScenario], _ o: RunOptions, partials: Bool = true) throws {
        let inputs = o.files.filter { FileManager.default.fileExists(atPath: $0) }
        if let t = o.trace, let e = o.events, OutputSafety.sameFile(t, e.path) {
            throw CLIError("run: --trace \(t) and --events \(e.path) are the same file; give each its own file; nothing was written")
        }
        do {
            if let t = o.trace { _ = try OutputSafety.checkFile(t, option: "--trace", inputs: inputs) }
            if let e = o.events { _ = try OutputSafety.checkFile(e.path, option: "--events", inputs: inputs) }
            guard o.point == nil else { return }
            for s in loaded {
                let dir = OutputSafety.canonical(outputFolder(s, o, multiple: loaded.count > 1))
                for (option, file) in [("--trace", o.trace), ("--events", o.events?.path)] {
                    guard let file, OutputSafety.canonical(file).hasPrefix(dir + "/") || OutputSafety.canonical(file).hasPrefix(dir + ".partial/") else { continue }
                    throw CLIError("run: \(option) \(file) is inside the result folder \(outputFolder(s, o, multiple: loaded.count > 1)), which is written whole at the end; give a file outside it; nothing was written")
                }
                _ = try OutputSafety.checkFolder(outputFolder(s, o, multiple: loaded.count > 1), option: "--out",
                                                 writing: origin(s, o), replace: o.replace)
            }
        } catch { throw CLIError.from(error, "run: ") }
        guard partials, o.point == nil else { return }
        for s in loaded { try checkNoPartial(outputFolder(s, o, multiple: loaded.count > 1)) }
    }

    /// What `run` writes for `s`: a result, or with `--shard` a shard.
    static func origin(_ s: LoadedScenario, _ o: RunOptions) -> ResultOrigin {
        ResultOrigin(o.shard == nil ? .result : .shard, source: s.source, engine: o.engine)
    }

    /// Locks every result folder of the run (held until the command ends) and removes what
    /// killed writers left next to them.
    static func lockDestinations(_ loaded: [LoadedScenario], _ o: RunOptions) throws -> [FolderLock] {
        guard o.point == nil else { return [] }
        var locks: [FolderLock] = []
        do {
            for s in loaded {
                let dir = outputFolder(s, o, multiple: loaded.count > 1)
                guard !dir.isEmpty else { continue }
                locks.append(try lock(dir))
            }
        } catch {
            locks.forEach { $0.release() }
            throw error
        }
        return locks
    }

    /// Takes the lock of the result folder `dir` and removes leftovers of killed writers.
    static func lock(_ dir: String) throws -> FolderLock {
        let url = OutputSafety.resolved(dir)
        do {
            let l = try FolderLock.acquire(url, label: dir)
            OutputDirectory.cleanLeftovers(of: url)
            return l
        } catch { throw CLIError.from(error, "run: ") }
    }

    static func select(_ plan: RunPlan, _ o: RunOptions) throws -> [ResolvedRun] {
        if let (i, n) = o.shard { return plan.shard(i, of: n) }
        guard let p = o.point, let r = o.replication else { return plan.runs }
        let reps = plan.scenario.base.replications, points = plan.scenario.points.count
        guard p < points else { throw CLIError("run: --point must be in 0...\(points - 1) for \(plan.scenario.base.name), got \(p)") }
        guard r < reps else {
            throw CLIError("run: --replication must be in 0...\(reps - 1) for \(plan.scenario.base.name), got \(r) "
                + "(to replay a later replication, add --replications \(r + 1))")
        }
        return [plan.runs[p * reps + r]]
    }

    static func outputFolder(_ s: LoadedScenario, _ o: RunOptions, multiple: Bool) -> String {
        let name = s.base.name
        if let (i, n) = o.shard {
            return o.out.map { multiple ? "\($0)/\(name)" : $0 } ?? "results/\(name).shard-\(i)-of-\(n)"
        }
        return o.out.map { multiple ? "\($0)/\(name)" : $0 } ?? "results/\(name)"
    }

    static func write(_ s: LoadedScenario, _ records: [RunRecord], _ o: RunOptions, io: CLIOutput, multiple: Bool) throws {
        let dir = outputFolder(s, o, multiple: multiple)
        if o.point != nil {
            for r in records {
                io.out("\(s.base.name) run \(r.index) (point \(r.point), replication \(r.replication), seed \(r.seed)) fingerprint \(r.fingerprint.hex)\n")
                for (name, v) in zip(s.base.metrics, r.metrics) { io.out("  \(name) = \(NumberFormat.fixed(v)) \(ResultSet.unit(name))\n") }
            }
            return
        }
        do {
            let result = ResultSet(scenario: s, records: records, engine: o.engine)
            let old = try OutputDirectory.write(result.files, to: dir, writing: origin(s, o), replace: o.replace)
            io.out(result.summaryMarkdown + replaced(old, dir) + "\nwrote \(dir)/ (\(records.count) runs, fingerprint \(result.fingerprint.hex))\n")
        } catch { throw CLIError.from(error, "run: ") }
    }

    /// The line naming what a write replaced ("" when nothing).
    static func replaced(_ old: ResultOrigin?, _ dir: String) -> String {
        old.map { "\nreplaced the previous result in \(dir)/: \($0.description)" } ?? ""
    }

    /// Prints each failed checker and the command that replays its run; the exit code they make
    /// (`ExitCode.checkers`: 1 safety, 4 liveness only, 0 none).
    static func report(failures records: [RunRecord], scenario: LoadedScenario, _ o: RunOptions, io: CLIOutput) -> ExitCode {
        let failed = records.filter { !$0.failedCheckers.isEmpty }
        for r in failed {
            for c in r.failedCheckers {
                io.err("checker failed: \(scenario.base.name) run \(r.index) (point \(r.point), replication \(r.replication), seed \(r.seed)): \(c.name) (\(c.kind.rawValue)): \(c.detail)\n")
            }
            let engine = o.engine == .grouper ? "" : " --engine \(o.engine.rawValue)"
            let reps = (o.replications.map { " --replications \($0)" } ?? "") + (o.precision.map { " --precision \($0)" } ?? "")
            io.err("replay: grouper-sim run \(scenario.source.label.hasPrefix("builtin:") ? String(scenario.source.label.dropFirst(8)) : scenario.source.label) --seed \(scenario.base.seed)\(reps) --point \(r.point) --replication \(r.replication)\(engine)\n")
            if o.engine == .grouper && scenario.pointSpecs[r.point].architecture == .grouper {
                let reps = o.replications ?? (r.replication >= scenario.base.replications ? r.replication + 1 : nil)
                io.err("timeline: " + TimelineCommand.command(scenario.source.label, seed: scenario.base.seed, replications: reps,
                                                              point: r.point, replication: r.replication) + "\n")
            }
        }
        return ExitCode.checkers(records)
    }
}
