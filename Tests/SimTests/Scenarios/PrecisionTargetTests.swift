import Foundation
import Testing
import SimKernel
@testable import Scenarios
@testable import Format
@testable import Catalogs
@testable import ScenarioFile
@testable import Plan
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Shrink
@testable import Experiments
@testable import Explore
@testable import Reports
@testable import GrouperSimCLI

/// `"precision"` and `--precision`: replications per point in batches until the target.
@Suite struct PrecisionTargetTests {
    /// Point 0 (k = 1): values 11, 9, 11, 9, … (mean ≈ 10, s ≈ 1); point 1 (k = 2): values
    /// around 0 (−1, 1, −1, …), whose relative half-width never shrinks below the target.
    struct AlternatingExecutor: RunExecutor {
        func execute(_ run: ResolvedRun) throws -> RunOutcome {
            let sign: Double = run.replication % 2 == 0 ? 1 : -1
            let v = run.spec.group.k == 1 ? 10 + sign : sign
            return RunOutcome(metrics: [("messages_uploaded", v), ("converged", 1)], checkers: [], fingerprint: RunFingerprint(value: UInt64(run.replication)))
        }
    }

    static let text = """
    {
      "format": 1, "name": "prec", "seed": 2, "duration": "1h",
      "group": {"devices": 3, "k": 1, "n": 3, "s": 3},
      "sweep": [{"path": "group.k", "values": [1, 2]}],
      "metrics": ["messages_uploaded", "converged"],
      "precision": {"metrics": ["messages_uploaded"], "relative_ci95": 0.05, "min_replications": 5, "max_replications": 40}
    }
    """

