import Scenarios
import GrouperModel
import Foundation

extension GrouperCLI {
    static var exploreCommand: CLICommand {
        CLICommand(name: "explore", summary: "Search random scenarios for faults of the model and the tool",
                   help: """
            USAGE: grouper-sim explore [--cases N | --seconds S] [--from I] [--seed S] [--profile P]
                                       [--jobs J] [--out DIR] [--no-shrink]

            Draws scenario files over the whole feature space from one seed (devices, f(k,n,s),
            TTLs, churn processes and overlapping windows, refuse/blackhole/restart faults,
            network jitter, duplicate and late replies, hostile servers, central, chunked
            objects, deletes, explicit writes, members and invitations, every variant, policy
            and rebuild rule), runs each once and judges it with the oracles of
            docs/explore.md: runs (no internal error, within 50x its estimated events),
            deterministic (samples run twice, and with --jobs 1 and 2), safety, liveness (cases
            built to converge must converge), metrics (metrics that contradict each other),
            reuploads (one copy per requester) and differential (Grouper vs central, compact vs
            plain bookkeeping, equations --model thesis vs its closed forms). Case i depends
            only on the seed, the profile and i: the same seed and count give the same cases and
            verdicts, whatever --jobs.

            Each finding's case is written to DIR/findings/case-I.json with the command that
            replays it and its timeline (case-I-timeline.html); its first finding of one run is
            shrunk (as grouper-sim shrink does, keeping the cause) to case-I-shrunk.json. At
            the end a table of oracles (judged, passed, failed) and the findings go to stdout
            and DIR/explore.md.

            OPTIONS:
              --cases N       cases to draw (default 100)
              --seconds S     draw cases until S seconds of wall-clock time passed instead;
                              cases still running then are given up and not counted
              --from I        start at case I (default 0): --from 212 --cases 1 redraws case
                              212 alone; searches split by --from cover disjoint cases
              --seed S        the search's seed (default 1)
              --profile P     all (default), thesis (the liveness hunt: thesis variant, honest
                              servers, a settle of 3× the slowest period), hostile, central
              --jobs J        cases at once (default: all cores)
              --out DIR       where findings go (default explore-<profile>-<seed>); replaced
                              only if absent, empty or an earlier explore's folder
              --no-shrink     keep findings as drawn (faster)

            EXIT CODES: 0 no finding, 1 a finding, 2 bad input, 3 internal error.

            """,
                   run: { args, io in try ExploreCommand.execute(ExploreCommand.Options.parse(args), io: io) })
    }
}

/// The body of `grouper-sim explore`.
public enum ExploreCommand {
    public struct Options: Sendable {
        public var cases: Int?
        public var seconds: Int?
        /// The first case's index: case i is the same whatever the start.
        public var from = 0
        public var seed: UInt64 = 1
        public var profile: ExploreProfile = .all
        public var jobs = 1
        public var out: String?
        public var shrink = true

        /// The indices of the cases to draw: `--cases` of them from `--from` (100 by default),
        /// or every index from there on with `--seconds`.
        var caseRange: Range<Int> {
            from..<(from + (cases ?? (seconds == nil ? 100 : Int.max - from)))
        }

        static let known = ["--cases", "--seconds", "--from", "--seed", "--profile", "--jobs", "--out", "--no-shrink"]

        public static func parse(_ args: [String]) throws -> Options {
            var l = ArgumentList(args, command: "explore")
            var o = Options()
            o.cases = try l.int("--cases", in: 1...10_000_000)
            o.seconds = try l.int("--seconds", in: 1...31_536_000)
            o.from = try l.int("--from", in: 0...1_000_000_000) ?? 0
            o.seed = try l.uint64("--seed") ?? 1
            o.jobs = try l.int("--jobs", in: 1...1024) ?? ProcessInfo.processInfo.activeProcessorCount
            o.out = try l.option("--out")
            o.shrink = !l.flag("--no-shrink")
            if let p = try l.option("--profile") {
                let names = ExploreProfile.allCases.map(\.rawValue)
                guard let v = ExploreProfile(rawValue: p) else {
                    throw CLIError("explore: --profile: unknown profile '\(p)'\(didYouMean(p, among: names)); one of \(names.joined(separator: ", "))")
                }
                o.profile = v
            }
            let rest = l.positionals()
            try l.finish(known: known)
            guard rest.isEmpty else { throw CLIError("explore: takes no FILE (it draws its own cases), got '\(rest[0])'") }
            if o.cases != nil && o.seconds != nil { throw CLIError("explore: give --cases N or --seconds S, not both") }
            if o.out == "" { throw CLIError("explore: --out needs a folder name") }
            return o
        }
    }

    /// Files an explore folder holds; an existing folder with only these (and explore.json) is ours.
    static let ownEntries: Set<String> = ["explore.json", "explore.md", "findings"]

