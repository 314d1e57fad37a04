import Foundation
import Testing
import SimKernel
import SimJSON
import GrouperModel
@testable import Scenarios
@testable import Format
@testable import Catalogs
@testable import ScenarioFile
@testable import Plan
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore

@Suite struct ScenarioFormatTests {
    @Test func parserKeepsOrderNumbersAndReportsPositions() throws {
        let v = try JSONParser.parse(#"{"b": 1, "a": [true, null, "x\u00e9\n"], "c": -2.5e3}"#)
        guard case .object(let m) = v else { Issue.record("not an object"); return }
        #expect(m.map(\.key) == ["b", "a", "c"])
        #expect(v["c"] == .number(-2500))
        #expect(v["a"] == .array([.bool(true), .null, .string("xé\n")]))
        #expect(throws: JSONSyntaxError(line: 2, column: 3, reason: "expected ',' or '}' in object")) {
            try JSONParser.parse("{\"a\": 1\n  \"b\": 2}")
        }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("[01]") }
    }

    @Test func builtinScenariosValidate() throws {
        for b in BuiltinScenarios.all {
            let s = try ScenarioLoader.load(BuiltinScenarios.source(named: b.name)!)
            #expect(s.base.name == b.name)
        }
    }

    @Test func defaultsAndDurationsDecode() throws {
        let s = try ScenarioLoader.load(ScenarioSource(label: "t", text: """
            {"format": 1, "name": "d", "duration": "1.5s", "group": {"devices": 2, "k": 1, "n": 2, "s": 1}}
            """))
        #expect(s.base.duration == .milliseconds(1500))
        #expect(try s.base.group.ttl == .days(1) && s.base.group.n == 2 && s.base.group.threshold == ShareThreshold(k: 1, n: 2, s: 1))
        #expect(s.base.protocolSpec.variant == .thesis && s.base.protocolSpec.confirm.period == .days(1))
        #expect(s.base.metrics == MetricCatalog.defaults)
        #expect(s.base.profiles.network["latency"] == 5e-3)
    }

    @Test func sweepIsACartesianProductOfZippedAxesFirstSlowest() throws {
        let s = try ScenarioLoader.load(ScenarioSource(label: "t", text: ScenarioFixtures.sweepText))
        #expect(s.points.map(\.label) == [
            "group.devices=2, group.k=1, group.s=2", "group.devices=2, group.k=2, group.s=3",
            "group.devices=4, group.k=1, group.s=2", "group.devices=4, group.k=2, group.s=3",
            "group.devices=8, group.k=1, group.s=2", "group.devices=8, group.k=2, group.s=3",
        ])
        #expect(s.pointSpecs.map(\.group.devices) == [2, 2, 4, 4, 8, 8])
        #expect(s.pointSpecs.map(\.group.k) == [1, 2, 1, 2, 1, 2])
        #expect(s.pointSpecs.map(\.group.s) == [2, 3, 2, 3, 2, 3])
    }

    @Test func sweepCanSetDefaultedAndIndexedFields() throws {
        let s = try ScenarioLoader.load(ScenarioSource(label: "t", text: """
            {"format": 1, "name": "d", "duration": "1d", "group": {"devices": 2, "k": 1, "n": 2, "s": 1},
             "faults": [{"kind": "refuse", "servers": [1], "window": {"start": "1h"}}],
             "sweep": [{"path": "protocol.confirm.period", "values": ["1h", "2h"]},
                       {"path": "faults[0].window.start", "values": ["2h"]}]}
            """))
        #expect(s.pointSpecs.map(\.protocolSpec.confirm.period) == [.hours(1), .hours(2)])
        #expect(s.pointSpecs[1].faults[0].kind == .window(mode: .refuse, start: .hours(2), end: nil))
    }

    @Test func runSeedsDependOnlyOnSeedAndReplication() throws {
        let s = try ScenarioLoader.load(ScenarioSource(label: "t", text: ScenarioFixtures.sweepText))
        let three = RunPlan(s), five = RunPlan(s.overriding(seed: nil, replications: 5))
        for run in three.runs {
            let same = five.runs.first { $0.point == run.point && $0.replication == run.replication }!
            #expect(same.seed == run.seed)
        }
        #expect(Set(five.runs.map(\.seed)).count == 5, "one seed per replication, shared by every point")
        #expect(five.runs.allSatisfy { $0.seed == five.runs[$0.replication].seed })
        #expect(RunPlan(s.overriding(seed: 12, replications: nil)).runs[0].seed != three.runs[0].seed)
        #expect(three.runs.map(\.index) == Array(0..<18))
    }

    @Test func shardsPartitionThePlan() throws {
        let plan = RunPlan(try ScenarioLoader.load(ScenarioSource(label: "t", text: ScenarioFixtures.sweepText)))
        let parts = (1...4).map { plan.shard($0, of: 4).map(\.index) }
        #expect(parts.flatMap { $0 }.sorted() == plan.runs.map(\.index))
        #expect(parts[0] == [0, 4, 8, 12, 16])
    }

    @Test func numbersPrintWithoutLocaleAndFixedPrecision() {
        #expect(NumberFormat.fixed(1.0) == "1")
        #expect(NumberFormat.fixed(0.1234567) == "0.123457")
        #expect(NumberFormat.fixed(-0.0000001) == "0.000000")
        #expect(NumberFormat.fixed(-2.5, digits: 2) == "-2.50")
        #expect(NumberFormat.fixed(.nan) == "NaN")
        #expect(StableHash.hex(255) == "00000000000000ff")
    }

    @Test func studentTIntervals() {
        let s = SampleSummary([1, 2, 3, 4])
        #expect(s.mean == 2.5)
        #expect(abs(s.ci95HalfWidth - 3.182446305 * s.stddev / 2) < 1e-9)
        #expect(SampleSummary([5]).ci95HalfWidth.isNaN)
        #expect(SampleSummary([.nan, 2, 4]).n == 2 && SampleSummary([.nan, 2, 4]).mean == 3)
    }

    @Test func grouperEngineRunsTheSmokeScenarioEndToEnd() throws {
        let s = try ScenarioLoader.load(BuiltinScenarios.source(named: "smoke")!)
        let plan = RunPlan(s)
        let a = try ParallelRunner.execute(plan.runs, executor: GrouperExecutor(), jobs: 2)
        let b = try ParallelRunner.execute(plan.runs, executor: GrouperExecutor(), jobs: 1)
        #expect(a == b)
        let m = s.base.metrics
        for r in a {
            #expect(r.failedCheckers.isEmpty, "\(r.failedCheckers)")
            #expect(r.metrics[m.firstIndex(of: "converged")!] == 1)
            #expect(r.metrics[m.firstIndex(of: "messages_uploaded")!] > 5)
            // Two receivers rebuild every upload of the other two devices (and confirms).
            #expect(r.metrics[m.firstIndex(of: "messages_rebuilt")!] >= r.metrics[m.firstIndex(of: "messages_uploaded")!])
            #expect(r.metrics[m.firstIndex(of: "upload_time")!] > 0)
        }
        #expect(Set(a.map(\.fingerprint)).count == a.count, "replications must differ")
    }
}
