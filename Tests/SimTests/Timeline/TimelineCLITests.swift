import Foundation
import Testing
@testable import Scenarios
@testable import Format
@testable import ScenarioFile
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore
@testable import GrouperSimCLI

/// `grouper-sim timeline`: a page written for a good request, exit 2 and nothing written for
/// bad input, and the line `run` prints beside a failing run's replay line.
@Suite(.tags(.slow)) struct TimelineCLITests {
    static func file(_ dir: URL) throws -> String {
        let path = dir.appendingPathComponent("loss.json").path
        try TimelineLayoutTests.lossText.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func writesAPageAndRefusesBadInput() throws {
        let dir = ScenarioFixtures.tempDir("timeline-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try Self.file(dir)
        let out = dir.appendingPathComponent("t.html").path
        let base = ["timeline", file, "--point", "0", "--replication", "0", "--out", out]
        let ok = runCLI(base)
        #expect(ok.code == 0, "\(ok.err)")
        #expect(ok.out.hasPrefix("wrote \(out): 3 lanes"))
        let page = try String(contentsOfFile: out, encoding: .utf8)
        #expect(page.contains(TimelinePage.marker))
        // Written again over its own page: fine.
        #expect(runCLI(base).code == 0)
        let bad: [([String], String)] = [
            (["timeline", file, "--point", "1", "--replication", "0"], "--point must be in 0...0"),
            (["timeline", file, "--point", "0", "--replication", "1"], "--replication must be in 0...0"),
            (["timeline", file, "--point", "0", "--replication", "0", "--from", "3h"], "is not inside the run"),
            (["timeline", file, "--point", "0", "--replication", "0", "--to", "4h"], "is not inside the run"),
            (["timeline", file, "--point", "0", "--replication", "0", "--from", "2h", "--to", "1h"], "must be before --to"),
            (["timeline", file, "--point", "0", "--replication", "0", "--devices", "3"], "has devices 1...2, got 3"),
            (["timeline", file, "--point", "0", "--replication", "0", "--devices", "0"], "--devices must list device numbers from 1"),
            (["timeline", file, "--point", "0", "--replication", "0", "--objects", "o7"], "never writes object 'o7'"),
        ]
        for (args, message) in bad {
            let other = dir.appendingPathComponent("other.html").path
            let r = runCLI(args + ["--out", other])
            #expect(r.code == 2 && r.err.contains(message), "\(args): \(r.err)")
            #expect(!FileManager.default.fileExists(atPath: other))
        }
        // A file the tool did not write is refused and left as it was.
        let mine = dir.appendingPathComponent("mine.html").path
        try "<html>my notes</html>".write(toFile: mine, atomically: true, encoding: .utf8)
        let refused = runCLI(["timeline", file, "--point", "0", "--replication", "0", "--out", mine])
        #expect(refused.code == 2 && refused.err.contains("was not written by grouper-sim timeline"), "\(refused.err)")
        #expect(try String(contentsOfFile: mine, encoding: .utf8) == "<html>my notes</html>")
        // The boundaries of the window and of the devices are accepted.
        #expect(runCLI(base + ["--from", "0s", "--to", "3h", "--devices", "2", "--objects", "o1"]).code == 0)
    }

    /// A failing run prints the timeline command beside the replay command.
    @Test func runPrintsTheTimelineCommand() throws {
        let dir = ScenarioFixtures.tempDir("timeline-run")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("loss.json").path
        try TimelineLayoutTests.lossText.replacingOccurrences(of: "\"require\": []", with: "\"require\": [\"convergence\"]")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let r = runCLI(["run", path, "--out", dir.appendingPathComponent("res").path, "--progress", "never"])
        #expect(r.code == 4)
        #expect(r.err.contains("\ntimeline: grouper-sim timeline \(path) --seed 5 --point 0 --replication 0\n"), "\(r.err)")
    }
}
