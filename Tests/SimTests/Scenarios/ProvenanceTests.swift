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
import SimKernel

/// Issue 25, items 5 and 6: every result records the model identity of the build that ran
/// it, continuing or merging runs of another build is refused unless `--allow-model-mix`
/// (then recorded), and stored runs are checked before they are reused.
@Suite struct ProvenanceTests {
    static let scenario = """
    {"format": 1, "name": "prov", "seed": 9, "replications": 3, "duration": "1h",
     "group": {"devices": 3, "k": 2, "n": 3, "s": 3},
     "sweep": [{"path": "group.k", "values": [1, 2]}], "metrics": ["messages_uploaded", "delivery_ratio"]}

    """

    func sandbox(_ name: String) throws -> URL {
        let dir = ScenarioFixtures.tempDir("provenance-\(name)")
        try Data(Self.scenario.utf8).write(to: dir.appendingPathComponent("prov.json"))
        return dir
    }

    /// `grouper-sim args…` in `dir` as a build whose model identity is `model`.
    func cli(_ args: [String], in dir: URL, model: String? = nil, interruptAfter: Int? = nil) throws -> CLIProcess.Result {
        var env: [String: String] = [:]
        if let model { env[ModelIdentity.testVariable] = model }
        if let n = interruptAfter { env[Interruption.variable] = String(n) }
        return try CLIProcess.run(args + (args.first == "run" ? ["--progress", "never"] : []), in: dir, environment: env)
    }

    /// The sandbox without lock files (an interrupted writer leaves its lock; the next one takes it over).
    func snapshot(_ dir: URL) throws -> [String] { try sandboxSnapshot(dir).filter { !$0.hasPrefix(".r.lock") } }

    func json(_ url: URL) throws -> JSONValue { try JSONParser.parse(String(contentsOf: url, encoding: .utf8)) }

    let syn = ["--engine", "synthetic", "--jobs", "1"]

    @Test func manifestsPartialHeadersAndShardsRecordTheModel() throws {
        let dir = try sandbox("record")
        #expect(try cli(["run", "prov.json", "--out", "r"] + syn, in: dir, model: "aaaa").status == 0)
        #expect(try json(dir.appendingPathComponent("r/manifest.json"))["model"] == .string("aaaa"))
        #expect(try cli(["run", "prov.json", "--out", "p"] + syn, in: dir, model: "aaaa", interruptAfter: 2).status == 130)
        #expect(try json(dir.appendingPathComponent("p.partial/incomplete.json"))["model"] == .string("aaaa"))
        #expect(try cli(["run", "prov.json", "--shard", "1/2", "--out", "s1"] + syn, in: dir, model: "aaaa").status == 0)
        #expect(try json(dir.appendingPathComponent("s1/shard.json"))["model"] == .string("aaaa"))
        // Without the test variable: this build's computed identity.
        #expect(runCLI(["run", dir.path + "/prov.json", "--out", dir.path + "/c"] + syn).code == 0)
        #expect(try json(dir.appendingPathComponent("c/manifest.json"))["model"] == .string(ModelIdentity.current))
    }

