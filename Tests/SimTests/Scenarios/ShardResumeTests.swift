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

/// `run --shard i/N` keeps each finished run's record in `DIR.partial/`, so an interrupted
/// shard continues with `run --resume DIR` in another process and writes the same
/// `shard.json` as an uninterrupted one; the merged result equals one run.
@Suite struct ShardResumeTests {
    let support = IncrementalRunTests()

    @Test func anInterruptedShardResumedEqualsTheUninterruptedShard() throws {
        let (dir, file) = try support.sandbox("shard-resume")
        let overrides = ["--seed", "9", "--replications", "3"]
        let stopped = try support.cli(["run", file.path, "--shard", "1/2", "--out", "s1", "--jobs", "1"] + overrides,
                                      in: dir, interruptAfter: 2)
        #expect(stopped.status == 130)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("s1").path), "no shard.json before the shard is whole")
        #expect(support.entries(dir.appendingPathComponent("s1.partial")).filter { $0.hasPrefix("run-") }.count == 2)
        // A fresh shard run into the same folder is refused and names --resume.
        let fresh = try support.cli(["run", file.path, "--shard", "1/2", "--out", "s1"] + overrides, in: dir)
        #expect(fresh.status == 2 && fresh.stderr.contains("--resume s1"), "\(fresh.stderr)")
        let resumed = try support.cli(["run", file.path, "--resume", "s1", "--jobs", "2"], in: dir)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("shard 1 of 2"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("s1.partial").path))
        #expect(try support.cli(["run", file.path, "--shard", "1/2", "--out", "u1"] + overrides, in: dir).status == 0)
        let a = try ScenarioFixtures.files(in: dir.appendingPathComponent("s1"))
        #expect(try a.count == 1 && a == (ScenarioFixtures.files(in: dir.appendingPathComponent("u1"))))
        // The resumed shard merges with the other one into what one run writes.
        #expect(try support.cli(["run", file.path, "--shard", "2/2", "--out", "s2"] + overrides, in: dir).status == 0)
        #expect(try CLIProcess.run(["merge", "s1", "s2", "--out", "merged"], in: dir).status == 0)
        #expect(try support.cli(["run", file.path, "--out", "one"] + overrides, in: dir).status == 0)
        #expect(try ScenarioFixtures.files(in: dir.appendingPathComponent("merged")) == (try ScenarioFixtures.files(in: dir.appendingPathComponent("one"))))
        // A finished shard has nothing to resume and cannot be extended on its own.
        let again = try support.cli(["run", file.path, "--resume", "s1"], in: dir)
        #expect(again.status == 0 && again.stdout.contains("nothing to resume"))
        let extend = try support.cli(["run", file.path, "--add-replications", "1", "s1"], in: dir)
        #expect(extend.status == 2 && extend.stderr.contains("merge"), "\(extend.stderr)")
        #expect(try ScenarioFixtures.files(in: dir.appendingPathComponent("s1")) == a)
    }

    /// A precision-target shard (split by point, its points stopping per point) resumes to the
    /// same stopping counts and the same `shard.json`, overrides included.
    @Test func aPrecisionShardResumes() throws {
        let dir = ScenarioFixtures.tempDir("shard-resume-precision")
        let args = ["--engine", "synthetic", "--precision", "0.05", "--shard", "2/3", "--precision-stop", "per-point",
                    "--precision-metrics", "converged"]
        #expect(try support.cli(["run", "churn-k-sweep", "--out", "p", "--jobs", "1"] + args, in: dir, interruptAfter: 7).status == 130)
        let resumed = try support.cli(["run", "--resume", "p"], in: dir)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try support.cli(["run", "churn-k-sweep", "--out", "one"] + args, in: dir).status == 0)
        let a = try ScenarioFixtures.files(in: dir.appendingPathComponent("p"))
        #expect(try !a.isEmpty && a == (ScenarioFixtures.files(in: dir.appendingPathComponent("one"))))
        let shard = String(decoding: a[ShardFile.fileName] ?? Data(), as: UTF8.self)
        #expect(shard.contains(#""precision_stop_override": "per-point""#) && shard.contains(#""precision_metrics_override": ["#), "\(shard.prefix(2000))")
    }
}