    /// Checks `--out` before anything runs; returns the folder's URL.
    static func prepare(_ path: String) throws -> URL {
        let url = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: url.path, isDirectory: &isDir) else { return url }
        guard isDir.boolValue else { throw CLIError("explore: --out \(path) exists and is not a folder; nothing was written") }
        let entries = (try? fm.contentsOfDirectory(atPath: url.path)) ?? []
        if entries.isEmpty { return url }
        var strangers = entries.filter { !ownEntries.contains($0) }.sorted()
        // findings/ holds only the case files explore writes; anything else there is the user's.
        let findings = url.appendingPathComponent("findings")
        if entries.contains("findings") {
            let inside = (try? fm.contentsOfDirectory(atPath: findings.path)) ?? ["(not a folder)"]
            strangers += inside.filter { $0.wholeMatch(of: /case-\d+(-shrunk\.json|\.json|-timeline\.html)/) == nil }.sorted().map { "findings/" + $0 }
        }
        guard strangers.isEmpty, entries.contains("explore.json") else {
            let named = strangers.isEmpty ? "no explore.json" : strangers.prefix(3).map { "'\($0)'" }.joined(separator: ", ")
            throw CLIError("explore: --out \(path) is not empty and is not an earlier explore's folder (\(named)); nothing was written")
        }
        return url
    }

    public static func execute(_ o: Options, io: CLIOutput) throws -> ExitCode {
        let outPath = o.out ?? "explore-\(o.profile.rawValue)-\(o.seed)"
        let dir = try prepare(outPath)
        var explorer = Explorer(profile: o.profile, seed: o.seed)
        let start = Date()
        let limit = o.seconds.map { Double($0) }
        if let limit { explorer.shouldStop = { Date().timeIntervalSince(start) >= limit } }
        let range = o.caseRange
        io.err("explore: profile \(o.profile.rawValue), seed \(o.seed), "
               + (limit.map { "for \(Int($0)) s" } ?? "\(range.count) cases") + (o.from > 0 ? " from case \(o.from)" : "")
               + ", \(o.jobs) at once\n")
        var tally = ExploreTally()
        var found: [ExploreCase] = []
        var next = range.lowerBound
        var lastReport = Date()
        var slowest: (index: Int, seconds: Double)?
        search: while next < range.upperBound {
            if let limit, Date().timeIntervalSince(start) >= limit { break }
            let batch = Array(next..<min(range.upperBound, next + max(1, o.jobs) * 2))
            let timed = try ParallelRunner.map(batch.map { UInt64($0) }, jobs: o.jobs) { [explorer] i -> ExploreTimedCase in
                let t0 = Date()
                let c = explorer.explore(case: Int(i))
                return ExploreTimedCase(c: c, seconds: Date().timeIntervalSince(t0))
            }
            // The search ends at its deadline: cases that were running then come back stopped,
            // and so do the later ones of the batch, so the cases counted are a prefix.
            let kept = timed.prefix(countedPrefix(timed.map(\.c)))
            var results = kept.map(\.c)
            for t in kept where t.seconds > (slowest?.seconds ?? -1) { slowest = (t.c.index, t.seconds) }
            for i in results.indices where comparesFolders(results[i]) && !(explorer.shouldStop?() ?? false) {
                if !results[i].judged.contains(.deterministic) { results[i].judged.append(.deterministic) }
                if let f = folderDifference(results[i]) {
                    results[i].findings.append(ExploreFinding(oracle: .deterministic, message: f, checker: nil))
                }
            }
            for c in results {
                tally.add(c)
                if !c.findings.isEmpty {
                    found.append(c)
                    io.err("explore: case \(c.index): \(c.findings[0].oracle.rawValue): \(c.findings[0].message.prefix(300))\n")
                }
            }
            if kept.count < timed.count {
                tally.stopped += timed.count - kept.count
                break search
            }
            next += batch.count
            if Date().timeIntervalSince(lastReport) >= 10 {
                lastReport = Date()
                io.err("explore: \(Wording.count(tally.cases, "case")) (\(tally.ran) run), \(found.count) with findings, "
                       + "\(Int(Date().timeIntervalSince(start))) s\n")
            }
        }
        if let slowest { io.err("explore: the slowest case was case \(slowest.index) (\(Int(slowest.seconds.rounded())) s)\n") }
        if tally.stopped > 0 {
            io.err("explore: \(stoppedLine(tally.stopped, markdown: false))\n")
        }
        try write(found, tally: tally, options: o, dir: dir, outPath: outPath, io: io,
                  seconds: Date().timeIntervalSince(start), explorer: explorer)
        return found.isEmpty ? .ok : .checkerFailed
    }

    /// How many cases of a batch count: those before the first one given up at the deadline
    /// (a later case that ended in time is dropped too, so a search's cases are 0..<N).
    static func countedPrefix(_ batch: [ExploreCase]) -> Int {
        batch.firstIndex { $0.status == .stopped } ?? batch.count
    }

    /// "2 cases running or waiting when --seconds ran out were given up and are not counted."
    static func stoppedLine(_ n: Int, markdown: Bool) -> String {
        let option = markdown ? "`--seconds`" : "--seconds"
        return n == 1 ? "1 case running or waiting when \(option) ran out was given up and is not counted."
            : "\(n) cases running or waiting when \(option) ran out were given up and are not counted."
    }

    /// A case and the wall-clock seconds it took (for the report of the slowest case only).
    struct ExploreTimedCase: Sendable { var c: ExploreCase; var seconds: Double }

    /// One case in this many is also run by `grouper-sim run` with two replications, with
    /// --jobs 1 and --jobs 2, and the two result folders compared byte for byte.
    static let folderEvery = 25

    /// Whether case `c` gets the folder comparison: one in `folderEvery` of the cases that ran,
    /// unless its run already went past its budget (that is its finding; running it again
    /// would only stop at the same budget).
    static func comparesFolders(_ c: ExploreCase) -> Bool {
        c.index % folderEvery == folderEvery / 2 && c.status == .ran && !c.findings.contains { $0.oracle == .runs }
    }

    /// The first difference between the result folders of the case run with --jobs 1 and
    /// --jobs 2 (two replications), nil when they are byte-identical. Every run stops at the
    /// case's event budget. Runs in a fresh temporary folder that it removes.
    static func folderDifference(_ c: ExploreCase) -> String? {
        let fm = FileManager.default
        let sandbox = fm.temporaryDirectory.appendingPathComponent("grouper-sim-explore-\(ProcessInfo.processInfo.processIdentifier)-\(c.index)")
        // Removed only once this call made it: a folder of that name that was there before is not ours.
        do { try fm.createDirectory(at: sandbox, withIntermediateDirectories: false) } catch { return nil }
        defer { try? fm.removeItem(at: sandbox) }
        let file = sandbox.appendingPathComponent("case.json")
        guard (try? Data(c.text.utf8).write(to: file)) != nil else { return nil }
        let quiet = CLIOutput(out: { _ in }, err: { _ in })
        var listings: [[String: Data]] = []
        for jobs in [1, 2] {
            let out = sandbox.appendingPathComponent("jobs-\(jobs)")
            let args = [file.path, "--replications", "2", "--jobs", "\(jobs)", "--out", out.path]
            let code: ExitCode
            do {
                let options = try RunOptions.parse(args)
                let bounded = BudgetedExecutor(base: options.engine.executor, budget: c.budget)
                code = try RunCommand.execute(options, executor: bounded, io: quiet, terminal: false)
            } catch {
                // A run past the case's budget fails here too: "stopped at its budget of N events".
                return "grouper-sim run --replications 2 --jobs \(jobs) of the case failed: \(error)"
            }
            guard code == .ok || code == .checkerFailed || code == .livenessFailed else {
                return "grouper-sim run --jobs \(jobs) of the case exited \(code.rawValue)"
            }
            var files: [String: Data] = [:]
            for name in (fm.enumerator(atPath: out.path)?.allObjects as? [String] ?? []).sorted() {
                var isDir: ObjCBool = false
                let path = out.appendingPathComponent(name).path
                if fm.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue { files[name] = fm.contents(atPath: path) }
            }
            listings.append(files)
        }
        if listings[0].keys.sorted() != listings[1].keys.sorted() {
            return "run --jobs 1 and --jobs 2 wrote different files: \(listings[0].keys.sorted()) vs \(listings[1].keys.sorted())"
        }
        for name in listings[0].keys.sorted() where listings[0][name] != listings[1][name] {
            return "run --jobs 1 and --jobs 2 wrote different \(name) (two replications)"
        }
        return nil
    }

    static func write(_ found: [ExploreCase], tally: ExploreTally, options o: Options, dir: URL, outPath: String,
                      io: CLIOutput, seconds: Double, explorer: Explorer) throws {
        let fm = FileManager.default
        let findings = dir.appendingPathComponent("findings")
        do {
            if fm.fileExists(atPath: findings.path) { try fm.removeItem(at: findings) }
            try fm.createDirectory(at: findings, withIntermediateDirectories: true)
        } catch { throw CLIError("explore: cannot write \(outPath): \(error.localizedDescription)", exitCode: .internalError) }
        var md = ["# grouper-sim explore", "",
                  "profile \(o.profile.rawValue), seed \(o.seed): \(Wording.count(tally.cases, "case")) drawn"
                  + (o.from > 0 ? " from case \(o.from)" : "") + ", \(tally.ran) run, "
                  + "\(tally.rejected) refused by the reader, \(tally.tooBig) over the event cap; "
                  + "\(NumberFormat.shortest((tally.events / 1e6 * 10).rounded() / 10)) million events.", "",
                  tally.table, ""]
        if !tally.largest.isEmpty { md += ["The largest cases: \(tally.largestLine).", ""] }
        if tally.stopped > 0 {
            md += [stoppedLine(tally.stopped, markdown: true), ""]
        }
        if found.isEmpty { md.append("No findings.") } else { md.append("## Findings"); md.append("") }
        for c in found {
            let file = findings.appendingPathComponent("case-\(c.index).json")
            let rel = "\(outPath)/findings/case-\(c.index).json"
            do { try Data(c.text.utf8).write(to: file) } catch {
                throw CLIError("explore: cannot write \(rel): \(error.localizedDescription)", exitCode: .internalError)
            }
            md.append("### case \(c.index)")
            md.append("")
            for f in c.findings { md.append("- **\(f.oracle.rawValue)**: \(f.message)") }
            md.append("")
            md.append("replay: `grouper-sim run \(rel) --out <folder>`")
            if let spec = try? ScenarioLoader.load(ScenarioSource(label: rel, text: c.text)).base, spec.architecture == .grouper {
                let page = findings.appendingPathComponent("case-\(c.index)-timeline.html")
                let command = "grouper-sim timeline \(rel) --point 0 --replication 0"
                if (try? TimelineRun.writePage(spec, point: 0, replication: 0, to: page.path, command: command,
                                               eventBudget: c.budget > 0 ? c.budget : nil)) != nil {
                    md.append("timeline: `\(outPath)/findings/case-\(c.index)-timeline.html`")
                }
            }
            if o.shrink {
                let shrunk = "\(outPath)/findings/case-\(c.index)-shrunk.json"
                io.err("explore: shrinking case \(c.index)\n")
                if let r = try? explorer.shrink(c, jobs: o.jobs) {
                    do { try Data(r.text.utf8).write(to: findings.appendingPathComponent("case-\(c.index)-shrunk.json")) } catch {
                        throw CLIError("explore: cannot write \(shrunk): \(error.localizedDescription)", exitCode: .internalError)
                    }
                    md.append("shrunk (\(r.oracle.rawValue), \(r.runs) runs, \(ScenarioShrinker.size(r.spec))): "
                              + "`grouper-sim run \(shrunk) --out <folder>`")
                    io.err("explore: case \(c.index) shrunk to \(shrunk)\n")
                } else {
                    md.append("not shrunk: its findings are not of one run (runs, deterministic, sampled differentials), "
                              + "or they did not come back when the case was shrunk")
                }
            }
            md.append("")
        }
        var head: [(key: String, value: JSONValue)] = [("tool", .string("grouper-sim explore")), ("profile", .string(o.profile.rawValue)),
                                           ("seed", .number(Double(o.seed), text: String(o.seed)))]
        if o.from > 0 { head.append(("from", .number(Double(o.from)))) }
        let summary = JSONValue.object(head + [
            ("cases", .number(Double(tally.cases))),
            ("ran", .number(Double(tally.ran))), ("rejected", .number(Double(tally.rejected))),
            ("too_big", .number(Double(tally.tooBig))),
            ("stopped", .number(Double(tally.stopped))),
            ("largest", .array(tally.largest.map { .object([("case", .number(Double($0.index))), ("events", .number($0.events))]) })),
            ("oracles", .object(ExploreOracle.allCases.map { ($0.rawValue, .object([
                ("judged", .number(Double(tally.judged[$0, default: 0]))), ("failed", .number(Double(tally.failed[$0, default: 0])))])) })),
            ("findings", .array(found.map { c in .object([("case", .number(Double(c.index))),
                ("oracles", .array(c.findings.map { .string($0.oracle.rawValue) })),
                ("messages", .array(c.findings.map { .string($0.message) }))]) })),
        ])
        do {
            try Data((JSONWriter.pretty(summary) + "\n").utf8).write(to: dir.appendingPathComponent("explore.json"))
            try Data((md.joined(separator: "\n") + "\n").utf8).write(to: dir.appendingPathComponent("explore.md"))
        } catch { throw CLIError("explore: cannot write \(outPath): \(error.localizedDescription)", exitCode: .internalError) }
        io.out(tally.table + "\n")
        io.out("\(Wording.count(tally.cases, "case")) (\(tally.ran) run, \(tally.rejected) refused by the reader, \(tally.tooBig) over the event cap) "
               + "in \(Int(seconds.rounded())) s; \(found.count) with findings; wrote \(outPath)/explore.md\n")
    }
}
