import Scenarios
import Foundation
import SimKernel

/// A `run` into a result folder: every run's record is kept in `<DIR>.partial/` as it
/// finishes, DIR is written whole at the end, then the partial folder is removed.
extension RunCommand {
    /// How one scenario's runs go into its folder.
    struct FolderRun {
        var scenario: LoadedScenario
        var destination: String
        var engine: Engine
        var executor: any RunExecutor
        /// Records an earlier attempt kept (resume, extension), by (point, replication).
        var reuse: [RunKey: RunRecord] = [:]
        /// The partial folder to keep records in; nil: create one next to the destination.
        var partial: PartialRun? = nil
        /// The model identities of the records (reused ones and this build's).
        var models = [ModelIdentity.current]
        /// `--resume`/`--add-replications`: the destination was checked when the run started
        /// (or holds the result being extended), so a previous result there is replaced.
        var extendsItself = false
    }

    /// Runs every run (fixed replications or a precision target), writes the result, removes
    /// the partial folder; returns the records.
    static func runIntoFolder(_ f: FolderRun, _ o: RunOptions, io: CLIOutput, terminal: Bool) throws -> [RunRecord] {
        let plan = RunPlan(f.scenario, tracePath: o.trace, events: o.events)
        for (option, given) in [("--trace", o.trace != nil), ("--events", o.events != nil)]
        where given && (plan.runs.count != 1 || f.scenario.base.precision != nil) {
            throw CLIError("run: \(option) needs exactly one run, \(f.scenario.base.name) has \(f.scenario.base.precision == nil ? "\(plan.runs.count)" : "a precision target and several"); add --point P --replication R")
        }
        let partial: PartialRun
        do {
            var header = PartialRun.Header(f.scenario, engine: f.engine)
            header.models = f.models
            partial = try f.partial ?? PartialRun.create(at: PartialRun.folder(for: OutputSafety.resolved(f.destination)), header: header)
        } catch { throw CLIError.from(error, "run: ") }
        let name = f.scenario.base.name
        let bar = ProgressBar(label: name, style: ProgressBar.style(o.progress, terminal: terminal), io: io)
        let session = keepingSession(f.executor, jobs: o.jobs, reuse: f.reuse, into: partial, bar: bar)
        if let p = f.scenario.base.precision { bar.capped(at: f.scenario.points.count * p.maxReplications); bar.batch(1) }
        bar.begin(f.scenario.base.precision == nil ? plan.runs.count : f.scenario.points.count * f.scenario.base.precision!.minReplications)
        InterruptNotice.set(.init(partial: partial.url, destination: f.destination, file: InterruptNotice.argument(f.scenario.source), progress: bar))
        defer { InterruptNotice.set(nil) }
        let records: [RunRecord]
        do {
            if f.scenario.base.precision != nil {
                records = PrecisionRunner.numbered(try PrecisionRunner.execute(plan, points: Array(f.scenario.points.indices), session: session))
            } else {
                records = try session.execute(plan.runs)
            }
        } catch {
            bar.finish()
            let kept = " (the runs that finished are kept in \(partial.url.path); `grouper-sim run \(InterruptNotice.shellQuoted(InterruptNotice.argument(f.scenario.source))) --resume \(InterruptNotice.shellQuoted(f.destination))` continues)"
            throw CLIError.from(error, "run: \(name): ").appending(kept)
        }
        bar.finish()
        let result = ResultSet(scenario: f.scenario, records: records, engine: f.engine, models: f.models)
        let old: ResultOrigin?
        do {
            old = try OutputDirectory.write(result.files, to: f.destination, writing: ResultOrigin(.result, source: f.scenario.source, engine: f.engine),
                                            replace: o.replace || f.extendsItself)
        } catch { throw CLIError.from(error, "run: ") }
        partial.remove()
        io.err(precisionNotes(f.scenario, records))
        io.out(result.summaryMarkdown + replaced(old, f.destination) + "\nwrote \(f.destination)/ (\(records.count) runs, fingerprint \(result.fingerprint.hex))\n")
        return records
    }

    /// A session that reuses `reuse`, keeps every new record in `partial` as it finishes (and
    /// honours the test interruption hook), and reports to `bar`.
    static func keepingSession(_ executor: any RunExecutor, jobs: Int, reuse: [RunKey: RunRecord], into partial: PartialRun,
                               bar: ProgressBar) -> RunSession {
        var session = RunSession(executor: executor, jobs: jobs)
        session.reuse = reuse
        let interrupt = Interruption.fromEnvironment()
        session.keep = { r in
            try partial.keep(r)
            interrupt?.count()
            Interruption.slowDown()
        }
        session.progress = bar.update
        session.reusedRuns = bar.reused
        session.batch = bar.batch
        if bar.enabled { session.partial = bar.updatePartial }
        return session
    }

    /// A new run must not silently bypass an unfinished one into the same folder.
    static func checkNoPartial(_ destination: String) throws {
        let url = PartialRun.folder(for: OutputSafety.resolved(destination))
        guard PartialRun.exists(url) else { return }
        if (try? PartialRun.open(at: url)) != nil {
            throw CLIError("run: \(url.path) holds an unfinished run into \(destination): continue it with "
                + "`grouper-sim run [FILE] --resume \(destination)`, or remove \(url.path) to start again; nothing was written")
        }
        throw CLIError("run: \(url.path) exists and is not a grouper-sim partial run; grouper-sim keeps unfinished runs there, so move it away; nothing was written")
    }
}

/// A test hook: with `GROUPER_SIM_TEST_INTERRUPT_AFTER=N` in the environment, the process
/// ends (exit 130, as after Ctrl-C) right after keeping its N-th new record, writing nothing
/// else, so tests can interrupt a run at a known point and `--resume` it in another process.
final class Interruption: @unchecked Sendable {
    static let variable = "GROUPER_SIM_TEST_INTERRUPT_AFTER"
    private let lock = NSLock()
    private let limit: Int
    private var kept = 0
    init(limit: Int) { self.limit = limit }

    static func fromEnvironment() -> Interruption? {
        ProcessInfo.processInfo.environment[variable].flatMap(Int.init).map(Interruption.init)
    }

    /// A test hook: with `GROUPER_SIM_TEST_KEEP_DELAY_MS=N`, each kept record is followed by
    /// a pause of N ms, so that tests can send a signal while a run is under way.
    static let delayVariable = "GROUPER_SIM_TEST_KEEP_DELAY_MS"
    static let delay: Int? = ProcessInfo.processInfo.environment[delayVariable].flatMap { Int($0) }
    static func slowDown() {
        if let delay { usleep(UInt32(delay) * 1000) }
    }

    func count() {
        lock.lock(); kept += 1; let stop = kept >= limit; lock.unlock()
        if stop { exit(130) }
    }
}
