import Foundation
import Testing
import SimKernel
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

/// Numbers and words in reports: a fixed number of significant digits with integers bare,
/// sub-second times in ms, counts with their noun in the right number, no doubled prefixes.
@Suite struct ReportWordingTests {
    @Test func significantDigitsWithIntegersBare() {
        let cases: [(Double, String)] = [(1548.00001, "1548"), (213, "213"), (65.354, "65.35"), (0.00012346, "0.0001235"),
                                         (9.99996, "10.00"), (12345.6, "12346"), (-0.5, "-0.5000"), (0, "0"), (0.1, "0.1000")]
        for (v, text) in cases { #expect(NumberFormat.significant(v) == text, "\(v)") }
        #expect(NumberFormat.significant(.nan) == "NaN")
        #expect(SampleSummary([200, 226], range: .nonNegative).cell() == "213 ± 165")
        #expect(SampleSummary([1548.00001, 1548.00001]).cell() == "1548 ± 0")
        #expect(SampleSummary([1], range: .binary).cell() == "1 of 1 run")
        // The half-width ends at the mean's last decimal; one that rounds to 0 there but is not
        // 0 says it is under that place; an exact 0 stays 0.
        let pm: [((Double, Double), String)] = [((32.6512, 0.5678), "32.65 ± 0.57"), ((32.6512, 0.005), "32.65 ± 0.01"),
                                                ((32.6512, 0.0049), "32.65 ± <0.01"), ((48.55, 0), "48.55 ± 0"),
                                                ((213, 65.35), "213 ± 65"), ((213, 0.4), "213 ± <1"), ((0.1462, 0.0005737), "0.1462 ± 0.0006"),
                                                ((9.99996, 0.123), "10.00 ± 0.12"), ((1548.00001, 2.5), "1548 ± 3")]
        for ((m, h), text) in pm { #expect(NumberFormat.plusMinus(m, h) == text, "\(m) ± \(h)") }
        #expect(SampleSummary([1, 0], range: .binary).cell() == "1 of 2 runs")
    }

    /// upload_time: 0.1234 s at point 0 and `second` s at point 1, the same in every replication
    /// but for a small spread.
    struct TimeExecutor: RunExecutor {
        var second: Double
        func execute(_ run: ResolvedRun) throws -> RunOutcome {
            let base = run.point == 0 ? 0.1234 : second
            return RunOutcome(metrics: [("upload_time", base + 0.0001 * Double(run.replication)), ("lost_messages", 3)],
                              checkers: [], fingerprint: RunFingerprint(value: UInt64(run.index)))
        }
    }

    static func result(second: Double) throws -> ResultSet {
        let text = """
        {"format": 1, "name": "times", "replications": 2, "duration": "1h", "group": {"devices": 2, "k": 1, "n": 2, "s": 2},
         "sweep": [{"path": "group.n", "values": [2, 3]}], "metrics": ["upload_time", "lost_messages"]}
        """
        let s = try ScenarioLoader.load(ScenarioSource(label: "times.json", text: text))
        return ResultSet(scenario: s, records: try ParallelRunner.execute(RunPlan(s).runs, executor: TimeExecutor(second: second), jobs: 1))
    }

    @Test func subSecondTimesAreShownInMilliseconds() throws {
        // Every mean below 1 s: the column is in ms. Just below the boundary…
        let ms = try Self.result(second: 0.9998).summaryMarkdown
        #expect(ms.contains("| upload_time (ms) |") && ms.contains("| 123.5 ± 0.6 |"), "\(ms)")
        #expect(ms.contains("| 3 ± 0 |") || ms.contains("| 3 |"), "integers bare: \(ms)")
        // …and at it: a mean of 1 s keeps the column in s.
        let s = try Self.result(second: 0.99995).summaryMarkdown
        #expect(s.contains("| upload_time (s) |") && s.contains("| 0.1235 ± 0.0006 |"), "\(s)")
        // summary.csv stays in seconds with fixed decimals, for programs.
        let csv = try Self.result(second: 0.9998).summaryCSV
        #expect(csv.contains(",upload_time,s,2,0.123450,"), "\(csv)")
        let html = try #require(try Self.result(second: 0.5).files.first { $0.name == "index.html" }).contents
        #expect(html.contains("<th>upload_time (ms)</th>"))
    }

    @Test func countsHaveTheirNounInTheRightNumber() throws {
        #expect(Wording.count(1, "server") == "1 server" && Wording.count(0, "server") == "0 servers" && Wording.count(2, "server") == "2 servers")
        let text = """
        {"format": 1, "name": "one", "duration": "1h", "group": {"devices": 1, "k": 1, "n": 1, "s": 1},
         "workload": {"writes": [{"device": 1, "at": "1min", "object": 0}]},
         "faults": [{"kind": "refuse", "servers": [1], "window": {"start": "10min", "end": "20min"}}]}
        """
        let spec = try ScenarioLoader.load(ScenarioSource(label: "one.json", text: text)).base
        let size = ScenarioShrinker.size(spec)
        #expect(size.hasPrefix("1 device, 1 server f(1,1,1), 1 write, 0 offline windows, 1 fault, 0 invitations"), "\(size)")
    }

    @Test func noDoubledCommandNameAndNoAboutAtMost() throws {
        let dir = ScenarioFixtures.tempDir("wording")
        let r = runCLI(["equations", "--write-scenario", dir.path + "/"])
        #expect(r.code == 2 && r.err.hasPrefix("error: equations --write-scenario") && !r.err.contains("equations: equations"), "\(r.err)")
        let file = dir.appendingPathComponent("p.json")
        try Data("""
        {"format": 1, "name": "p", "duration": "1h", "group": {"devices": 2, "k": 1, "n": 2, "s": 2},
         "workload": {"update": {"every": "10min"}}, "metrics": ["messages_uploaded"],
         "precision": {"metrics": ["messages_uploaded"], "relative_ci95": 0.1, "min_replications": 2, "max_replications": 8}}
        """.utf8).write(to: file)
        let v = runCLI(["validate", file.path])
        #expect(v.code == 0 && v.out.contains("up to about ") && !v.out.contains("about at most"), "\(v.out)")
    }
}