    /// `text` with points that stop each on its own.
    static let perPoint = text.replacingOccurrences(of: #""max_replications": 40}"#, with: #""max_replications": 40, "stop": "per-point"}"#)

    /// Runs `text` in process into a fresh folder named by `tag` (tests run in parallel).
    func run(_ text: String, jobs: Int, tag: String, extra: (inout RunOptions) -> Void = { _ in }) throws -> [String: Data] {
        let dir = ScenarioFixtures.tempDir("precision-\(tag)")
        let file = dir.appendingPathComponent("p.json")
        try Data(text.utf8).write(to: file)
        var o = RunOptions()
        o.files = [file.path]; o.out = dir.appendingPathComponent("out").path; o.jobs = jobs
        extra(&o)
        let code = try RunCommand.execute(o, executor: AlternatingExecutor(), io: CapturedOutput().io, terminal: false)
        #expect(code == .ok)
        return try ScenarioFixtures.files(in: URL(fileURLWithPath: o.out!))
    }

    /// index.html says what summary.md says: the replications that ran (20 and 40, not the cap
    /// as a count for every point), and the replications and target-met columns with the same cells.
    @Test func indexPageSaysWhatTheSummarySays() throws {
        let files = try run(Self.perPoint, jobs: 1, tag: "index")
        let md = String(decoding: files["summary.md"]!, as: UTF8.self)
        let html = String(decoding: files["index.html"]!, as: UTF8.self)
        #expect(md.contains("target met at 1 of 2 point(s), 60 runs in all"))
        #expect(html.contains("target met at 1 of 2 point(s), 60 runs in all"), "\(html)")
        #expect(!html.contains("× 40 replication(s)"))
        let rows = md.split(separator: "\n").filter { $0.hasPrefix("| ") }
        #expect(rows.count == 3)
        for row in rows {
            let cells = row.dropFirst(2).dropLast(2).components(separatedBy: " | ")
            let tag = row == rows[0] ? "th" : "td"
            let htmlRow = "<tr>" + cells.map { "<\(tag)>\(SVGPlot.escape($0))</\(tag)>" }.joined() + "</tr>"
            #expect(html.contains(htmlRow), "\(htmlRow)")
        }
        #expect(rows[0].contains("| replications | target met |") && rows[2].contains("| 40 | no (cap) |"))
    }

    /// With s ≈ 1 the half-width t·s/√n first drops below 5% of 10 at n = 20 (t₁₄·1.03/√15 ≈
    /// 0.57 > 0.50, t₁₉·1.026/√20 = 0.4802, relative 0.048017 by scipy): checked at 5, 10, 15,
    /// 20 it stops at 20. The point around zero never meets a relative target and stops at the cap.
    @Test func eachPointStopsAtTheFirstCheckpointThatMeetsTheTarget() throws {
        let s = try ScenarioLoader.load(ScenarioSource(label: "p.json", text: Self.perPoint))
        #expect(s.base.precision?.checkpoints == [5, 10, 15, 20, 25, 30, 35, 40])
        let perPoint = try PrecisionRunner.execute(RunPlan(s), points: [0, 1], session: RunSession(executor: AlternatingExecutor(), jobs: 2))
        #expect(perPoint.map(\.count) == [20, 40])
        let values = perPoint[0].map { $0.metrics[0] }
        #expect(!SampleSummary(Array(values.prefix(15)), range: .nonNegative).meets(relative: 0.05))
        #expect(SampleSummary(values, range: .nonNegative).meets(relative: 0.05))
        #expect(perPoint[0].map(\.replication) == Array(0..<20))

        let files = try run(Self.perPoint, jobs: 1, tag: "stops")
        let csv = String(decoding: files["summary.csv"]!, as: UTF8.self).split(separator: "\n")
        #expect(csv[0].hasSuffix(",ci95_method,replications,relative_ci95,target_met"))
        #expect(csv[1].hasPrefix("0,1,messages_uploaded,messages,20,") && csv[1].hasSuffix(",20,0.048017,yes"), "\(csv[1])")
        #expect(csv[2].hasPrefix("0,1,converged,0/1,20,") && csv[2].hasSuffix(",wilson,20,0.080563,"), "\(csv[2])")
        #expect(csv[3].hasPrefix("1,2,messages_uploaded,") && csv[3].hasSuffix(",40,") == false && csv[3].contains(",40,"), "\(csv[3])")
        #expect(csv[3].hasSuffix(",no"))
        let md = String(decoding: files["summary.md"]!, as: UTF8.self)
        #expect(md.contains("| 0 | 1 | 20 | yes |") && md.contains("| 1 | 2 | 40 | no (cap) |"), "\(md)")
        #expect(md.contains("target met at 1 of 2 point(s), 60 runs in all"))
        let manifest = try JSONParser.parse(String(decoding: files["manifest.json"]!, as: UTF8.self))
        #expect(manifest["replications"] == nil && manifest["precision"]?["max_replications"] == .number(40, text: "40"))
        #expect(item(manifest["points"], 1)?["replications"] == .number(40, text: "40") && item(manifest["points"], 1)?["target_met"] == .bool(false))
        let runs = String(decoding: files["runs.csv"]!, as: UTF8.self).split(separator: "\n")
        #expect(runs.count == 61 && runs[21].hasPrefix("20,1,0,"), "runs are numbered 0… point-major: \(runs[21])")
    }

    @Test func theOutputIsTheSameForEveryJobsAndForShardsMerged() throws {
        let one = try run(Self.perPoint, jobs: 1, tag: "jobs1")
        #expect(try run(Self.perPoint, jobs: 3, tag: "jobs3") == one)
        let dir = ScenarioFixtures.tempDir("precision-shards")
        let file = dir.appendingPathComponent("p.json")
        try Data(Self.perPoint.utf8).write(to: file)
        var shards: [(where_: String, file: ShardFile)] = []
        for i in 1...3 {
            var o = RunOptions()
            o.files = [file.path]; o.shard = (i, 3); o.jobs = 2; o.out = dir.appendingPathComponent("s\(i)").path
            #expect(try RunCommand.execute(o, executor: AlternatingExecutor(), io: CapturedOutput().io, terminal: false) == .ok)
            let text = try String(contentsOfFile: o.out! + "/shard.json", encoding: .utf8)
            shards.append((o.out!, try ShardFile.parse(text, where: o.out!)))
        }
        #expect(shards.map(\.file.records.count) == [20, 40, 0])
        let merged = try ShardMerge.merge(shards)
        #expect(Dictionary(uniqueKeysWithValues: merged.files.map { ($0.name, Data($0.contents.utf8)) }) == one)
        // A shard cut short is named, not merged into a wrong result.
        var cut = shards
        cut[1].file.records.removeLast(5)
        #expect(throws: ShardMerge.MergeError.self) { try ShardMerge.merge(cut) }
    }

    /// `--precision` sets the target of the scenario's block, or of its first metric.
    @Test func theCommandLineTargetOverridesOrAddsTheBlock() throws {
        let loose = try run(Self.perPoint, jobs: 2, tag: "loose") { $0.precision = 0.5 }
        let md = String(decoding: loose["summary.md"]!, as: UTF8.self)
        #expect(md.contains("| 0 | 1 | 5 | yes |"), "\(md)")
        let fixed = Self.text.replacingOccurrences(of: #""precision": {"metrics": ["messages_uploaded"], "relative_ci95": 0.05, "min_replications": 5, "max_replications": 40}"#,
                                                   with: #""replications": 2"#)
        let all = try run(fixed, jobs: 2, tag: "all") { $0.precision = 0.2 }
        let manifest = try JSONParser.parse(String(decoding: all["manifest.json"]!, as: UTF8.self))
        #expect(manifest["precision"]?["metrics"] == .array([.string("messages_uploaded")]))
        #expect(manifest["precision"]?["max_replications"] == .number(500, text: "500"))
        // resolved.json reads back as the scenario that ran.
        let resolved = try JSONParser.parse(String(decoding: all["resolved.json"]!, as: UTF8.self))
        let point = JSONWriter.pretty(item(resolved["points"], 0)!["scenario"]!)
        let back = try ScenarioLoader.load(ScenarioSource(label: "r.json", text: point))
        #expect(back.base.precision == PrecisionSpec(metrics: ["messages_uploaded"], relativeCI95: 0.2, stop: .together))
        #expect(manifest["precision"]?["stop"] == .string("together"))
        // --replications replaces a target by a fixed count.
        let plain = try run(Self.text, jobs: 2, tag: "plain") { $0.replications = 3 }
        #expect(String(decoding: plain["runs.csv"]!, as: UTF8.self).split(separator: "\n").count == 7)
    }

    func item(_ v: JSONValue?, _ i: Int) -> JSONValue? {
        if case .array(let a)? = v, a.indices.contains(i) { return a[i] }
        return nil
    }

    @Test func badTargetsAreExitCodeTwo() throws {
        let dir = ScenarioFixtures.tempDir("precision-bad")
        for args in [["--precision", "0"], ["--precision", "1"], ["--precision", "-0.1"], ["--precision", "five"],
                     ["--precision", "0.05", "--replications", "3"]] {
            let r = try CLIProcess.run(["run", "smoke", "--engine", "synthetic", "--out", "o"] + args, in: dir)
            #expect(r.status == 2 && r.stderr.contains("--precision"), "\(args): \(r.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}
