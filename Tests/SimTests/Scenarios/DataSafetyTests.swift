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
@testable import Explore
@testable import Experiments
@testable import GrouperSimCLI

/// Every path under `dir` (links not followed) with its bytes, or "dir/"/"link → target".
func sandboxSnapshot(_ dir: URL) throws -> [String] {
    let fm = FileManager.default
    var out: [String] = []
    func walk(_ rel: String) throws {
        let url = rel.isEmpty ? dir : dir.appendingPathComponent(rel)
        for name in try fm.contentsOfDirectory(atPath: url.path).sorted() {
            let r = rel.isEmpty ? name : rel + "/" + name
            let u = dir.appendingPathComponent(r)
            if let target = try? fm.destinationOfSymbolicLink(atPath: u.path) { out.append("\(r) → \(target)"); continue }
            var isDir: ObjCBool = false
            _ = fm.fileExists(atPath: u.path, isDirectory: &isDir)
            if isDir.boolValue { out.append(r + "/"); try walk(r) } else {
                out.append(r + " = " + String(decoding: try Data(contentsOf: u), as: UTF8.self))
            }
        }
    }
    try walk("")
    return out
}

/// A pid that belonged to a process that has ended (for stale locks and leftovers).
func deadPID() throws -> Int32 {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/true")
    try p.run()
    p.waitUntilExit()
    return p.processIdentifier
}

/// Issue 25, items 1–4 and 7: `--trace`/`--events` never replace a user's file or the
/// scenario being run; a result of another scenario or engine is kept unless `--replace`;
/// refusals name the strangers; `reproduce` owns its equations files by hashes; one writer
/// per folder; I/O failures exit 3; leftovers of killed writers are cleaned.
@Suite struct DataSafetyTests {
    static let victim = """
    {"format": 1, "name": "victim", "seed": 3, "replications": 2, "duration": "20min",
     "group": {"devices": 2, "k": 2, "n": 3, "s": 3},
     "workload": {"update": {"every": "5min"}}, "metrics": ["messages_uploaded", "converged"]}

    """

