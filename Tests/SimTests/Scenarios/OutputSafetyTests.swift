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

/// The output-safety rule (docs/cli.md): a user's files are never deleted or replaced.
/// Every case runs in a fresh sandbox folder holding a "paper" of a user's files.
@Suite struct OutputSafetyTests {
    /// A sandbox with `paper/paper.tex`, `paper/figs/a.txt` and `notes.txt`.
    private func sandbox(_ name: String) throws -> URL {
        let dir = ScenarioFixtures.tempDir("safety-\(name)")
        let fm = FileManager.default
        try fm.createDirectory(at: dir.appendingPathComponent("paper/figs"), withIntermediateDirectories: true)
        try Data("\\documentclass{article}".utf8).write(to: dir.appendingPathComponent("paper/paper.tex"))
        try Data("figure".utf8).write(to: dir.appendingPathComponent("paper/figs/a.txt"))
        try Data("notes".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        try fm.createDirectory(at: dir.appendingPathComponent("paper/thesis-fig6-1"), withIntermediateDirectories: true)
        try Data("draft".utf8).write(to: dir.appendingPathComponent("paper/thesis-fig6-1/draft.txt"))
        try fm.createDirectory(at: dir.appendingPathComponent("eq"), withIntermediateDirectories: true)
        try Data("My notes on the model\n".utf8).write(to: dir.appendingPathComponent("eq/equations.md"))
        return dir
    }

    /// Every path under `dir` with its bytes (`sandboxSnapshot`, DataSafetyTests.swift).
    private func snapshot(_ dir: URL) throws -> [String] { try sandboxSnapshot(dir) }

    /// Runs the CLI in a separate process with `cwd` as working folder.
    private func cli(_ args: [String], in cwd: URL) throws -> CLIProcess.Result { try CLIProcess.run(args, in: cwd) }

    private let synthetic = ["run", "smoke", "--engine", "synthetic", "--jobs", "1"]

    @Test func relativeDestinationsThatHoldUserFilesAreRefused() throws {
        let dir = try sandbox("relative")
        let before = try snapshot(dir)
        let cases: [(args: [String], cwd: URL)] = [
            (synthetic + ["--out", "."], dir.appendingPathComponent("paper")),
            (synthetic + ["--out", ".."], dir.appendingPathComponent("paper/figs")),
            (synthetic + ["--out", ""], dir.appendingPathComponent("paper")),
            (synthetic + ["--out", "paper/"], dir),
            (synthetic + ["--out", "paper//figs/"], dir),
            (synthetic + ["--shard", "1/2", "--out", "."], dir.appendingPathComponent("paper")),
            (synthetic + ["--shard", "2/2", "--out", "paper/"], dir),
            (["run", "smoke", "--point", "0", "--replication", "0", "--events", "."], dir.appendingPathComponent("paper")),
            (["run", "smoke", "--point", "0", "--replication", "0", "--events", ".."], dir.appendingPathComponent("paper/figs")),
            (["run", "smoke", "--point", "0", "--replication", "0", "--trace", "."], dir.appendingPathComponent("paper")),
            (["run", "smoke", "--point", "0", "--replication", "0", "--trace", "paper/"], dir),
            (["run", "smoke", "--point", "0", "--replication", "0", "--trace", ""], dir),
            (["reproduce", "--out", "."], dir.appendingPathComponent("paper")),
            (["reproduce", "--out", "paper/"], dir),
            (["reproduce", "--out", "eq"], dir),
            (["reproduce", "--out", "notes.txt"], dir),
        ]
        for c in cases {
            let r = try cli(c.args, in: c.cwd)
            #expect(r.status == 2, "\(c.args): \(r.stderr)")
            #expect(["nothing was written", "needs a folder name", "needs a file name"].contains { r.stderr.contains($0) },
                    "\(c.args): \(r.stderr)")
            #expect(!r.stderr.contains("reproduce: ["), "\(c.args): refused before running anything")
            #expect(try snapshot(dir) == before, "\(c.args) touched the sandbox")
        }
    }

    @Test func previousResultsAreReplacedAndNothingElse() throws {
        let dir = try sandbox("previous")
        let res = dir.appendingPathComponent("res").path
        #expect(runCLI(synthetic + ["--out", res]).code == 0)
        let first = try snapshot(dir)
        // A rerun (with a trailing slash) replaces the previous result and leaves no temp folders.
        let again = runCLI(synthetic + ["--out", res + "/"])
        #expect(again.code == 0, "\(again.err)")
        #expect(try snapshot(dir) == first)
        // A user file added to a result makes it the user's folder: refused, file kept.
        try Data("mine".utf8).write(to: URL(fileURLWithPath: res + "/mine.txt"))
        let withFile = try snapshot(dir)
        let refused = runCLI(synthetic + ["--out", res])
        #expect(refused.code == 2 && refused.err.contains(res) && refused.err.contains("not a grouper-sim result"), "\(refused.err)")
        #expect(try snapshot(dir) == withFile)
        // An empty folder is fine; a file in the way is not.
        try FileManager.default.createDirectory(atPath: dir.path + "/empty", withIntermediateDirectories: false)
        #expect(runCLI(synthetic + ["--out", dir.path + "/empty"]).code == 0)
        #expect(FileManager.default.fileExists(atPath: dir.path + "/empty/manifest.json"))
        let under = runCLI(["run", "smoke", "churn-k-sweep", "--engine", "synthetic", "--out", dir.path + "/notes.txt"])
        #expect(under.code == 2 && under.err.contains("is not a folder") && !under.out.contains("wrote"), "\(under.err)")
        let onFile = runCLI(synthetic + ["--out", dir.path + "/notes.txt"])
        #expect(onFile.code == 2 && onFile.err.contains("not a folder"))
        #expect(try String(contentsOfFile: dir.path + "/notes.txt", encoding: .utf8) == "notes")
    }

