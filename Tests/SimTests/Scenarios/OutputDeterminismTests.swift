import Foundation
import Testing
@testable import Scenarios
@testable import Format
@testable import ScenarioFile
@testable import Plan
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore
@testable import GrouperSimCLI

@Suite(.tags(.slow)) struct OutputDeterminismTests {
    private func scenarioFile(_ dir: URL) throws -> URL {
        let f = dir.appendingPathComponent("det.json")
        try Data(ScenarioFixtures.sweepText.utf8).write(to: f)
        return f
    }

    private func run(_ args: [String]) -> (code: Int32, out: String, err: String) { runCLI(args) }

    @Test func jobs1AndJobs2WriteIdenticalBytes() throws {
        let dir = ScenarioFixtures.tempDir("jobs")
        let f = try scenarioFile(dir)
        let a = dir.appendingPathComponent("j1"), b = dir.appendingPathComponent("j2")
        #expect(run(["run", f.path, "--engine", "synthetic", "--jobs", "1", "--out", a.path]).code == 0)
        #expect(run(["run", f.path, "--engine", "synthetic", "--jobs", "2", "--out", b.path]).code == 0)
        let fa = try ScenarioFixtures.files(in: a), fb = try ScenarioFixtures.files(in: b)
        #expect(fa.keys.sorted() == ["index.html", "manifest.json", "plot-delivery_ratio.svg", "plot-messages_uploaded.svg",
                                     "plot-upload_time.svg", "records.jsonl", "resolved.json", "runs.csv", "summary.csv", "summary.md"])
        #expect(fa == fb)
        // And the same in memory with many threads.
        let s = try ScenarioLoader.load(ScenarioSource(label: "det.json", text: ScenarioFixtures.sweepText))
        let one = try ParallelRunner.execute(RunPlan(s).runs, executor: SyntheticExecutor(), jobs: 1)
        let many = try ParallelRunner.execute(RunPlan(s).runs, executor: SyntheticExecutor(), jobs: 7)
        #expect(one == many)
    }

    @Test func shardsMergeIntoTheBytesOfOneRun() throws {
        let dir = ScenarioFixtures.tempDir("shards")
        let f = try scenarioFile(dir)
        let whole = dir.appendingPathComponent("whole"), merged = dir.appendingPathComponent("merged")
        #expect(run(["run", f.path, "--engine", "synthetic", "--seed", "99", "--out", whole.path]).code == 0)
        var shardDirs: [String] = []
        for i in 1...4 {
            let d = dir.appendingPathComponent("shard-\(i)").path
            let r = run(["run", f.path, "--engine", "synthetic", "--seed", "99", "--shard", "\(i)/4", "--out", d, "--jobs", "2"])
            #expect(r.code == 0)
            #expect(!FileManager.default.fileExists(atPath: d + "/runs.csv"), "a shard must not look like complete results")
            shardDirs.append(d)
        }
        let m = run(["merge"] + shardDirs.reversed() + ["--out", merged.path])
        #expect(m.code == 0, "\(m.err)")
        let fw = try ScenarioFixtures.files(in: whole), fm = try ScenarioFixtures.files(in: merged)
        #expect(!fw.isEmpty && fw == fm)
        // Missing shard: a clear error, nothing written.
        let bad = run(["merge", shardDirs[0], shardDirs[1], "--out", dir.appendingPathComponent("partial").path])
        #expect(bad.code == 2)
        #expect(bad.err.contains("missing: 3, 4"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("partial").path))
    }

    @Test func twoProcessesWithOneSeedWriteIdenticalManifests() throws {
        let dir = ScenarioFixtures.tempDir("procs")
        let f = try scenarioFile(dir)
        var manifests: [String] = []
        for i in 0..<2 {
            let out = dir.appendingPathComponent("p\(i)").path
            let r = try CLIProcess.run(["run", f.path, "--engine", "synthetic", "--seed", "5", "--jobs", "\(i + 1)", "--out", out])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("wrote \(out)/"))
            manifests.append(try String(contentsOfFile: out + "/manifest.json", encoding: .utf8))
        }
        #expect(manifests[0] == manifests[1])
        #expect(manifests[0].contains("\"seed\": 5"))
        #expect(!manifests[0].contains(dir.path), "the manifest must not depend on where it was run")
    }

    @Test func twoProcessesRunTheProtocolModelIdentically() throws {
        let dir = ScenarioFixtures.tempDir("procs-real")
        var outputs: [[String: Data]] = []
        for i in 0..<2 {
            let out = dir.appendingPathComponent("p\(i)").path
            let r = try CLIProcess.run(["run", "smoke", "--seed", "42", "--jobs", "\(i + 1)", "--out", out])
            #expect(r.status == 0, "\(r.stderr)")
            outputs.append(try ScenarioFixtures.files(in: URL(fileURLWithPath: out)))
        }
        #expect(outputs[0]["manifest.json"] != nil && outputs[0] == outputs[1])
    }

    @Test func failedCheckerExitsOneAndPrintsTheReplayCommand() throws {
        let dir = ScenarioFixtures.tempDir("checker")
        let f = try scenarioFile(dir)
        var o = RunOptions()
        o.files = [f.path]; o.out = dir.appendingPathComponent("out").path; o.jobs = 2
        let c = CapturedOutput()
        #expect(try RunCommand.execute(o, executor: OddSeedFailsExecutor(), io: c.io, terminal: false) == .livenessFailed)
        let plan = RunPlan(try ScenarioLoader.load(ScenarioSource(label: f.path, text: ScenarioFixtures.sweepText)))
        let failing = plan.runs.first { $0.seed % 2 == 1 }!
        #expect(c.err.contains("convergence (liveness): device 2 misses message 7"))
        let replay = "replay: grouper-sim run \(f.path) --seed 11 --point \(failing.point) --replication \(failing.replication)"
        #expect(c.err.contains(replay))
        // The replayed run has the same seed and fingerprint as in the full run.
        var r = RunOptions()
        r.files = [f.path]; r.seed = 11; r.point = failing.point; r.replication = failing.replication
        let rc = CapturedOutput()
        #expect(try RunCommand.execute(r, executor: OddSeedFailsExecutor(), io: rc.io, terminal: false) == .livenessFailed)
        let runs = try String(contentsOfFile: o.out! + "/runs.csv", encoding: .utf8)
        let row = runs.split(separator: "\n")[failing.index + 1]
        let fp = rc.out.components(separatedBy: "fingerprint ")[1].prefix(16)
        #expect(fp.count == 16 && row.hasSuffix(",failed:convergence," + fp))
        #expect(rc.out.contains("seed \(failing.seed))"))
    }

    @Test func traceNeedsExactlyOneRun() throws {
        let dir = ScenarioFixtures.tempDir("trace")
        let f = try scenarioFile(dir)
        let t = dir.appendingPathComponent("t.txt").path
        let bad = run(["run", f.path, "--engine", "synthetic", "--trace", t])
        #expect(bad.code == 2 && bad.err.contains("--trace needs exactly one run"))
        #expect(run(["run", f.path, "--engine", "synthetic", "--trace", t, "--point", "1", "--replication", "0"]).code == 0)
        #expect(FileManager.default.fileExists(atPath: t))
    }

    @Test func badOptionsAreExitCodeTwo() {
        #expect(run(["run", "smoke", "--shard", "5/4"]).code == 2)
        #expect(run(["run", "smoke", "--jobz", "2"]).err.contains("did you mean '--jobs'"))
        #expect(run(["run"]).code == 2)
        #expect(run(["list"]).out.contains("lab-80211n"))
        for c in ["run", "validate", "list", "merge", "reproduce", "equations", "bench"] {
            #expect(run([c, "--help"]).out.contains("USAGE: grouper-sim \(c)"))
        }
    }

    @Test func svgIsDeterministicAndHasTitledAxesLegendAndErrorBars() throws {
        let s = try ScenarioLoader.load(ScenarioSource(label: "det.json", text: ScenarioFixtures.sweepText))
        let records = try ParallelRunner.execute(RunPlan(s).runs, executor: SyntheticExecutor(), jobs: 1)
        let plots = ResultSet(scenario: s, records: records).plots
        #expect(plots.count == 3)
        let svg = plots[1].plot.render()
        // Titles and legend name the parameters in words; the time axis carries its unit on the ticks.
        #expect(svg.contains(">devices</text>") && svg.contains(">upload_time</text>") && svg.contains(" s</text>"))
        #expect(svg.contains(">k = 1, servers per message s = 2</text>") && svg.contains(">k = 2, servers per message s = 3</text>"))
        #expect(svg.components(separatedBy: "<circle").count - 1 == 6)
        #expect(svg == ResultSet(scenario: s, records: records).plots[1].plot.render())
    }
}
