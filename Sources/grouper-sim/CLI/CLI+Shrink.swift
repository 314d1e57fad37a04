import Scenarios
import GrouperModel
import Foundation

extension GrouperCLI {
    static var shrinkCommand: CLICommand {
        CLICommand(name: "shrink", summary: "Cut a failing run down to a small scenario that fails the same way",
                   help: """
            USAGE: grouper-sim shrink FILE --point P --replication R [--checker NAME] [--out FILE]
                                     [--control VARIANT] [--seed S] [--replications N] [--jobs J]

            Takes one run of FILE (as a checker failure's replay line names it: the same --seed,
            --replications, --point and --replication) that fails a checker, and searches for a
            smaller scenario that fails the same checker with the same kind of finding: the run's
            random writes, churn and faults become explicit writes and windows, then delta
            debugging removes writes, offline windows, faults, invitations, devices and servers
            and shortens the active time. The settle period keeps its length, and no cut moves
            the end of a window to the end of the run: a shrunk failure keeps its cause rather
            than becoming "no time to recover". Progress goes to stderr; the
            shrunk scenario (one point, the checker required) is written to --out FILE, with the
            command that replays it.

            OPTIONS:
              --checker NAME    the checker to keep failing: convergence, delivery, outbox,
                                no-phantom, ttl (default: the first required checker that fails);
                                it need not be in the scenario's `require`
              --out FILE        where to write the shrunk scenario (default: <name>-shrunk.json);
                                an existing file is replaced only if an earlier shrink wrote it
              --control VARIANT keep only candidates that the same scenario run with VARIANT
                                (thesis, as-built, basic-multicast, no-recovery) passes: the
                                shrunk file shows a difference between the variants, not a
                                failure every variant has; the original must pass with VARIANT
              --seed S, --replications N
                                as in `run` (the replay line's values)
              --jobs J          candidate runs at once (default: all cores); the result is the
                                same for every J

            EXIT CODES: 0 shrunk file written, 2 bad input (including a run that does not fail
            the checker: nothing is written), 3 internal error.

            """,
                   run: { args, io in try ShrinkCommand.execute(ShrinkCommand.Options.parse(args), io: io) })
    }
}

/// The body of `grouper-sim shrink`.
public enum ShrinkCommand {
    public struct Options: Sendable {
        public var file = ""
        public var point = 0, replication = 0
        public var checker: CheckerName?
        public var out: String?
        public var seed: UInt64?
        public var replications: Int?
        public var jobs = 1
        public var control: ProtocolVariant?

        static let known = ["--point", "--replication", "--checker", "--out", "--seed", "--replications", "--jobs", "--control"]

        public static func parse(_ args: [String]) throws -> Options {
            var l = ArgumentList(args, command: "shrink")
            var o = Options()
            o.seed = try l.uint64("--seed")
            o.replications = try l.int("--replications", in: 1...100_000)
            o.jobs = try l.int("--jobs", in: 1...1024) ?? ProcessInfo.processInfo.activeProcessorCount
            o.out = try l.option("--out")
            let checker = try l.option("--checker")
            if let c = try l.option("--control") {
                let names = ProtocolVariant.allCases.map(\.rawValue)
                guard let v = ProtocolVariant(rawValue: c) else {
                    throw CLIError("shrink: --control: unknown variant '\(c)'\(didYouMean(c, among: names)); "
                                   + "one of \(names.joined(separator: ", "))")
                }
                o.control = v
            }
            let point = try l.int("--point", in: 0...10_000_000), rep = try l.int("--replication", in: 0...10_000_000)
            let files = l.positionals()
            try l.finish(known: known)
            guard files.count == 1 else { throw CLIError("shrink: give exactly one scenario FILE (or built-in name), got \(files.count)") }
            guard let point, let rep else {
                throw CLIError("shrink: --point P and --replication R name the failing run (as the replay line prints them)")
            }
            if let c = checker {
                let names = CheckerName.allCases.map(\.rawValue)
                guard let name = CheckerName(rawValue: c) else {
                    throw CLIError("shrink: --checker: unknown checker '\(c)'\(didYouMean(c, among: names)); "
                                   + "one of \(names.joined(separator: ", "))")
                }
                o.checker = name
            }
            if o.out == "" { throw CLIError("shrink: --out needs a file name") }
            o.file = files[0]; o.point = point; o.replication = rep
            return o
        }
    }

