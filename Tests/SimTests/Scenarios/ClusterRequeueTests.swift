import Foundation
import Testing
@testable import Scenarios
@testable import Format
@testable import Catalogs
@testable import ScenarioFile
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Shrink
@testable import Experiments
@testable import Explore
@testable import Reports
import SimKernel
@testable import GrouperSimCLI

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

    /// `merge shards/my-*` also matches `my-2.partial`: it is skipped and its shard named with
    /// the command that finishes it; once finished, the same glob merges.
    @Test func mergeSkipsPartialFoldersAndNamesTheCommandThatFinishesThem() throws {
        let dir = try sandbox("merge-partial")
        let syn = ["--engine", "synthetic", "--jobs", "1"]
        #expect(try cli(["run", "my.json", "--shard", "1/2", "--out", "shards/my-1"] + syn, in: dir).status == 0)
        #expect(try cli(["run", "my.json", "--shard", "2/2", "--out", "shards/my-2"] + syn, in: dir, killAfter: 1).status == 130)
        let glob = ["shards/my-1", "shards/my-2.partial"]
        let refused = try CLIProcess.run(["merge"] + glob + ["--out", "merged"], in: dir)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("1 shard is unfinished")
                && refused.stderr.contains("shards/my-2 (1 run kept in shards/my-2.partial): grouper-sim run my.json --resume shards/my-2")
                && !refused.stderr.contains("shards/my-2.partial/shard.json"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/merged"))
        #expect(try cli(["run", "my.json", "--resume", "shards/my-2"], in: dir).status == 0)
        let merged = try CLIProcess.run(["merge", "shards/my-1", "shards/my-2", "--out", "merged"], in: dir)
        #expect(merged.status == 0, "\(merged.stderr)")
        // A merge refused for other options says which.
        #expect(try cli(["run", "my.json", "--shard", "2/2", "--seed", "9", "--out", "shards/seed-2"] + syn, in: dir).status == 0)
        let seed = try CLIProcess.run(["merge", "shards/my-1", "shards/seed-2", "--out", "m2"], in: dir)
        #expect(seed.status == 2 && seed.stderr.contains("--seed 9 (shards/my-1: none)") && !seed.stderr.contains("--replications"),
                "\(seed.stderr)")
        try? FileManager.default.removeItem(at: dir)
    }

    static let precise = """
    {"format": 1, "name": "precise", "seed": 8, "duration": "20min",
     "group": {"devices": 2, "k": 2, "n": 3, "s": 3},
     "workload": {"update": {"every": "5min"}},
     "sweep": [{"path": "group.devices", "values": [2, 3, 4]}],
     "metrics": ["messages_uploaded", "converged"],
     "precision": {"metrics": ["messages_uploaded"], "relative_ci95": 0.5, "min_replications": 2, "max_replications": 4}}

    """

    /// A shard of a precision sweep holds points: shard N of N > points holds none and warns.
    @Test func aShardWithoutPointsWarns() throws {
        let dir = try sandbox("empty-shard")
        try Data(Self.precise.utf8).write(to: dir.appendingPathComponent("precise.json"))
        let syn = ["--engine", "synthetic", "--jobs", "1"]
        let last = try cli(["run", "precise.json", "--shard", "3/3", "--out", "s3", "--precision-stop", "per-point"] + syn, in: dir)
        #expect(last.status == 0 && !last.stderr.contains("warning"), "\(last.stderr)")
        let empty = try cli(["run", "precise.json", "--shard", "4/4", "--out", "s4", "--precision-stop", "per-point"] + syn, in: dir)
        #expect(empty.status == 0 && empty.stderr.contains("warning: precise: shard 4 of 4 holds no runs")
                && empty.stderr.contains("N ≤ 3"), "\(empty.stderr)")
        let plain = try cli(["run", "my.json", "--shard", "10/10", "--out", "p10"] + syn, in: dir)
        #expect(plain.status == 0 && plain.stderr.contains("shard 10 of 10 holds no runs: the scenario has 9 runs"), "\(plain.stderr)")
        #expect(try cli(["run", "my.json", "--shard", "9/9", "--out", "p9"] + syn, in: dir).stderr.isEmpty)
        try? FileManager.default.removeItem(at: dir)
    }

    /// `--precision X` without a block targets the first metric; `--precision-metrics` names others.
    @Test func precisionTargetsTheFirstMetricOrTheNamedOnes() throws {
        let s = try ScenarioLoader.load(ScenarioSource(label: "my.json", text: Self.study))
        #expect(s.overriding(seed: nil, replications: nil, precision: 0.1).base.precision?.metrics == ["messages_uploaded"])
        let named = s.overriding(seed: nil, replications: nil, precision: 0.1, precisionMetrics: ["converged"])
        #expect(named.base.precision?.metrics == ["converged"] && named.pointSpecs.allSatisfy { $0.precision?.metrics == ["converged"] })
        // Recorded for --resume.
        let header = PartialRun.Header(named, engine: .synthetic)
        #expect(PartialRun.Header(json: header.json) == header && header.precisionMetrics == ["converged"])
        #expect(header.applied(to: s).base.precision?.metrics == ["converged"])
        let dir = try sandbox("precision-metrics")
        let typo = try cli(["run", "my.json", "--precision", "0.1", "--precision-metrics", "convergd"], in: dir)
        #expect(typo.status == 2 && typo.stderr.contains("'convergd' is not a metric of requeue") && typo.stderr.contains("converged"),
                "\(typo.stderr)")
        let none = try cli(["run", "my.json", "--precision-metrics", "converged"], in: dir)
        #expect(none.status == 2 && none.stderr.contains("add --precision X"), "\(none.stderr)")
        try? FileManager.default.removeItem(at: dir)
    }

    /// A targeted metric that is 0 in more than half the runs warns; points that stopped at
    /// different counts are noted (common random numbers pair them only up to the smallest).
    @Test func mostlyZeroMetricsWarnAndUnevenStopsAreNoted() throws {
        let s = try ScenarioLoader.load(ScenarioSource(label: "p.json", text: Self.precise))
        func record(_ point: Int, _ value: Double) -> RunRecord {
            RunRecord(index: 0, point: point, replication: 0, seed: 0, metrics: [value, 1], checkers: [], fingerprint: RunFingerprint(value: 0))
        }
        let half = [record(0, 0), record(0, 1), record(1, 0), record(1, 1)]
        #expect(RunCommand.precisionNotes(s, half) == "", "half zero is not mostly zero; equal counts pair every run")
        let notes = RunCommand.precisionNotes(s, half + [record(1, 0)])
        #expect(notes.contains("warning: precise: the precision target's metric messages_uploaded is 0 in 3 of 5 runs"), "\(notes)")
        #expect(notes.contains("note: precise: the points stopped at different replication counts (2 to 3)"), "\(notes)")
    }
}
