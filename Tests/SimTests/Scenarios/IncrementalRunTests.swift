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

/// `run --resume DIR` and `run --add-replications R DIR`, each step a separate `grouper-sim`
/// process on the protocol model: the folder they write equals, byte for byte, the folder of
/// one `run` with the final replication count.
@Suite struct IncrementalRunTests {
    static let scenario = """
    {
      "format": 1, "name": "inc", "seed": 5, "replications": 4, "duration": "30min",
      "group": {"devices": 3, "k": 2, "n": 3, "s": 3, "ttl": "10min"},
      "workload": {"update": {"every": {"dist": "exponential", "mean": "2min"}}},
      "churn": {"online": "10min", "offline": "3min"},
      "sweep": [{"path": "group.k", "values": [1, 2]}],
      "metrics": ["messages_uploaded", "delivery_ratio", "converged"]
    }
    """

    func sandbox(_ name: String) throws -> (dir: URL, file: URL) {
        let dir = ScenarioFixtures.tempDir(name)
        let file = dir.appendingPathComponent("inc.json")
        try Data(Self.scenario.utf8).write(to: file)
        return (dir, file)
    }

    func cli(_ args: [String], in dir: URL, interruptAfter: Int? = nil) throws -> CLIProcess.Result {
        let env = interruptAfter.map { [Interruption.variable: String($0)] } ?? [:]
        return try CLIProcess.run(args + ["--progress", "never"], in: dir, environment: env)
    }

