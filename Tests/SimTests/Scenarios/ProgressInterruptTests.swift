import Foundation
import Testing
@testable import Scenarios
@testable import Format
@testable import Catalogs
@testable import ScenarioFile
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore
@testable import GrouperSimCLI

/// Issue 29, progress and interruption: the bar fits an 80-column terminal, precision runs
/// show batch and cap, a resumed run's ETA uses this process's rate, SIGINT/SIGTERM say what
/// was kept and how to continue (exit 130/143), and `equations` shows progress.
@Suite struct ProgressInterruptTests {
    static let long = "thesis-fig6-2b-gf256-with-a-long-study-name"
    static let countsFixed = "12/40 runs 30%  elapsed 0:04  ETA 0:09"
    static let countsPrecision = "batch 7, 2,940 runs, up to 3,000  elapsed 1h02m  ETA ≤ 0:03"

    @Test func theBarNeverWrapsAtEightyColumns() {
        for counts in [Self.countsFixed, Self.countsPrecision] {
            for label in ["det", "thesis-fig6-2b-gf256", Self.long, String(repeating: "x", count: 120)] {
                let line = ProgressBar.line(label: label, counts: counts, fraction: 0.3, columns: 80)
                #expect(line.count <= 79, "\(line.count): \(line)")
                #expect(line.hasSuffix(counts) || line.hasSuffix(ProgressBar.withoutElapsed(counts)), "\(line)")
                #expect(line.contains("[") && line.hasSuffix("ETA " + counts.components(separatedBy: "ETA ").last!), "\(line)")
            }
        }
        // A short name and the full 30-cell bar when there is room.
        let wide = ProgressBar.line(label: "det", counts: Self.countsFixed, fraction: 0.5, columns: 200)
        #expect(wide == "det [###############...............] " + Self.countsFixed)
        // Narrow: the name is shortened around "…", keeping its start and end.
        let narrow = ProgressBar.line(label: Self.long, counts: Self.countsPrecision, fraction: 0, columns: 80)
        #expect(narrow == "thesis-fig6-2b-g…long-study-name [..........] batch 7, 2,940 runs, up to 3,000  elapsed 1h02m  ETA ≤ 0:03"
                || narrow.hasPrefix("thesis") && narrow.contains("…") && narrow.contains("[..........]") && narrow.count == 79, "\(narrow)")
        // Too narrow for the elapsed time: it goes first, the ETA stays.
        let tight = ProgressBar.line(label: Self.long, counts: Self.countsPrecision, fraction: 0, columns: 75)
        #expect(tight.count <= 74 && tight.hasSuffix("up to 3,000  ETA ≤ 0:03") && tight.contains("[..........]"), "\(tight)")
    }

    /// The name is kept whole while a 10-cell bar fits beside it, and shortened one character later.
    @Test func theNameIsShortenedExactlyWhenTheMinimalBarNoLongerFits() {
        let counts = Self.countsFixed
        let fits = 79 - (counts.count + 4) - 10
        let whole = String(repeating: "n", count: fits)
        let a = ProgressBar.line(label: whole, counts: counts, fraction: 0, columns: 80)
        #expect(a == whole + " [..........] " + counts && a.count == 79)
        let b = ProgressBar.line(label: whole + "m", counts: counts, fraction: 0, columns: 80)
        #expect(b.contains("…") && !b.contains(whole) && b.count == 79, "\(b)")
        #expect(ProgressBar.line(label: whole, counts: counts, fraction: 0, columns: 81).contains("[...........]"))
    }

    @Test func terminalWidthFallsBackToColumnsThen80() {
        // A pipe is no terminal: TIOCGWINSZ fails.
        let pipe = Pipe()
        let fd = pipe.fileHandleForWriting.fileDescriptor
        #expect(ProgressBar.terminalColumns(fd: fd, environment: ["COLUMNS": "132"]) == 132)
        #expect(ProgressBar.terminalColumns(fd: fd, environment: ["COLUMNS": "wide"]) == 80)
        #expect(ProgressBar.terminalColumns(fd: fd, environment: [:]) == 80)
    }

    @Test func precisionRunsShowBatchAndCap() {
        #expect(ProgressBar.counts(done: 2940, total: 2940, cap: 3000, batch: 7, reused: 0, elapsed: 2940)
                == "batch 7, 2,940 runs, up to 3,000  elapsed 49:00  ETA ≤ 1:00")
        let c = CapturedOutput()
        let bar = ProgressBar(label: "p", style: .lines, io: c.io, lineInterval: .seconds(3600), columns: 80)
        bar.capped(at: 3000); bar.batch(1)
        bar.begin(60)
        bar.batch(2)
        bar.update(60, 60)
        #expect(c.err == "p: batch 1, 0 runs, up to 3,000  elapsed 0:00  ETA ≤ ?\n",
                "the end of a batch is not the end of the run: \(c.err)")
    }

    /// Kept runs are done, but not by this process: 10 runs in 10 s leave 50 runs ≈ 50 s.
    @Test func aResumedRunsETAUsesThisProcesssRate() {
        #expect(ProgressBar.counts(done: 50, total: 100, cap: nil, batch: 0, reused: 40, elapsed: 10) == "50/100 runs 50%  elapsed 0:10  ETA 0:50")
        #expect(ProgressBar.counts(done: 40, total: 100, cap: nil, batch: 0, reused: 40, elapsed: 10).hasSuffix("ETA ?"))
        // The session reports what it reuses.
        let c = CapturedOutput()
        let bar = ProgressBar(label: "r", style: .lines, io: c.io, lineInterval: .seconds(0), columns: 80)
        bar.reused(3)
        bar.update(3, 6)
        #expect(c.err.hasSuffix("ETA ?\n"), "\(c.err)")
    }

    static let study = """
    {"format": 1, "name": "signal-study", "seed": 4, "replications": 3, "duration": "20min",
     "group": {"devices": 2, "k": 2, "n": 3, "s": 3},
     "workload": {"update": {"every": "5min"}},
     "sweep": [{"path": "group.devices", "values": [2, 3, 4]}],
     "metrics": ["messages_uploaded", "converged"]}

    """

    func entries(_ url: URL) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }

    /// Starts `grouper-sim args` slowed down (a pause after each kept run), sends `signal`
    /// once `partial` holds `after` runs, and returns the exit status and stderr.
    func interrupted(_ args: [String], in dir: URL, partial: URL, after: Int, signal: Int32) throws -> (status: Int32, stderr: String) {
        let p = Process()
        p.executableURL = CLIProcess.executableURL
        p.arguments = args
        p.currentDirectoryURL = dir
        p.environment = ProcessInfo.processInfo.environment.merging([Interruption.delayVariable: "300"]) { $1 }
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(60)
        while entries(partial).filter({ $0.hasPrefix("run-") }).count < after && p.isRunning && Date() < deadline { usleep(20_000) }
        kill(p.processIdentifier, signal)
        let data = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130))])
    func aSignalSaysWhatWasKeptAndTheResumedRunEqualsAnUninterruptedOne(signal: Int32, status: Int32) throws {
        let dir = ScenarioFixtures.tempDir("signal-\(signal)")
        try Data(Self.study.utf8).write(to: dir.appendingPathComponent("study.json"))
        let common = ["--engine", "synthetic", "--jobs", "1", "--progress", "never"]
        let stopped = try interrupted(["run", "study.json", "--out", "res"] + common, in: dir,
                                      partial: dir.appendingPathComponent("res.partial"), after: 2, signal: signal)
        #expect(stopped.status == status, "\(stopped.stderr)")
        let kept = entries(dir.appendingPathComponent("res.partial")).filter { $0.hasPrefix("run-") }.count
        #expect(kept >= 2 && kept < 9)
        let expected = "\(kept) runs kept in res.partial; continue with: grouper-sim run study.json --resume res\n"
        #expect(stopped.stderr.hasSuffix(expected), "\(stopped.stderr)")
        // The printed command continues the run.
        let resumed = try CLIProcess.run(["run", "study.json", "--resume", "res", "--progress", "never"], in: dir)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let one = try CLIProcess.run(["run", "study.json", "--out", "one"] + common, in: dir)
        #expect(one.status == 0)
        let a = try ScenarioFixtures.files(in: dir.appendingPathComponent("res"))
        let b = try ScenarioFixtures.files(in: dir.appendingPathComponent("one"))
        #expect(a.count >= 5 && a == b)
        try? FileManager.default.removeItem(at: dir)
    }

    /// A real pseudo-terminal of 80 columns (`script`): every redraw of a long-named study fits.
    @Test func inAnEightyColumnTerminalNoRedrawWraps() throws {
        let dir = ScenarioFixtures.tempDir("pty")
        let text = Self.study.replacingOccurrences(of: "\"signal-study\"", with: "\"\(Self.long)\"")
        try Data(text.utf8).write(to: dir.appendingPathComponent("study.json"))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        let command = "stty cols 80 rows 24; exec \(CLIProcess.executableURL.path) run study.json --out res --engine synthetic --jobs 1"
        p.arguments = ["-qec", command, "/dev/null"]
        p.currentDirectoryURL = dir
        var env = ProcessInfo.processInfo.environment
        env["COLUMNS"] = "200"  // the terminal's own width wins
        env[Interruption.delayVariable] = "150"
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        let text2 = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\u{1B}[K", with: "")
        let redraws = text2.split(whereSeparator: { $0.isNewline }).filter { $0.hasPrefix("thesis-fig6") }
        #expect(redraws.count >= 3, "\(text2)")
        for r in redraws { #expect(r.count <= 79 && r.contains("…"), "\(r.count): \(r)") }
        try? FileManager.default.removeItem(at: dir)
    }

    @Test func equationsShowsProgressLikeRun() {
        let c = CapturedOutput()
        let code = GrouperCLI.main(arguments: ["equations", "--D", "3", "--U", "2", "--T", "1h", "--replications", "2", "--jobs", "1",
                                              "--progress", "always"], io: c.io)
        #expect(code == 0, "\(c.err)")
        #expect(c.err.contains("equations [") && c.err.contains("replications, up to 2") && c.err.hasSuffix("\n"), "\(c.err)")
        let never = runCLI(["equations", "--D", "3", "--U", "2", "--T", "1h", "--replications", "2", "--jobs", "1", "--progress", "never"])
        #expect(never.code == 0 && never.err.isEmpty)
        #expect(never.out == c.out, "progress changes nothing on stdout")
    }
}
