import Scenarios
import SimKernel
import Foundation

extension GrouperCLI {
    static var timelineCommand: CLICommand {
        CLICommand(name: "timeline", summary: "Draw one run as a sequence chart (one HTML file)",
                   help: """
            USAGE: grouper-sim timeline FILE --point P --replication R [--out FILE.html]
                                        [--from T] [--to T] [--devices 1,3] [--objects a,b]
                                        [--seed S] [--replications N]

            Runs one replication of FILE (as a checker failure's replay line names it) and writes
            one self-contained HTML page (no network, no external file; opens from disk): a lane
            per device and server, bands for offline devices, down, blackholed and hostile servers
            and the settle period, arrows for requests and answers coloured by message type, shares
            as spans from put to deletion, resend requests linked to the re-uploads answering
            them, and the checkers' findings as markers listed beside the chart. See docs/timeline.md.

            OPTIONS:
              --out FILE.html   where to write (default: <name>-p<P>-r<R>-timeline.html); an
                                existing file is replaced only if grouper-sim timeline wrote it
              --from T, --to T  the window (durations from the start, e.g. 90s, 2h); default:
                                from one TTL before the first finding's message to the end, or
                                the whole run without findings
              --devices LIST    only these devices' lanes and requests (numbered from 1)
              --objects LIST    only the requests, shares and writes of these objects
              --seed S, --replications N
                                as in `run` (the replay line's values)

            EXIT CODES: 0 written, 2 bad input (nothing is written), 3 internal error.

            """,
                   run: { args, io in try TimelineCommand.execute(TimelineCommand.Options.parse(args), io: io) })
    }
}

/// The body of `grouper-sim timeline`.
public enum TimelineCommand {
    public struct Options: Sendable {
        public var file = ""
        public var point = 0, replication = 0
        public var out: String?
        public var from: SimDuration?, to: SimDuration?
        public var devices: [Int]?
        public var objects: [String]?
        public var seed: UInt64?
        public var replications: Int?

        static let known = ["--point", "--replication", "--out", "--from", "--to", "--devices", "--objects", "--seed", "--replications"]

        public static func parse(_ args: [String]) throws -> Options {
            var l = ArgumentList(args, command: "timeline")
            var o = Options()
            o.seed = try l.uint64("--seed")
            o.replications = try l.int("--replications", in: 1...100_000)
            o.out = try l.option("--out")
            for (name, keyPath) in [("--from", \Options.from), ("--to", \Options.to)] {
                guard let raw = try l.option(name) else { continue }
                do { o[keyPath: keyPath] = try SimDuration(parsing: raw) } catch {
                    throw CLIError("timeline: \(name): \(error)")
                }
            }
            if let raw = try l.option("--devices") {
                let parts = raw.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                let numbers = parts.compactMap { Int($0) }
                guard !parts.isEmpty, numbers.count == parts.count, numbers.allSatisfy({ $0 >= 1 }) else {
                    throw CLIError("timeline: --devices must list device numbers from 1 separated by commas (e.g. 1,3), got '\(raw)'")
                }
                o.devices = numbers
            }
            if let raw = try l.option("--objects") {
                let parts = raw.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                guard !parts.isEmpty else { throw CLIError("timeline: --objects must list object ids separated by commas, got '\(raw)'") }
                o.objects = parts
            }
            let point = try l.int("--point", in: 0...10_000_000), rep = try l.int("--replication", in: 0...10_000_000)
            let files = l.positionals()
            try l.finish(known: known)
            guard files.count == 1 else { throw CLIError("timeline: give exactly one scenario FILE (or built-in name), got \(files.count)") }
            guard let point, let rep else {
                throw CLIError("timeline: --point P and --replication R name the run (as a replay line prints them)")
            }
            if o.out == "" { throw CLIError("timeline: --out needs a file name") }
            o.file = files[0]; o.point = point; o.replication = rep
            return o
        }
    }

    /// The command line that draws run (point, replication) of `label` (a file or built-in name).
    public static func command(_ label: String, seed: UInt64?, replications: Int?, point: Int, replication: Int) -> String {
        let name = label.hasPrefix("builtin:") ? String(label.dropFirst(8)) : label
        return "grouper-sim timeline \(name)" + (seed.map { " --seed \($0)" } ?? "")
            + (replications.map { " --replications \($0)" } ?? "") + " --point \(point) --replication \(replication)"
    }

    public static func execute(_ o: Options, io: CLIOutput) throws -> ExitCode {
        guard let loaded = RunCommand.loadAll([o.file], io: io)?.first?.overriding(seed: o.seed, replications: o.replications) else {
            return .badInput
        }
        let name = loaded.base.name, reps = loaded.base.replications
        guard o.point < loaded.points.count else {
            throw CLIError("timeline: --point must be in 0...\(loaded.points.count - 1) for \(name), got \(o.point)")
        }
        guard o.replication < reps else {
            throw CLIError("timeline: --replication must be in 0...\(reps - 1) for \(name), got \(o.replication) (add --replications \(o.replication + 1))")
        }
        let spec = loaded.pointSpecs[o.point]
        var options = TimelineOptions()
        if let f = o.from {
            guard f < spec.duration else { throw CLIError("timeline: --from \(f) is not inside the run (\(name) lasts \(spec.duration))") }
            options.from = f.nanoseconds
        }
        if let t = o.to {
            guard t > .zero, t <= spec.duration else { throw CLIError("timeline: --to \(t) is not inside the run (\(name) lasts \(spec.duration))") }
            options.to = t.nanoseconds
        }
        if let f = options.from, let t = options.to, f >= t { throw CLIError("timeline: --from \(o.from!) must be before --to \(o.to!)") }
        if let ds = o.devices {
            for d in ds where d > spec.group.devices {
                throw CLIError("timeline: --devices: \(name) has devices 1...\(spec.group.devices), got \(d)")
            }
            options.devices = ds.map { $0 - 1 }
        }
        let out = o.out ?? "\(name)-p\(o.point)-r\(o.replication)-timeline.html"
        let target: String
        do { target = try TimelineRun.checkDestination(out) } catch let e as TimelineInputError { throw CLIError(e.message) }
        let recording: TimelineRecording
        do { recording = try TimelineRun.record(spec, point: o.point, replication: o.replication,
                                                 runIndex: o.point * reps + o.replication) }
        catch let e as TimelineInputError { throw CLIError(e.message) }
        if let objects = o.objects {
            let known = Set(recording.spans.map(\.object) + recording.markers.map(\.object))
            for obj in objects where !known.contains(obj) {
                throw CLIError("timeline: --objects: \(name) point \(o.point) replication \(o.replication) never writes object '\(obj)'"
                               + didYouMean(obj, among: known.sorted().filter { !$0.isEmpty }) + "; nothing written")
            }
            options.objects = objects
        }
        let timeline = TimelineLayout.layout(recording, options)
        let cmd = command(loaded.source.label, seed: o.seed, replications: o.replications, point: o.point, replication: o.replication)
        let html = TimelinePage.html(timeline, command: cmd)
        do { try Data(html.utf8).write(to: URL(fileURLWithPath: target), options: .atomic) } catch {
            throw CLIError("timeline: cannot write \(out): \(error.localizedDescription)", exitCode: .internalError)
        }
        io.out("wrote \(out): \(timeline.lanes.count) lanes, \(timeline.arrows.count) requests, \(timeline.spans.count) shares, "
               + "\(timeline.markers.filter { $0.kind == .finding }.count) findings, \(html.utf8.count) bytes\n")
        for n in timeline.notes { io.out("note: \(n)\n") }
        return .ok
    }
}