    func entries(_ url: URL) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }

    @Test func anInterruptedRunResumedInAnotherProcessEqualsOneRun() throws {
        let (dir, file) = try sandbox("resume")
        let stopped = try cli(["run", file.path, "--out", "r", "--jobs", "1"], in: dir, interruptAfter: 5)
        #expect(stopped.status == 130)
        let partial = dir.appendingPathComponent("r.partial")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("r").path), "a partial result must not look complete")
        var kept = entries(partial).filter { $0.hasPrefix("run-") }
        #expect(kept.count == 5 && entries(partial).contains(PartialRun.headerName))
        // Lose one more record, as if it had not been written when the process died.
        try FileManager.default.removeItem(at: partial.appendingPathComponent(kept.removeFirst()))
        let resumed = try cli(["run", file.path, "--resume", "r", "--jobs", "2"], in: dir)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: partial.path), "the partial folder is removed once the result is written")
        let one = try cli(["run", file.path, "--out", "one", "--jobs", "2"], in: dir)
        #expect(one.status == 0)
        let a = try ScenarioFixtures.files(in: dir.appendingPathComponent("r"))
        let b = try ScenarioFixtures.files(in: dir.appendingPathComponent("one"))
        #expect(a.count >= 7 && a == b)
    }

    @Test(.tags(.slow)) func anExtendedRunEqualsOneRunWithTheFinalCount() throws {
        let (dir, file) = try sandbox("extend")
        #expect(try cli(["run", file.path, "--replications", "2", "--out", "x"], in: dir).status == 0)
        let before = try ScenarioFixtures.files(in: dir.appendingPathComponent("x"))
        let more = try cli(["run", file.path, "--add-replications", "3", "x"], in: dir)
        #expect(more.status == 0, "\(more.stderr)")
        #expect(try cli(["run", file.path, "--replications", "5", "--out", "five"], in: dir).status == 0)
        let after = try ScenarioFixtures.files(in: dir.appendingPathComponent("x"))
        #expect(after != before)
        #expect(after == (try ScenarioFixtures.files(in: dir.appendingPathComponent("five"))))
    }

    /// An extension interrupted half-way resumes from both the old result and the new records.
    @Test(.tags(.slow)) func anInterruptedExtensionResumes() throws {
        let (dir, file) = try sandbox("extend-resume")
        #expect(try cli(["run", file.path, "--replications", "1", "--out", "x"], in: dir).status == 0)
        let stopped = try cli(["run", file.path, "--add-replications", "2", "x", "--jobs", "1"], in: dir, interruptAfter: 1)
        #expect(stopped.status == 130)
        #expect(entries(dir.appendingPathComponent("x.partial")).filter { $0.hasPrefix("run-") }.count == 1)
        let refused = try cli(["run", file.path, "--add-replications", "2", "x"], in: dir)
        #expect(refused.status == 2 && refused.stderr.contains("--resume"))
        #expect(try cli(["run", file.path, "--resume", "x"], in: dir).status == 0)
        #expect(try cli(["run", file.path, "--replications", "3", "--out", "three"], in: dir).status == 0)
        #expect(try ScenarioFixtures.files(in: dir.appendingPathComponent("x")) == (try ScenarioFixtures.files(in: dir.appendingPathComponent("three"))))
    }

    /// A built-in needs no FILE; a resumed precision run stops where one run stops (its points
    /// stopping together, the default, or per point).
    @Test(arguments: [[String](), ["--precision-stop", "per-point"]])
    func aBuiltinPrecisionRunResumesWithoutTheFile(stop: [String]) throws {
        let dir = ScenarioFixtures.tempDir("resume-builtin\(stop.count)")
        let args = ["--engine", "synthetic", "--precision", "0.05", "--jobs", "2"] + stop
        #expect(try cli(["run", "churn-k-sweep", "--out", "p"] + args, in: dir, interruptAfter: 40).status == 130)
        let resumed = try cli(["run", "--resume", "p"], in: dir)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try cli(["run", "churn-k-sweep", "--out", "one"] + args, in: dir).status == 0)
        let a = try ScenarioFixtures.files(in: dir.appendingPathComponent("p"))
        #expect(a == (try ScenarioFixtures.files(in: dir.appendingPathComponent("one"))))
        let again = try cli(["run", "--resume", "p"], in: dir)
        #expect(again.status == 0 && again.stdout.contains("nothing to resume"))
    }

    // MARK: - Bad input: exit 2, nothing overwritten

    @Test func resumeOnSomethingThatIsNotARunIsRefused() throws {
        let (dir, file) = try sandbox("resume-bad")
        let mine = dir.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: mine.appendingPathComponent("notes.txt"))
        for target in ["mine", "absent"] {
            let r = try cli(["run", file.path, "--resume", target], in: dir)
            #expect(r.status == 2 && r.stderr.contains("is not a grouper-sim run"), "\(target): \(r.stderr)")
            let a = try cli(["run", file.path, "--add-replications", "2", target], in: dir)
            #expect(a.status == 2, "\(target): \(a.stderr)")
        }
        #expect(entries(mine) == ["notes.txt"])
        #expect(entries(dir) == ["inc.json", "mine"])
        // A folder named like a partial run but holding other files is not one either.
        let fake = dir.appendingPathComponent("y.partial")
        try FileManager.default.createDirectory(at: fake, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: fake.appendingPathComponent("incomplete.json"))
        try Data("x".utf8).write(to: fake.appendingPathComponent("thesis.tex"))
        let r = try cli(["run", file.path, "--resume", "y"], in: dir)
        #expect(r.status == 2 && r.stderr.contains("not a grouper-sim partial run"))
        #expect(entries(fake) == ["incomplete.json", "thesis.tex"])
    }

    @Test func aChangedScenarioIsRefused() throws {
        let (dir, file) = try sandbox("changed")
        #expect(try cli(["run", file.path, "--replications", "1", "--out", "x"], in: dir).status == 0)
        #expect(try cli(["run", file.path, "--out", "r", "--jobs", "1"], in: dir, interruptAfter: 1).status == 130)
        let before = try ScenarioFixtures.files(in: dir.appendingPathComponent("x"))
        let partialBefore = try ScenarioFixtures.files(in: dir.appendingPathComponent("r.partial"))
        try Data(Self.scenario.replacingOccurrences(of: "\"seed\": 5", with: "\"seed\": 6").utf8).write(to: file)
        for args in [["--add-replications", "1", "x"], ["--resume", "r"]] {
            let r = try cli(["run", file.path] + args, in: dir)
            #expect(r.status == 2 && r.stderr.contains("is not the scenario") && r.stderr.contains("FNV-1a 64"), "\(r.stderr)")
        }
        #expect(try ScenarioFixtures.files(in: dir.appendingPathComponent("x")) == before)
        #expect(try ScenarioFixtures.files(in: dir.appendingPathComponent("r.partial")) == partialBefore)
        // Without FILE, a folder written from a file asks for it.
        let r = try cli(["run", "--resume", "r"], in: dir)
        #expect(r.status == 2 && r.stderr.contains("give it"))
    }

    @Test func conflictingOptionsAreRefused() throws {
        let (dir, file) = try sandbox("conflicts")
        #expect(try cli(["run", file.path, "--replications", "1", "--out", "x"], in: dir).status == 0)
        #expect(try cli(["run", file.path, "--precision", "0.3", "--out", "p"], in: dir).status == 0)
        let before = try ScenarioFixtures.files(in: dir.appendingPathComponent("x"))
        let cases: [[String]] = [
            ["--resume", "x", "--seed", "3"], ["--resume", "x", "--replications", "3"], ["--resume", "x", "--out", "z"],
            ["--resume", "x", "--add-replications", "2"], ["--add-replications", "2", "x", "--precision", "0.1"],
            ["--add-replications", "2", "x", "--shard", "1/2"], ["--resume", "x", "--point", "0", "--replication", "0"],
            ["--add-replications", "0", "x"], ["--add-replications", "2", "p"], ["--resume", ""],
            ["--resume", "x", "--engine", "synthetic"],
        ]
        for c in cases {
            let r = try cli(["run", file.path] + c, in: dir)
            #expect(r.status == 2, "\(c): \(r.stderr)")
            #expect(r.stderr.hasPrefix("error: run: "), "\(c): \(r.stderr)")
        }
        #expect(try ScenarioFixtures.files(in: dir.appendingPathComponent("x")) == before)
        // A fresh run into a folder with an unfinished run asks for --resume instead.
        #expect(try cli(["run", file.path, "--out", "r", "--jobs", "1"], in: dir, interruptAfter: 1).status == 130)
        let fresh = try cli(["run", file.path, "--out", "r"], in: dir)
        #expect(fresh.status == 2 && fresh.stderr.contains("--resume r"))
        #expect(entries(dir.appendingPathComponent("r.partial")).count == 2)
    }
}
