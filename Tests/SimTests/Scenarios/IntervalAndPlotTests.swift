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

/// Intervals stay inside each metric's range, tables say "k of n runs" for 0/1 metrics, and
/// plots draw axes to match, zipped sweeps as lines, whole legends and integer ticks.
@Suite struct IntervalAndPlotTests {
    /// converged alternates 1, 0; delivery_ratio 1, 0.9; lost_messages 0, 30; upload_time NaN.
    struct SpreadExecutor: RunExecutor {
        func execute(_ run: ResolvedRun) throws -> RunOutcome {
            let even = run.replication % 2 == 0
            return RunOutcome(metrics: [("converged", even ? 1 : 0), ("delivery_ratio", even ? 1 : 0.9),
                                        ("lost_messages", even ? 0 : 30), ("upload_time", .nan)],
                              checkers: [], fingerprint: RunFingerprint(value: UInt64(run.index)))
        }
    }

    static func result(sweep: String, replications: Int = 2) throws -> ResultSet {
        let text = """
        {"format": 1, "name": "spread", "replications": \(replications), "duration": "1h",
         "group": {"devices": 8, "k": 2, "n": 6, "s": 6},
         "sweep": \(sweep),
         "metrics": ["converged", "delivery_ratio", "lost_messages", "upload_time"]}
        """
        let s = try ScenarioLoader.load(ScenarioSource(label: "spread.json", text: text))
        return ResultSet(scenario: s, records: try ParallelRunner.execute(RunPlan(s).runs, executor: SpreadExecutor(), jobs: 1))
    }

    @Test func intervalsStayInsideEachMetricsRange() throws {
        let binary = SampleSummary([1, 0], range: .binary)
        #expect(binary.successes == 1 && binary.method == .wilson && binary.low >= 0 && binary.high <= 1 && binary.low < 0.5)
        #expect(binary.cell() == "1 of 2 runs")
        let w = SampleSummary.wilson(0, of: 5)
        #expect(w.low == 0 && abs(w.high - 0.4345) < 1e-3, "Wilson 0/5 upper bound ≈ 0.4345: \(w)")
        let fraction = SampleSummary([1, 0.9], range: .fraction)
        #expect(fraction.high == 1 && fraction.method == .clipped && fraction.cell().hasPrefix("0.9500 ["))
        let count = SampleSummary([0, 30], range: .nonNegative)
        #expect(count.low == 0 && count.high > 30)
        let free = SampleSummary([0, 30])
        #expect(free.low < 0 && free.method == .studentT && free.cell().contains(" ± "))

        let r = try Self.result(sweep: #"[{"path": "group.k", "values": [1, 2]}]"#)
        let rows = r.summaryCSV.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        for row in rows where !row[8].isEmpty {
            let low = Double(row[8])!, high = Double(row[9])!
            #expect(low >= 0, "\(row)")
            if row[2] != "lost_messages" { #expect(high <= 1, "\(row)") }
        }
        #expect(r.summaryMarkdown.contains("| 1 of 2 runs |"))
        let plot = try #require(r.plots.first { $0.fileName == "plot-converged.svg" }).plot.render()
        #expect(!plot.contains(">-"), "no negative ticks on a 0/1 axis")
        #expect(plot.contains(">1</text>") && !plot.contains(">1.2</text>"))
    }

    @Test func zippedSweepsAreLinesInXOrder() throws {
        // A monotonic zip: one line against group.n, partners named.
        let zip = try Self.result(sweep: #"[{"zip": [{"path": "group.n", "values": [6, 3, 5]}, {"path": "group.s", "values": [6, 3, 5]}]}]"#)
        let p = try #require(zip.plots.first).plot
        #expect(p.series.count == 1 && p.xTitle == "servers n (zipped with servers per message s)")
        let svg = p.render()
        let line = try #require(svg.split(separator: "\n").first { $0.contains("<polyline") })
        let xs = line.split(separator: "\"")[5].split(separator: " ").map { Double($0.split(separator: ",")[0])! }
        #expect(xs == xs.sorted(), "points joined in x order, not sweep order: \(xs)")
        // A zip that repeats an x value: one line per partner value.
        let rep = try Self.result(sweep: #"[{"zip": [{"path": "group.n", "values": [4, 6, 4, 6]}, {"path": "group.s", "values": [3, 3, 4, 4]}]}]"#)
        let lines = try #require(rep.plots.first).plot.series
        #expect(lines.map(\.label) == ["servers per message s = 3", "servers per message s = 4"] && lines.allSatisfy { $0.points.count == 2 })
    }

    @Test func legendsFitIntegerTicksAndEmptyPlotsSaySo() throws {
        let r = try Self.result(sweep: #"[{"path": "group.k", "values": [1, 2]}, {"path": "protocol.variant", "values": ["thesis", "basic-multicast"]}]"#)
        let plots = Dictionary(uniqueKeysWithValues: r.plots.map { ($0.fileName, $0.plot) })
        let conv = try #require(plots["plot-converged.svg"])
        let label = "protocol variant = basic-multicast"
        #expect(conv.series.map(\.label).contains(label))
        #expect(conv.width >= SVGPlot.left + SVGPlot.plotWidth + 15 + 26 + 7 * Double(label.count), "legend text fits")
        let svg = conv.render()
        let xTicks = svg.split(separator: "\n").filter { $0.contains("y=\"399\"") }
        #expect(xTicks.count == 2, "k = 1, 2: ticks 1 and 2 only, not 1.2, 1.4 …")
        #expect(!xTicks.isEmpty && xTicks.allSatisfy { !$0.contains(".") || $0.contains("x=\"") && !$0.split(separator: ">")[2].contains(".") })
        #expect(SVGPlot.ticks(1, 7, integer: true).allSatisfy { $0 == $0.rounded() })
        let empty = try #require(plots["plot-upload_time.svg"]).render()
        #expect(empty.contains("no data: upload_time is undefined in every run"))
    }
}
