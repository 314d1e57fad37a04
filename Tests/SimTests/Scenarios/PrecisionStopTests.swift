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
@testable import Reports
@testable import GrouperSimCLI

/// `"stop": "together" | "per-point"` of a precision target and `--precision-stop`; shards of a
/// precision sweep with `--precision-stop` and `--precision-metrics`.
@Suite struct PrecisionStopTests {
    /// Point 0 (k = 1): 10 ± 1 alternating, within ±5% first at 20 runs (as in
    /// `PrecisionTargetTests`); point 1 (k = 2): 10 ± 1.25, first at 30: at 25 the half-width is
    /// t₂₄ · 1.0198 · 1.25 / √25 = 0.5262 > 0.05 · 10.05 = 0.5025, at 30 it is
    /// t₂₉ · 1.01709 · 1.25 / √30 = 0.4747 ≤ 0.5 (hand-computed from the alternating values).
    struct SpreadExecutor: RunExecutor {
        func execute(_ run: ResolvedRun) throws -> RunOutcome {
            let sign: Double = run.replication % 2 == 0 ? 1 : -1
            let v = 10 + sign * (run.spec.group.k == 1 ? 1 : 1.25)
            return RunOutcome(metrics: [("messages_uploaded", v), ("converged", 1)], checkers: [], fingerprint: RunFingerprint(value: run.seed))
        }
    }

    static let text = PrecisionTargetTests.text
    static let perPoint = PrecisionTargetTests.perPoint

    func load(_ text: String) throws -> LoadedScenario { try ScenarioLoader.load(ScenarioSource(label: "p.json", text: text)) }

    func execute(_ s: LoadedScenario) throws -> [[RunRecord]] {
        try PrecisionRunner.execute(RunPlan(s), points: Array(s.points.indices), session: RunSession(executor: SpreadExecutor(), jobs: 2))
    }

    /// Together (the default) both points stop at 30, where the slower one first meets the
    /// target; per point they stop at 20 and 30. One point meeting the target is not enough.
    @Test func pointsStopTogetherAtTheFirstCheckpointWhereEveryPointMeetsTheTarget() throws {
        let together = try load(Self.text)
        #expect(together.base.precision?.stop == .together)
        let records = try execute(together)
        #expect(records.map(\.count) == [30, 30])
        // Replication r is the same random numbers at both points (common random numbers).
        #expect(zip(records[0], records[1]).allSatisfy { $0.replication == $1.replication && $0.seed == $1.seed })
        let perPoint = try load(Self.perPoint)
        #expect(perPoint.base.precision?.stop == .perPoint)
        #expect(try execute(perPoint).map(\.count) == [20, 30])
        // The rule at its boundary: at 25 only point 0 meets the target; at 30 both do.
        let precision = together.base.precision!, specs = together.pointSpecs
        #expect(PrecisionRule.isMet(records[0].prefix(25), spec: specs[0], precision: precision))
        #expect(!PrecisionRule.isMet(records[1].prefix(25), spec: specs[1], precision: precision))
        #expect(PrecisionRule.togetherStopCount(records.map { $0.prefix(25) }, specs: specs, precision: precision) == nil)
        #expect(PrecisionRule.togetherStopCount(records.map { $0[...] }, specs: specs, precision: precision) == 30)
        // A point whose records end early leaves the rule undecided.
        #expect(PrecisionRule.togetherStopCount([records[0][...], records[1].prefix(25)], specs: specs, precision: precision) == nil)
        // --precision-stop replaces the block's choice.
        #expect(together.overriding(seed: nil, replications: nil, precisionStop: .perPoint).pointSpecs.allSatisfy { $0.precision?.stop == .perPoint })
        #expect(try execute(together.overriding(seed: nil, replications: nil, precisionStop: .perPoint)).map(\.count) == [20, 30])
    }