    /// victim.json, notes.txt, links to both, a hard link to the scenario, a folder.
    func sandbox(_ name: String) throws -> URL {
        let dir = ScenarioFixtures.tempDir("data-safety-\(name)")
        let fm = FileManager.default
        try Data(Self.victim.utf8).write(to: dir.appendingPathComponent("victim.json"))
        try Data("my notes\n".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        try fm.createSymbolicLink(atPath: dir.path + "/link-victim", withDestinationPath: dir.path + "/victim.json")
        try fm.createSymbolicLink(atPath: dir.path + "/link-notes", withDestinationPath: "notes.txt")
        try fm.linkItem(atPath: dir.path + "/victim.json", toPath: dir.path + "/hard.json")
        try fm.createDirectory(atPath: dir.path + "/sub", withIntermediateDirectories: false)
        return dir
    }

    func cli(_ args: [String], in dir: URL, env: [String: String] = [:]) throws -> CLIProcess.Result {
        try CLIProcess.run(args + (args.first == "run" ? ["--progress", "never"] : []), in: dir, environment: env)
    }

    @Test func traceFilesNeverReplaceTheScenarioOrAUsersFile() throws {
        let dir = try sandbox("trace")
        let before = try sandboxSnapshot(dir)
        let one = ["run", "victim.json", "--point", "0", "--replication", "0"]
        var cases: [(args: [String], cwd: URL, message: String)] = []
        for option in ["--trace", "--events"] {
            for path in ["victim.json", "./victim.json", dir.path + "/victim.json", "link-victim", "hard.json", "sub/../victim.json"] {
                cases.append((one + [option, path], dir, "is the scenario file victim.json this command runs"))
            }
            cases.append((["run", "../victim.json", "--point", "0", "--replication", "0", option, "../link-victim"],
                          dir.appendingPathComponent("sub"), "is the scenario file ../victim.json this command runs"))
            for path in ["notes.txt", "./notes.txt", dir.path + "/notes.txt", "link-notes", "sub/../notes.txt"] {
                cases.append((one + [option, path], dir, "is not a trace grouper-sim wrote"))
            }
            cases.append((one + [option, "."], dir, "is not a regular file"))
        }
        for (a, b) in [("t.txt", "t.txt"), ("t.txt", "./t.txt"), (dir.path + "/t.txt", "sub/../t.txt")] {
            cases.append((one + ["--trace", a, "--events", b], dir, "are the same file"))
        }
        // A one-run result folder is written whole at the end: a trace inside it would be lost.
        let single = ["run", "victim.json", "--replications", "1", "--engine", "synthetic", "--out", "sub"]
        cases.append((single + ["--trace", "sub/t.txt"], dir, "is inside the result folder sub"))
        for c in cases {
            let r = try cli(c.args, in: c.cwd)
            #expect(r.status == 2, "\(c.args): \(r.stderr)")
            #expect(r.stderr.contains(c.message), "\(c.args): \(r.stderr)")
            #expect(!r.stdout.contains("fingerprint"), "\(c.args): refused before the run")
            #expect(try sandboxSnapshot(dir) == before, "\(c.args) touched the sandbox")
        }
        // A new file, an empty file and a trace grouper-sim wrote may be written.
        FileManager.default.createFile(atPath: dir.path + "/empty.jsonl", contents: Data())
        for args in [one + ["--trace", "t.txt", "--events", "empty.jsonl"], one + ["--trace", "t.txt", "--events", "empty.jsonl"],
                     one + ["--trace", "empty.jsonl"]] {
            let r = try cli(args, in: dir)
            #expect(r.status == 0, "\(args): \(r.stderr)")
        }
        let trace = try String(contentsOfFile: dir.path + "/t.txt", encoding: .utf8)
        #expect(trace.hasPrefix("# grouper-sim protocol trace: scenario victim, run 0 (point 0, replication 0), seed "))
        #expect(try String(contentsOfFile: dir.path + "/victim.json", encoding: .utf8) == Self.victim)
        #expect(try String(contentsOfFile: dir.path + "/notes.txt", encoding: .utf8) == "my notes\n")
    }

    static let study = """
    {"format": 1, "name": "study", "seed": 5, "replications": 3, "duration": "1h",
     "group": {"devices": 3, "k": 2, "n": 3, "s": 3}, "metrics": ["messages_uploaded", "delivery_ratio"]}

    """

    /// A copy of study.json, changed, that keeps its name.
    static let copy = study.replacingOccurrences(of: "\"replications\": 3", with: "\"replications\": 2")

    @Test(.tags(.slow)) func aResultOfAnotherScenarioOrEngineIsKeptUnlessReplaceIsGiven() throws {
        let dir = ScenarioFixtures.tempDir("data-safety-replace")
        try Data(Self.study.utf8).write(to: dir.appendingPathComponent("study.json"))
        try Data(Self.copy.utf8).write(to: dir.appendingPathComponent("copy.json"))
        let syn = ["--engine", "synthetic"]
        #expect(try cli(["run", "study.json"] + syn, in: dir).status == 0)          // results/study/
        let res = dir.appendingPathComponent("results/study")
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/res-link", withDestinationPath: "results/study")
        #expect(try cli(["run", "copy.json", "--shard", "1/2", "--out", "s1"] + syn, in: dir).status == 0)
        #expect(try cli(["run", "copy.json", "--shard", "2/2", "--out", "s2"] + syn, in: dir).status == 0)
        let before = try sandboxSnapshot(dir)
        let refusals: [(args: [String], cwd: URL, holds: String)] = [
            (["run", "copy.json"] + syn, dir, "holds 3 runs of study.json, engine synthetic"),
            (["run", "study.json"], dir, "holds 3 runs of study.json, engine synthetic"),
            (["run", "../../copy.json", "--out", "."] + syn, res, "holds 3 runs of study.json"),
            (["run", "copy.json", "--out", "res-link"] + syn, dir, "holds 3 runs of study.json"),
            (["run", "copy.json", "--out", res.path + "/"] + syn, dir, "holds 3 runs of study.json"),
            (["run", "study.json", "--shard", "1/2", "--out", "results/study"] + syn, dir, "this writes a shard of study.json"),
            (["merge", "s1", "s2", "--out", "results/study"], dir, "holds 3 runs of study.json"),
            (["run", "study.json", "--out", "s1"] + syn, dir, "holds shard 1 of 2 (1 run) of copy.json, engine synthetic"),
        ]
        for c in refusals {
            let r = try cli(c.args, in: c.cwd)
            #expect(r.status == 2 && r.stderr.contains(c.holds) && r.stderr.contains("--replace"), "\(c.args): \(r.stderr)")
            #expect(try sandboxSnapshot(dir) == before, "\(c.args) touched the sandbox")
        }
        // The same scenario and engine: replaced, and said so.
        let again = try cli(["run", "study.json"] + syn, in: dir)
        #expect(again.status == 0 && again.stdout.contains("replaced the previous result in results/study/: 3 runs of study.json, engine synthetic"),
                "\(again.stdout)")
        // --replace replaces another scenario's result, and says what it was.
        let replaced = try cli(["run", "copy.json", "--replace"] + syn, in: dir)
        #expect(replaced.status == 0 && replaced.stdout.contains("replaced the previous result in results/study/: 3 runs of study.json, engine synthetic"),
                "\(replaced.stdout)")
        #expect(try String(contentsOf: res.appendingPathComponent("manifest.json"), encoding: .utf8).contains("\"file\": \"copy.json\""))
        // ... but never a file grouper-sim did not write.
        try Data("mine".utf8).write(to: res.appendingPathComponent("my-analysis.txt"))
        let withFile = try sandboxSnapshot(dir)
        let stranger = try cli(["run", "study.json", "--replace"] + syn, in: dir)
        #expect(stranger.status == 2 && stranger.stderr.contains("its manifest.json does not list: 'my-analysis.txt'")
                && !stranger.stderr.contains("index.html"), "\(stranger.stderr)")
        #expect(try sandboxSnapshot(dir) == withFile)
    }

    /// `--replace` is checked when a run starts; its `--resume` needs (and takes) no second say.
    @Test func aReplacingRunThatWasInterruptedResumes() throws {
        let dir = ScenarioFixtures.tempDir("data-safety-replace-resume")
        try Data(Self.study.utf8).write(to: dir.appendingPathComponent("study.json"))
        try Data(Self.copy.utf8).write(to: dir.appendingPathComponent("copy.json"))
        let syn = ["--engine", "synthetic", "--jobs", "1"]
        for (out, shard) in [("res", [String]()), ("s1", ["--shard", "1/2"])] {
            #expect(try cli(["run", "study.json", "--out", out] + shard + syn, in: dir).status == 0)
            let stopped = try CLIProcess.run(["run", "copy.json", "--out", out, "--replace", "--progress", "never"] + shard + syn, in: dir,
                                             environment: [Interruption.variable: "1"])
            #expect(stopped.status == 130)
            let resumed = try cli(["run", "copy.json", "--resume", out], in: dir)
            #expect(resumed.status == 0 && resumed.stdout.contains("replaced the previous result in \(out)/"), "\(out): \(resumed.stderr)")
        }
        #expect(try String(contentsOf: dir.appendingPathComponent("res/manifest.json"), encoding: .utf8).contains("\"file\": \"copy.json\""))
    }

    @Test func refusalsNameTheEntriesTheManifestDoesNotListOrThatChanged() throws {
        let dir = ScenarioFixtures.tempDir("data-safety-strangers")
        let res = dir.path + "/res"
        #expect(runCLI(["run", "smoke", "--engine", "synthetic", "--out", res]).code == 0)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: res + "/my-analysis.txt"))
        let r = runCLI(["run", "smoke", "--engine", "synthetic", "--out", res])
        #expect(r.code == 2 && r.err.contains("does not list: 'my-analysis.txt'") && !r.err.contains("index.html"), "\(r.err)")
        try FileManager.default.removeItem(atPath: res + "/my-analysis.txt")
        // A file grouper-sim wrote and the user changed is theirs now.
        let summary = res + "/summary.md"
        try Data((try String(contentsOfFile: summary, encoding: .utf8) + "\nMy reading of this table.\n").utf8).write(to: URL(fileURLWithPath: summary))
        let changed = runCLI(["run", "smoke", "--engine", "synthetic", "--out", res, "--replace"])
        #expect(changed.code == 2 && changed.err.contains("changed since grouper-sim wrote them") && changed.err.contains("'summary.md'"),
                "\(changed.err)")
        #expect(try String(contentsOfFile: summary, encoding: .utf8).hasSuffix("My reading of this table.\n"))
        // A folder without a manifest: its entries are named.
        let plain = dir.path + "/plain"
        try FileManager.default.createDirectory(atPath: plain, withIntermediateDirectories: false)
        for name in ["b.txt", "a.txt"] { try Data("x".utf8).write(to: URL(fileURLWithPath: plain + "/" + name)) }
        let p = runCLI(["run", "smoke", "--engine", "synthetic", "--out", plain])
        #expect(p.code == 2 && p.err.contains("no grouper-sim manifest.json; it holds: 'a.txt', 'b.txt'"), "\(p.err)")
    }

    @Test func reproduceOwnsItsEquationsFilesByTheirHashes() throws {
        let dir = ScenarioFixtures.tempDir("data-safety-equations")
        let files = Reproduction.flatFileNames.map { ($0, "# Equations 6.1–6.8 generated \($0)\n") }
        try Reproduction.writeFlat(files, to: dir.path)
        try OutputSafety.checkReproduceFolder(dir.path, folders: [], files: Reproduction.flatFileNames, replace: false)
        // Changed after reproduce wrote it: the user's now.
        try Data("# Equations: my notes\n".utf8).write(to: dir.appendingPathComponent("equations.md"))
        #expect(throws: OutputDirectory.WriteError.self) {
            try OutputSafety.checkReproduceFolder(dir.path, folders: [], files: Reproduction.flatFileNames, replace: false)
        }
        // A user's notes whose first line mentions equations, with no manifest: refused, through the CLI too.
        for name in ["equations.md", "equations-ablation.md"] {
            let mine = ScenarioFixtures.tempDir("data-safety-equations-\(name)")
            try Data("Notes on equations 6.1–6.8\n".utf8).write(to: mine.appendingPathComponent(name))
            let before = try sandboxSnapshot(mine)
            let r = try cli(["reproduce", "--out", "."], in: mine)
            #expect(r.status == 2 && r.stderr.contains("\(name) exists and is not the file reproduce wrote"), "\(r.stderr)")
            #expect(!r.stderr.contains("reproduce: ["), "refused before running anything")
            #expect(try sandboxSnapshot(mine) == before)
        }
        // A file named like reproduce's manifest that it did not write.
        let fake = ScenarioFixtures.tempDir("data-safety-equations-manifest")
        try Data("{}".utf8).write(to: fake.appendingPathComponent(OutputSafety.flatManifestName))
        let m = try cli(["reproduce", "--out", fake.path], in: fake)
        #expect(m.status == 2 && m.stderr.contains("\(OutputSafety.flatManifestName) exists and is not one reproduce wrote"), "\(m.stderr)")
    }

    @Test func oneWriterPerFolderAndAStaleLockIsTakenOver() throws {
        let dir = ScenarioFixtures.tempDir("data-safety-lock")
        let res = dir.appendingPathComponent("res")
        let run = ["run", "smoke", "--engine", "synthetic", "--out", "res"]
        // This process holds the lock, as a grouper-sim writing res would.
        let held = try FolderLock.acquire(OutputSafety.resolved(res.path), label: "res")
        for args in [run, ["run", "--resume", "res"], ["run", "smoke", "--engine", "synthetic", "--shard", "1/2", "--out", "res"]] {
            let r = try cli(args, in: dir)
            #expect(r.status == 2 && r.stderr.contains("another grouper-sim, pid \(getpid()), is writing res"), "\(args): \(r.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [".res.lock"])
        held.release()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "the last holder removes the lock file")
        // A lock file left by a process that died is taken over.
        let dead = try deadPID()
        try Data("\(FolderLock.header)\npid \(dead)\nhost \(ProcessInfo.processInfo.hostName)\n".utf8).write(to: dir.appendingPathComponent(".res.lock"))
        let r = try cli(run, in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["res"])
        // A file in the lock's place that grouper-sim did not write is not touched.
        try Data("my file".utf8).write(to: dir.appendingPathComponent(".res.lock"))
        let taken = try cli(run, in: dir)
        #expect(taken.status == 2 && taken.stderr.contains("is not a grouper-sim lock"), "\(taken.stderr)")
        #expect(try String(contentsOf: dir.appendingPathComponent(".res.lock"), encoding: .utf8) == "my file")
    }

    @Test func leftoversOfAKilledWriterAreCleanedAndNothingElse() throws {
        let dir = ScenarioFixtures.tempDir("data-safety-leftovers")
        let fm = FileManager.default
        #expect(try cli(["run", "smoke", "--engine", "synthetic", "--out", "res"], in: dir).status == 0)
        let dead = try deadPID()
        // A result being written, a previous result moved aside, and a hidden folder of the user's.
        try fm.createDirectory(atPath: dir.path + "/.tmp-res-\(dead)", withIntermediateDirectories: false)
        try Data("run,point\n".utf8).write(to: dir.appendingPathComponent(".tmp-res-\(dead)/runs.csv"))
        try fm.copyItem(atPath: dir.path + "/res", toPath: dir.path + "/.old-res-\(dead)")
        try fm.createDirectory(atPath: dir.path + "/.tmp-res-\(dead + 1)", withIntermediateDirectories: false)
        try Data("mine".utf8).write(to: dir.appendingPathComponent(".tmp-res-\(dead + 1)/notes.txt"))
        let r = try cli(["run", "smoke", "--engine", "synthetic", "--out", "res"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try fm.contentsOfDirectory(atPath: dir.path).sorted() == [".tmp-res-\(dead + 1)", "res"])
        #expect(try String(contentsOf: dir.appendingPathComponent(".tmp-res-\(dead + 1)/notes.txt"), encoding: .utf8) == "mine")
        // A writer killed between moving the old result aside and moving the new one in: the
        // old result comes back before anything else happens.
        try fm.moveItem(atPath: dir.path + "/res", toPath: dir.path + "/.old-res-\(dead)")
        let back = try cli(["run", "--resume", "res"], in: dir)
        #expect(back.status == 0 && back.stdout.contains("nothing to resume: res is a finished run"), "\(back.stdout) \(back.stderr)")
        #expect(fm.fileExists(atPath: dir.path + "/res/manifest.json") && !fm.fileExists(atPath: dir.path + "/.old-res-\(dead)"))
    }

    @Test func ioFailuresExitThree() throws {
        // /proc/self takes no new files: the folder passes the checks, writing it fails.
        let r = runCLI(["run", "smoke", "--engine", "synthetic", "--out", "/proc/self/grouper-sim-result"])
        #expect(r.code == 3, "\(r.err)")
        #expect(r.err.contains("/proc/self"), "\(r.err)")
    }
}
