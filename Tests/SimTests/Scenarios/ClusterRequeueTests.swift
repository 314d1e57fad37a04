import Foundation
import Testing
@testable import Scenarios
@testable import grouper_sim

/// Issue 29, clusters: `run --continue` (a requeued array task reruns the same command),
/// `merge` of a glob that also matches unfinished shards, empty shards, precision metrics.
@Suite struct ClusterRequeueTests {
    static let study = """
    {"format": 1, "name": "requeue", "seed": 8, "replications": 3, "duration": "20min",
     "group": {"devices": 2, "k": 2, "n": 3, "s": 3},
     "workload": {"update": {"every": "5min"}},
     "sweep": [{"path": "group.devices", "values": [2, 3, 4]}],
     "metrics": ["messages_uploaded", "converged"]}

    """

    func sandbox(_ name: String) throws -> URL {
        let dir = ScenarioFixtures.tempDir("cluster-\(name)")
        try Data(Self.study.utf8).write(to: dir.appendingPathComponent("my.json"))
        return dir
    }

    func cli(_ args: [String], in dir: URL, killAfter: Int? = nil) throws -> CLIProcess.Result {
        try CLIProcess.run(args + ["--progress", "never"], in: dir,
                           environment: killAfter.map { [Interruption.variable: String($0)] } ?? [:])
    }

    /// The same command, killed midway and run again, ends byte-identical to one uninterrupted run
    /// (a whole run and a shard).
    @Test(arguments: [[String](), ["--shard", "2/2"]])
    func aRequeuedCommandContinuesAndEqualsAnUninterruptedRun(shard: [String]) throws {
        let dir = try sandbox("requeue\(shard.count)")
        let command = ["run", "my.json", "--jobs", "1", "--engine", "synthetic", "--out", "shards/my-2", "--continue"] + shard
        let killed = try cli(command, in: dir, killAfter: 2)
        #expect(killed.status == 130)
        #expect(FileManager.default.fileExists(atPath: dir.path + "/shards/my-2.partial"))
        let again = try cli(command, in: dir)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("continuing the unfinished run in shards/my-2.partial (2 runs kept)"), "\(again.stderr)")
        let one = try cli(["run", "my.json", "--jobs", "1", "--engine", "synthetic", "--out", "one"] + shard, in: dir)
        #expect(one.status == 0)
        let a = try ScenarioFixtures.files(in: dir.appendingPathComponent("shards/my-2"))
        let b = try ScenarioFixtures.files(in: dir.appendingPathComponent("one"))
        #expect(!a.isEmpty && a == b)
        // Without an unfinished run, --continue starts fresh.
        let fresh = try cli(["run", "my.json", "--engine", "synthetic", "--out", "fresh", "--continue"] + shard, in: dir)
        #expect(fresh.status == 0 && !fresh.stderr.contains("continuing"), "\(fresh.stderr)")
        try? FileManager.default.removeItem(at: dir)
    }

    @Test func continueRefusesAnotherCommandsUnfinishedRun() throws {
        let dir = try sandbox("refuse")
        #expect(try cli(["run", "my.json", "--engine", "synthetic", "--jobs", "1", "--out", "r"], in: dir, killAfter: 1).status == 130)
        try Data(Self.study.replacingOccurrences(of: "\"seed\": 8", with: "\"seed\": 8, \"description\": \"x\"").utf8)
            .write(to: dir.appendingPathComponent("other.json"))
        let before = try sandboxSnapshot(dir)
        let seed = try cli(["run", "my.json", "--engine", "synthetic", "--out", "r", "--continue", "--seed", "9"], in: dir)
        #expect(seed.status == 2 && seed.stderr.contains("another command") && seed.stderr.contains("seed (8 there)")
                && !seed.stderr.contains("scenario ("), "\(seed.stderr)")
        let other = try cli(["run", "other.json", "--engine", "synthetic", "--out", "r", "--continue"], in: dir)
        #expect(other.status == 2 && other.stderr.contains("scenario (my.json there") && other.stderr.contains("--resume r"), "\(other.stderr)")
        let engine = try cli(["run", "my.json", "--out", "r", "--continue"], in: dir)
        #expect(engine.status == 2 && engine.stderr.contains("engine (synthetic there)"), "\(engine.stderr)")
        #expect(try sandboxSnapshot(dir) == before)
        let conflict = runCLI(["run", "my.json", "--continue", "--resume", "r"])
        #expect(conflict.code == 2 && conflict.err.contains("--continue"))
        try? FileManager.default.removeItem(at: dir)
    }
}