    @Test func resumeAfterARebuildIsRefusedUnlessMixingIsAllowed() throws {
        let dir = try sandbox("resume")
        #expect(try cli(["run", "prov.json", "--out", "r"] + syn, in: dir, model: "aaaa", interruptAfter: 2).status == 130)
        let before = try snapshot(dir)
        let refused = try cli(["run", "prov.json", "--resume", "r"], in: dir, model: "bbbb")
        #expect(refused.status == 2 && refused.stderr.contains("holds runs of model aaaa") && refused.stderr.contains("this grouper-sim is model bbbb")
                && refused.stderr.contains(ModelIdentity.mixOption), "\(refused.stderr)")
        #expect(try snapshot(dir) == before)
        // The same build resumes without a word.
        let same = try CLIProcess.run(["run", "prov.json", "--resume", "r", "--progress", "never"], in: dir,
                                      environment: [ModelIdentity.testVariable: "aaaa", Interruption.variable: "1"])
        #expect(same.status == 130)
        let mixed = try cli(["run", "prov.json", "--resume", "r", ModelIdentity.mixOption], in: dir, model: "bbbb")
        #expect(mixed.status == 0, "\(mixed.stderr)")
        let m = try json(dir.appendingPathComponent("r/manifest.json"))
        #expect(m["model"] == .string("mixed") && m["models"] == .array([.string("aaaa"), .string("bbbb")])
                && m["models_mixed_by"] == .string(ModelIdentity.mixOption))
    }

    @Test func aMixRecordedOnResumeIsSeenByEitherBuild() throws {
        let dir = try sandbox("resume-twice")
        #expect(try cli(["run", "prov.json", "--out", "r"] + syn, in: dir, model: "aaaa", interruptAfter: 1).status == 130)
        let stopped = try CLIProcess.run(["run", "prov.json", "--resume", "r", ModelIdentity.mixOption, "--progress", "never"], in: dir,
                                         environment: [ModelIdentity.testVariable: "bbbb", Interruption.variable: "1"])
        #expect(stopped.status == 130)
        // Build aaaa again: the folder now holds runs of both.
        let back = try cli(["run", "prov.json", "--resume", "r"], in: dir, model: "aaaa")
        #expect(back.status == 2 && back.stderr.contains("holds runs of models aaaa, bbbb"), "\(back.stderr)")
    }

    @Test func extendingOrMergingRunsOfAnotherBuildIsRefusedUnlessMixingIsAllowed() throws {
        let dir = try sandbox("extend-merge")
        #expect(try cli(["run", "prov.json", "--out", "r", "--replications", "1"] + syn, in: dir, model: "aaaa").status == 0)
        let before = try snapshot(dir)
        let refused = try cli(["run", "prov.json", "--add-replications", "1", "r"], in: dir, model: "bbbb")
        #expect(refused.status == 2 && refused.stderr.contains("r holds runs of model aaaa") && refused.stderr.contains("model bbbb"), "\(refused.stderr)")
        #expect(try snapshot(dir) == before)
        #expect(try cli(["run", "prov.json", "--add-replications", "1", "r", ModelIdentity.mixOption], in: dir, model: "bbbb").status == 0)
        #expect(try json(dir.appendingPathComponent("r/manifest.json"))["models"] == .array([.string("aaaa"), .string("bbbb")]))
        // A result that records no model (an older grouper-sim) is another build too.
        #expect(try cli(["run", "prov.json", "--out", "o", "--replications", "1"] + syn, in: dir, model: "aaaa").status == 0)
        let manifest = dir.appendingPathComponent("o/manifest.json")
        let text = try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(of: "  \"model\": \"aaaa\",\n", with: "")
        try Data(text.utf8).write(to: manifest)
        let old = try cli(["run", "prov.json", "--add-replications", "1", "o"], in: dir, model: "aaaa")
        #expect(old.status == 2 && old.stderr.contains("no model identity"), "\(old.stderr)")
        // Shards of two builds.
        #expect(try cli(["run", "prov.json", "--shard", "1/2", "--out", "s1"] + syn, in: dir, model: "aaaa").status == 0)
        #expect(try cli(["run", "prov.json", "--shard", "2/2", "--out", "s2"] + syn, in: dir, model: "bbbb").status == 0)
        let merge = try cli(["merge", "s1", "s2", "--out", "m"], in: dir)
        #expect(merge.status == 2 && merge.stderr.contains("s2 was run by model bbbb, s1 by model aaaa"), "\(merge.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/m"))
        #expect(try cli(["merge", "s1", "s2", "--out", "m", ModelIdentity.mixOption], in: dir).status == 0)
        #expect(try json(dir.appendingPathComponent("m/manifest.json"))["model"] == .string("mixed"))
    }

    @Test func aChangedKeptRecordIsRefusedNamingItsFile() throws {
        let dir = try sandbox("kept")
        #expect(try cli(["run", "prov.json", "--out", "r"] + syn, in: dir, interruptAfter: 3).status == 130)
        let partial = dir.appendingPathComponent("r.partial")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: partial.path).sorted().first { $0.hasPrefix("run-") })
        let file = partial.appendingPathComponent(name)
        let text = try String(contentsOf: file, encoding: .utf8)
        // Change one metric value (messages_uploaded, the first metric) by one.
        let edited = try #require(text.range(of: "\"metrics\":[").map { r -> String in
            let rest = text[r.upperBound...]
            let end = rest.firstIndex { $0 == "," || $0 == "]" }!
            return text[..<r.upperBound] + String(Double(rest[..<end])! + 1) + rest[end...]
        })
        #expect(edited != text)
        try Data(edited.utf8).write(to: file)
        let before = try snapshot(dir)
        let refused = try cli(["run", "prov.json", "--resume", "r"], in: dir)
        #expect(refused.status == 2 && refused.stderr.contains(file.path) && refused.stderr.contains("does not match its checksum"), "\(refused.stderr)")
        #expect(try snapshot(dir) == before)
        // Without the changed record, that run runs again: the result equals one run.
        try FileManager.default.removeItem(at: file)
        #expect(try cli(["run", "prov.json", "--resume", "r"], in: dir).status == 0)
        #expect(try cli(["run", "prov.json", "--out", "one"] + syn, in: dir).status == 0)
        #expect(try ScenarioFixtures.files(in: dir.appendingPathComponent("r")) == ScenarioFixtures.files(in: dir.appendingPathComponent("one")))
    }

    @Test func aChangedRecordsFileIsNotExtended() throws {
        let dir = try sandbox("records")
        #expect(try cli(["run", "prov.json", "--out", "r", "--replications", "1"] + syn, in: dir).status == 0)
        let records = dir.appendingPathComponent("r/records.jsonl")
        let text = try String(contentsOf: records, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "\"replication\":0,", with: "\"replication\":0, ").utf8).write(to: records)
        let before = try snapshot(dir)
        let refused = try cli(["run", "prov.json", "--add-replications", "1", "r"], in: dir)
        #expect(refused.status == 2 && refused.stderr.contains("r/records.jsonl does not match the FNV-1a 64 that r/manifest.json holds"),
                "\(refused.stderr)")
        #expect(try snapshot(dir) == before)
    }
}