    @Test func symbolicLinksAreFollowedNeverReplaced() throws {
        let dir = try sandbox("links")
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: dir.path + "/to-paper", withDestinationPath: dir.path + "/paper")
        let before = try snapshot(dir)
        let r = runCLI(synthetic + ["--out", dir.path + "/to-paper"])
        #expect(r.code == 2)
        #expect(try snapshot(dir) == before)
        // A link to a previous result: the result behind it is replaced, the link stays.
        #expect(runCLI(synthetic + ["--out", dir.path + "/res"]).code == 0)
        try fm.createSymbolicLink(atPath: dir.path + "/to-res", withDestinationPath: dir.path + "/res")
        #expect(runCLI(synthetic + ["--out", dir.path + "/to-res/"]).code == 0)
        #expect(try fm.destinationOfSymbolicLink(atPath: dir.path + "/to-res") == dir.path + "/res")
        #expect(fm.fileExists(atPath: dir.path + "/res/manifest.json"))
    }

    @Test func shardAndMergeFoldersFollowTheSameRule() throws {
        let dir = try sandbox("shards")
        let s1 = dir.path + "/s1", s2 = dir.path + "/s2"
        #expect(runCLI(synthetic + ["--shard", "1/2", "--out", s1]).code == 0)
        #expect(runCLI(synthetic + ["--shard", "1/2", "--out", s1]).code == 0, "a shard folder may be rewritten")
        #expect(runCLI(synthetic + ["--shard", "2/2", "--out", s2]).code == 0)
        let before = try snapshot(dir)
        for out in [dir.path + "/paper", dir.path + "/paper/", dir.path + "/paper/figs/.."] {
            let m = runCLI(["merge", s1, s2, "--out", out])
            #expect(m.code == 2 && m.err.contains("nothing was written"), "\(m.err)")
            #expect(runCLI(synthetic + ["--shard", "1/2", "--out", out]).code == 2)
        }
        #expect(try snapshot(dir) == before)
        #expect(runCLI(["merge", s1, s2, "--out", dir.path + "/merged"]).code == 0)
        #expect(runCLI(["merge", s1, s2, "--out", dir.path + "/merged"]).code == 0, "a merged result may be rewritten")
    }

    @Test func traceFilesAreCheckedBeforeTheRun() throws {
        let dir = try sandbox("traces")
        let before = try snapshot(dir)
        let one = ["run", "smoke", "--point", "0", "--replication", "0"]
        for option in ["--events", "--trace"] {
            for path in [dir.path + "/paper", dir.path + "/paper/", dir.path + "/missing/t.txt", "", dir.path + "/paper/figs/.."] {
                let r = runCLI(one + [option, path])
                #expect(r.code == 2, "\(option) \(path): \(r.err)")
                #expect(!r.out.contains("fingerprint"), "\(option) \(path): the run must not start")
            }
        }
        #expect(try snapshot(dir) == before)
        // A trace grouper-sim wrote may be replaced; a link to one is followed and stays a link.
        #expect(runCLI(one + ["--events", dir.path + "/ev.jsonl", "--event-kinds", "command"]).code == 0)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/ev-link", withDestinationPath: dir.path + "/ev.jsonl")
        #expect(runCLI(one + ["--events", dir.path + "/ev-link", "--event-kinds", "timer"]).code == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir.path + "/ev-link") == dir.path + "/ev.jsonl")
        let events = try String(contentsOfFile: dir.path + "/ev.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(events.count > 1 && events.dropFirst().allSatisfy { $0.contains("\"kind\":\"timer\"") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test func pointAndReplicationAreHonouredOrRejected() {
        let outWithPoint = runCLI(["run", "smoke", "--engine", "synthetic", "--point", "0", "--replication", "0", "--out", "x"])
        #expect(outWithPoint.code == 2 && outWithPoint.err.contains("--out has no effect with --point"))
        let beyond = runCLI(["run", "smoke", "--engine", "synthetic", "--point", "0", "--replication", "5"])
        #expect(beyond.code == 2 && beyond.err.contains("--replication must be in 0...2"), "\(beyond.err)")
        let extended = runCLI(["run", "smoke", "--engine", "synthetic", "--replications", "6", "--point", "0", "--replication", "5"])
        #expect(extended.code == 0 && extended.out.contains("run 5 (point 0, replication 5"), "\(extended.out)")
    }
}