    public static func execute(_ o: Options, io: CLIOutput) throws -> ExitCode {
        guard let loaded = RunCommand.loadAll([o.file], io: io)?.first?.overriding(seed: o.seed, replications: o.replications) else {
            return .badInput
        }
        let name = loaded.base.name, reps = loaded.base.replications
        guard o.point < loaded.points.count else {
            throw CLIError("shrink: --point must be in 0...\(loaded.points.count - 1) for \(name), got \(o.point)")
        }
        guard o.replication < reps else {
            throw CLIError("shrink: --replication must be in 0...\(reps - 1) for \(name), got \(o.replication) (add --replications \(o.replication + 1))")
        }
        let out = o.out ?? "\(name)-shrunk.json"
        let target = try checkDestination(out)
        var shrinker = ScenarioShrinker(jobs: o.jobs, progress: { io.err($0 + "\n") })
        shrinker.control = o.control
        let spec = loaded.pointSpecs[o.point]
        if let c = o.control {
            guard spec.architecture == .grouper else {
                throw CLIError("shrink: --control \(c.rawValue): \(name) point \(o.point) runs the central architecture, which has no protocol variants")
            }
            guard c != spec.protocolSpec.variant else {
                throw CLIError("shrink: --control \(c.rawValue) is the variant \(name) point \(o.point) already runs; name another one")
            }
        }
        guard let goal = try runOrFail({ try shrinker.target(of: spec, replication: o.replication, checker: o.checker) }) else {
            let which = o.checker.map { "checker \($0) finds nothing" } ?? "no required checker fails (name one with --checker)"
            throw CLIError("shrink: \(name) point \(o.point) replication \(o.replication) passes: \(which); nothing to shrink, nothing written")
        }
        if let c = o.control, shrinker.controlFails(spec, replication: o.replication, checker: goal.checker) {
            throw CLIError("shrink: \(name) point \(o.point) replication \(o.replication) fails \(goal.checker) with --control \(c.rawValue) too: "
                           + "there is no difference between the variants to keep; nothing written")
        }
        io.err("shrink: \(name) point \(o.point) replication \(o.replication) fails \(goal.checker): \(goal.finding)\n")
        io.err("shrink: start: \(ScenarioShrinker.size(spec))\n")
        let result = try runOrFail { try shrinker.shrink(spec, replication: o.replication, target: goal) }
        let text = try verifiedText(result, source: o, name: name, out: out, shrinker: &shrinker)
        do { try Data(text.utf8).write(to: URL(fileURLWithPath: target), options: .atomic) } catch {
            throw CLIError("shrink: cannot write \(out): \(error.localizedDescription)")
        }
        io.out("shrunk \(name) (point \(o.point), replication \(o.replication)) in \(shrinker.runs) runs: \(ScenarioShrinker.size(result.spec))\n")
        io.out("still fails \(goal.checker) the same way\nwrote \(out)\nreplay: \(replay(out, result))\n")
        writeTimeline(text, out: out, replication: result.replication, io: io)
        return .ok
    }

    /// Draws the shrunk scenario's failing run beside it (`<out>-timeline.html`, docs/timeline.md);
    /// a page that cannot be written is said on stderr, the shrunk file stands.
    static func writeTimeline(_ text: String, out: String, replication: Int, io: CLIOutput) {
        let path = (out.hasSuffix(".json") ? String(out.dropLast(5)) : out) + "-timeline.html"
        let cmd = "grouper-sim timeline \(out) --point 0 --replication \(replication)"
        do {
            let spec = try ScenarioLoader.load(ScenarioSource(label: out, text: text)).pointSpecs[0]
            try TimelineRun.writePage(spec, point: 0, replication: replication, to: path, command: cmd)
            io.out("timeline: \(path)\n")
        } catch { io.err("shrink: the timeline was not written: \(error)\n") }
    }

    /// The command that replays the shrunk file's failing run.
    static func replay(_ out: String, _ r: ScenarioShrinker.Outcome) -> String {
        "grouper-sim run \(out)" + (r.replication > 0 ? " --point 0 --replication \(r.replication)" : "")
    }

    /// The shrunk scenario's file text, read back and run once more: the file as written fails.
    static func verifiedText(_ r: ScenarioShrinker.Outcome, source o: Options, name: String, out: String,
                             shrinker: inout ScenarioShrinker) throws -> String {
        var spec = r.spec
        spec.name = String((name + "-shrunk").prefix(64))
        spec.require = [r.target.checker]
        spec.description = "\(marker) \(o.file) point \(o.point) replication \(o.replication)"
            + (o.seed.map { " (--seed \($0))" } ?? "") + ": fails \(r.target.checker) like the original (\(r.target.finding))"
            + (o.control.map { ", and the \($0.rawValue) variant passes it" } ?? "") + ". "
            + "Replay: \(replay(out, r))"
        let text = JSONWriter.pretty(spec.resolvedJSON)
        let reread: LoadedScenario
        do { reread = try ScenarioLoader.load(ScenarioSource(label: out, text: text)) } catch {
            throw CLIError("shrink: the shrunk scenario does not read back (a bug): \(error)", exitCode: .internalError)
        }
        guard try runOrFail({ try shrinker.fails(reread.base, replication: r.replication, r.target) }) else {
            throw CLIError("shrink: the shrunk scenario as written no longer fails (a bug); nothing written", exitCode: .internalError)
        }
        return text
    }

    /// The start of every shrunk file's description: what may be replaced by a later shrink.
    static let marker = "grouper-sim shrink of"

    /// `--out FILE` may be new, or a file an earlier shrink wrote; checked before any run.
    static func checkDestination(_ out: String) throws -> String {
        let path: String
        do { path = try OutputSafety.checkFile(out, option: "shrink --out", owned: { _ in true }) } catch let e as OutputDirectory.WriteError {
            throw CLIError("shrink: \(e.description)")
        }
        guard let data = FileManager.default.contents(atPath: path) else { return path }
        guard String(decoding: data.prefix(4096), as: UTF8.self).contains("\"description\": \"\(marker) ") else {
            throw CLIError("shrink: --out \(out) exists and was not written by grouper-sim shrink; nothing was written (choose another name)")
        }
        return path
    }

    /// A model failure during shrinking is an internal error (exit 3), not bad input.
    static func runOrFail<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let f as RunFailure { throw CLIError("shrink: \(f)", exitCode: .internalError) }
    }
}