    /// Points that never all meet the target run together to the cap.
    @Test func pointsThatNeverAllMeetTheTargetRunTogetherToTheCap() throws {
        let s = try load(Self.text)
        let records = try PrecisionRunner.execute(RunPlan(s), points: [0, 1],
                                                  session: RunSession(executor: PrecisionTargetTests.AlternatingExecutor(), jobs: 2))
        #expect(records.map(\.count) == [40, 40])
    }

    func run(_ text: String, tag: String, _ extra: (inout RunOptions) -> Void = { _ in }) throws -> (files: [String: Data], err: String) {
        let dir = ScenarioFixtures.tempDir("precision-stop-\(tag)")
        let file = dir.appendingPathComponent("p.json")
        try Data(text.utf8).write(to: file)
        var o = RunOptions()
        o.files = [file.path]; o.out = dir.appendingPathComponent("out").path; o.jobs = 2
        extra(&o)
        let io = CapturedOutput()
        #expect(try RunCommand.execute(o, executor: SpreadExecutor(), io: io.io, terminal: false) == .ok)
        let files = try ScenarioFixtures.files(in: URL(fileURLWithPath: o.out!))
        try? FileManager.default.removeItem(at: dir)
        return (files, io.err)
    }

    /// The results say how the points stopped; only points stopped per point at different
    /// counts get the note on common random numbers.
    @Test func theResultsSayHowThePointsStopped() throws {
        let together = try run(Self.text, tag: "together")
        let md = String(decoding: together.files["summary.md"]!, as: UTF8.self)
        #expect(md.contains("| 0 | 1 | 30 | yes |") && md.contains("| 1 | 2 | 30 | yes |"), "\(md)")
        #expect(md.contains("at most 40, the points stopping together): target met at 2 of 2 point(s), 60 runs in all"), "\(md)")
        let manifest = try JSONParser.parse(String(decoding: together.files["manifest.json"]!, as: UTF8.self))
        #expect(manifest["precision"]?["stop"] == .string("together"))
        #expect(!together.err.contains("different replication counts"), "\(together.err)")
        let perPoint = try run(Self.text, tag: "per-point") { $0.precisionStop = .perPoint }
        let pmd = String(decoding: perPoint.files["summary.md"]!, as: UTF8.self)
        #expect(pmd.contains("| 0 | 1 | 20 | yes |") && pmd.contains("| 1 | 2 | 30 | yes |"), "\(pmd)")
        #expect(pmd.contains("at most 40, each point stopping on its own): target met at 2 of 2 point(s), 50 runs in all"), "\(pmd)")
        #expect(perPoint.err.contains("the points stopped at different replication counts (20 to 30)")
                && perPoint.err.contains("drop --precision-stop per-point"), "\(perPoint.err)")
        let pm = try JSONParser.parse(String(decoding: perPoint.files["manifest.json"]!, as: UTF8.self))
        #expect(pm["precision"]?["stop"] == .string("per-point"))
        // The block's "per-point" and the option's give the same runs.
        let block = try run(Self.perPoint, tag: "block")
        #expect(block.files["runs.csv"] == perPoint.files["runs.csv"] && block.files["summary.csv"] == perPoint.files["summary.csv"])
        // resolved.json reads back as the scenario that ran.
        let resolved = try JSONParser.parse(String(decoding: perPoint.files["resolved.json"]!, as: UTF8.self))
        guard case .array(let points)? = resolved["points"], let first = points.first?["scenario"] else { Issue.record("no points"); return }
        #expect(try load(JSONWriter.pretty(first)).base.precision?.stop == .perPoint)
    }

    /// `validate` says how the points of a precision target stop.
    @Test func validateSaysHowThePointsStop() throws {
        let dir = ScenarioFixtures.tempDir("precision-stop-validate")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(Self.text.utf8).write(to: dir.appendingPathComponent("t.json"))
        try Data(Self.perPoint.utf8).write(to: dir.appendingPathComponent("p.json"))
        let r = try CLIProcess.run(["validate", "t.json", "p.json"], in: dir)
        #expect(r.status == 0 && r.stdout.contains("ok t.json: prec, 2 point(s) × 5…40 replication(s) (until the precision target, the points stopping together)")
                && r.stdout.contains("ok p.json: prec, 2 point(s) × 5…40 replication(s) (until the precision target, each point stopping on its own)"),
                "\(r.stdout)")
    }

    /// Shards: a together target is refused (exit 2, naming the option), with
    /// `--precision-stop per-point` the shards merge into the single run with that option, and
    /// shards that disagree on it are refused, naming it.
    @Test func shardsNeedPointsThatStopPerPoint() throws {
        let dir = ScenarioFixtures.tempDir("precision-stop-shards")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("p.json")
        try Data(Self.text.utf8).write(to: file)
        let refused = try CLIProcess.run(["run", "p.json", "--engine", "synthetic", "--shard", "1/2", "--out", "s1", "--progress", "never"], in: dir)
        #expect(refused.status == 2 && refused.stderr.contains("--shard") && refused.stderr.contains("add --precision-stop per-point"),
                "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("s1").path)
                && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("s1.partial").path))
        func shard(_ i: Int, _ extra: (inout RunOptions) -> Void) throws -> (where_: String, file: ShardFile) {
            var o = RunOptions()
            o.files = [file.path]; o.shard = (i, 2); o.jobs = 2; o.out = dir.appendingPathComponent("s\(i)-\(UUID().uuidString)").path
            extra(&o)
            #expect(try RunCommand.execute(o, executor: SpreadExecutor(), io: CapturedOutput().io, terminal: false) == .ok)
            let text = try String(contentsOfFile: o.out! + "/shard.json", encoding: .utf8)
            #expect(text.contains(#""precision_stop_override": "per-point""#))
            return (o.out!, try ShardFile.parse(text, where: o.out!))
        }
        let shards = try [shard(1) { $0.precisionStop = .perPoint }, shard(2) { $0.precisionStop = .perPoint }]
        #expect(shards.map(\.file.records.count) == [20, 30] && shards.allSatisfy { $0.file.precisionStop == .perPoint })
        let merged = try ShardMerge.merge(shards)
        let one = try run(Self.text, tag: "shards-one") { $0.precisionStop = .perPoint }
        #expect(Dictionary(uniqueKeysWithValues: merged.files.map { ($0.name, Data($0.contents.utf8)) }) == one.files)
        // A shard without the option (its points would stop together) does not merge with one with it.
        var other = shards
        other[1].file.precisionStop = nil
        let stop = #expect(throws: ShardMerge.MergeError.self) { try ShardMerge.merge(other) }
        #expect(stop?.description.contains("--precision-stop none (\(shards[0].where_): per-point)") == true, "\(String(describing: stop))")
    }

    /// `--precision-metrics` with `--shard`: recorded in shard.json (and the partial folder's
    /// header), applied by `merge`, which refuses shards that disagree on it.
    @Test func shardsRecordThePrecisionMetricsAndMergeAppliesThem() throws {
        let dir = ScenarioFixtures.tempDir("precision-metrics-shards")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("p.json")
        try Data(Self.perPoint.utf8).write(to: file)
        func shard(_ i: Int, metrics: [String]?) throws -> (where_: String, file: ShardFile) {
            var o = RunOptions()
            o.files = [file.path]; o.shard = (i, 2); o.jobs = 2; o.out = dir.appendingPathComponent("s\(i)-\(metrics == nil ? "block" : "named")").path
            o.precisionMetrics = metrics
            #expect(try RunCommand.execute(o, executor: SpreadExecutor(), io: CapturedOutput().io, terminal: false) == .ok)
            let text = try String(contentsOfFile: o.out! + "/shard.json", encoding: .utf8)
            return (o.out!, try ShardFile.parse(text, where: o.out!))
        }
        // converged is 1 in every run: Wilson's interval of 35 of 35 is the first within ±5%.
        let named = try [shard(1, metrics: ["converged"]), shard(2, metrics: ["converged"])]
        #expect(named.map(\.file.records.count) == [35, 35] && named.allSatisfy { $0.file.precisionMetrics == ["converged"] })
        let merged = try ShardMerge.merge(named)
        let one = try run(Self.perPoint, tag: "metrics-one") { $0.precisionMetrics = ["converged"] }
        #expect(Dictionary(uniqueKeysWithValues: merged.files.map { ($0.name, Data($0.contents.utf8)) }) == one.files)
        let mixed = [named[0], try shard(2, metrics: nil)]
        let differs = #expect(throws: ShardMerge.MergeError.self) { try ShardMerge.merge(mixed) }
        #expect(differs?.description.contains("--precision-metrics none (\(named[0].where_): converged)") == true, "\(String(describing: differs))")
        // The slice's overrides survive the partial folder's header (a resumed shard writes the same shard.json).
        var header = PartialRun.Header(try load(Self.perPoint), engine: .synthetic)
        header.shard = PartialRun.Shard(index: 1, count: 2, seedOverride: nil, replicationsOverride: nil, precisionOverride: nil,
                                        precisionMetricsOverride: ["converged"], precisionStopOverride: .perPoint)
        #expect(PartialRun.Header(json: header.json) == header)
    }

    /// `--continue` of a precision run (points together, per point, or a shard with both
    /// precision options) resumes its own unfinished run byte-identical to an uninterrupted
    /// one, and refuses one that stops its points otherwise, naming the difference; the
    /// finished result has nothing to resume and cannot be extended by a fixed count.
    @Test(arguments: [[String](), ["--precision-stop", "per-point"],
                      ["--shard", "2/2", "--precision-stop", "per-point", "--precision-metrics", "converged"]])
    func aRequeuedPrecisionCommandContinues(extra: [String]) throws {
        let requeue = ClusterRequeueTests()
        let dir = try requeue.sandbox("precision-continue\(extra.count)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let options = ["--jobs", "1", "--engine", "synthetic", "--precision", "0.5"] + extra
        let command = ["run", "my.json", "--out", "r", "--continue"] + options
        #expect(try requeue.cli(command, in: dir, killAfter: 2).status == 130)
        let shard = extra.contains("--shard")
        if extra.isEmpty {
            let other = try requeue.cli(command + ["--precision-stop", "per-point"], in: dir)
            #expect(other.status == 2 && other.stderr.contains("precision stop (together there)"), "\(other.stderr)")
        } else if !shard {
            let other = try requeue.cli(command.filter { $0 != "--precision-stop" && $0 != "per-point" }, in: dir)
            #expect(other.status == 2 && other.stderr.contains("precision stop (per-point there)"), "\(other.stderr)")
        } else {
            let other = try requeue.cli(command.filter { $0 != "--precision-metrics" && $0 != "converged" }, in: dir)
            #expect(other.status == 2 && other.stderr.contains("shard (2/2 with its overrides there)"), "\(other.stderr)")
        }
        let again = try requeue.cli(command, in: dir)
        #expect(again.status == 0 && again.stderr.contains("continuing the unfinished run"), "\(again.stderr)")
        #expect(try requeue.cli(["run", "my.json", "--out", "one"] + options, in: dir).status == 0)
        let a = try ScenarioFixtures.files(in: dir.appendingPathComponent("r"))
        let b = try ScenarioFixtures.files(in: dir.appendingPathComponent("one"))
        #expect(!a.isEmpty && a == b)
        guard !shard else { return }
        let nothing = try requeue.cli(["run", "my.json", "--resume", "r"], in: dir)
        #expect(nothing.status == 0 && nothing.stdout.contains("nothing to resume") && nothing.stdout.contains("precision target"), "\(nothing.stdout)")
        let extend = try requeue.cli(["run", "my.json", "--add-replications", "2", "r"], in: dir)
        #expect(extend.status == 2 && extend.stderr.contains("precision target"), "\(extend.stderr)")
        #expect(try ScenarioFixtures.files(in: dir.appendingPathComponent("r")) == a)
    }
}
