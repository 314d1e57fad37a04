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

/// Sweep plots read as a person expects: durations in min / h / d, log axes for values over
/// many decades, legends that say what a line is, integer ticks on count axes, room between the
/// y axis and the first point, categorical x without lines, series without data marked.
@Suite struct PlotAxesTests {
    /// propagation_latency = x hours (x the run's point + 1), lost_messages 0 or 1 by
    /// replication, upload_time undefined, converged 1.
    struct HoursExecutor: RunExecutor {
        func execute(_ run: ResolvedRun) throws -> RunOutcome {
            RunOutcome(metrics: [("propagation_latency", 3600 * Double(run.point + 1)), ("lost_messages", Double(run.replication % 2)),
                                 ("upload_time", .nan), ("converged", 1)],
                       checkers: [], fingerprint: RunFingerprint(value: UInt64(run.index)))
        }
    }

    static func load(_ body: String) throws -> LoadedScenario {
        let text = """
        {"format": 1, "name": "axes", "replications": 2, "duration": "1d",
         "group": {"devices": 4, "k": 2, "n": 6, "s": 6},
         "faults": [{"kind": "refuse", "servers": [1], "window": {"start": "1h", "end": "2h"}}, {"kind": "keep", "servers": "5-6"}],
         \(body),
         "metrics": ["propagation_latency", "lost_messages", "upload_time", "converged"]}
        """
        return try ScenarioLoader.load(ScenarioSource(label: "axes.json", text: text))
    }

    static func plots(_ body: String) throws -> [String: SVGPlot] {
        let s = try load(body)
        let r = ResultSet(scenario: s, records: try ParallelRunner.execute(RunPlan(s).runs, executor: HoursExecutor(), jobs: 1))
        return Dictionary(uniqueKeysWithValues: r.plots.map { ($0.fileName, $0.plot) })
    }

    /// The text of every `<text>` element whose line also draws a tick at `y` (x ticks) or the
    /// labels right-aligned before the y axis (y ticks).
    static func xTickLabels(_ svg: String) -> [String] {
        svg.split(separator: "\n").filter { $0.hasPrefix("<line") && $0.contains("text-anchor=\"middle\">") && $0.contains("y2=\"385\"") }
            .map { String($0.split(separator: ">")[2].split(separator: "<")[0]) }
    }
    static func yTickLabels(_ svg: String) -> [String] {
        svg.split(separator: "\n").filter { $0.contains("stroke=\"#ddd\"/><text") }
            .map { String($0.split(separator: ">")[2].split(separator: "<")[0]) }
    }

    @Test func durationsAreTickedInHoursNotSeconds() throws {
        let p = try Self.plots(#""sweep": [{"path": "group.ttl", "values": ["1h", "6h", "1d"]}]"#)
        let lat = try #require(p["plot-propagation_latency.svg"]).render()
        let x = Self.xTickLabels(lat), y = Self.yTickLabels(lat)
        #expect(!x.isEmpty && x.allSatisfy { $0.hasSuffix(" h") }, "x ticks in hours: \(x)")
        #expect(x.contains("24 h") || x.contains("25 h") || x.contains("20 h"), "\(x)")
        #expect(!y.isEmpty && y.allSatisfy { $0.hasSuffix(" h") }, "latencies of hours in hours: \(y)")
        #expect(!lat.contains("(s)") && !lat.contains("86400"))
        #expect(lat.contains(">TTL</text>"), "x title names the parameter, not its JSON path")
        // Below two minutes seconds, below two hours minutes, below two days hours, then days.
        #expect(SVGPlot.DurationUnit.fitting(119) == .s && SVGPlot.DurationUnit.fitting(120) == .min)
        #expect(SVGPlot.DurationUnit.fitting(7199) == .min && SVGPlot.DurationUnit.fitting(7200) == .h)
        #expect(SVGPlot.DurationUnit.fitting(172_799) == .h && SVGPlot.DurationUnit.fitting(172_800) == .d)
    }

    @Test func valuesOverMoreThanTwoDecadesGetALogAxisUnlessForcedLinear() throws {
        let sweep = #""sweep": [{"path": "workload.object_size", "values": [10, 100, 100000]}]"#
        let auto = try #require(try Self.plots(sweep)["plot-lost_messages.svg"])
        #expect(auto.xIsLog)
        let svg = auto.render()
        #expect(Self.xTickLabels(svg) == ["10", "100", "1000", "10000", "100000"], "\(Self.xTickLabels(svg))")
        #expect(svg.contains(", log scale"))
        let linear = try #require(try Self.plots(#""plot": {"x_scale": "linear"}, "# + sweep)["plot-lost_messages.svg"])
        #expect(!linear.xIsLog && !linear.render().contains(", log scale"))
        // The boundary: a span of exactly 100 stays linear, just over it is log.
        func plot(_ xs: [Double]) -> SVGPlot {
            SVGPlot(title: "t", xTitle: "x", yTitle: "y", series: [.init(label: "a", points: xs.map { ($0, 1, .nan, .nan) })])
        }
        #expect(!plot([1, 100]).xIsLog && plot([1, 100.5]).xIsLog && !plot([0, 1000]).xIsLog)
        var forced = plot([2, 3])
        forced.xScale = .log
        #expect(forced.xIsLog && Self.xTickLabels(forced.render()) == ["1", "10"])
    }

    @Test func aLogAxisOnValuesThatCannotHaveOneIsAReaderError() throws {
        #expect(throws: ScenarioError.self) { try Self.load(#""plot": {"x_scale": "log"}, "sweep": [{"path": "protocol.variant", "values": ["thesis", "no-recovery"]}]"#) }
        do {
            _ = try Self.load(#""plot": {"x_scale": "log"}, "sweep": [{"path": "group.k", "values": [1, 2]}]"#)
            _ = try Self.load(#""plot": {"x_scale": "lin"}, "sweep": [{"path": "group.k", "values": [1, 2]}]"#)
            Issue.record("\"lin\" accepted")
        } catch let e as ScenarioError {
            let text = "\(e)"
            #expect(text.contains("plot.x_scale") && text.contains("\"linear\""), "\(text)")
        }
        do {
            _ = try Self.load(#""plot": {"x_scale": "log"}, "sweep": [{"path": "workload.update.burst", "values": [0, 10]}]"#)
            Issue.record("a log axis over 0 accepted")
        } catch let e as ScenarioError {
            #expect("\(e)".contains("plot.x_scale") && "\(e)".contains("positive"), "\(e)")
        }
    }

    @Test func legendsSayWhatALineIsAndCountsHaveIntegerTicks() throws {
        let p = try Self.plots(#""sweep": [{"path": "group.k", "values": [1, 2]}, {"path": "faults[1].servers", "values": ["all", "5-6"]}]"#)
        let lost = try #require(p["plot-lost_messages.svg"])
        #expect(lost.series.map(\.label) == ["the keep fault's servers = all", "the keep fault's servers = 5-6"])
        let svg = lost.render()
        #expect(svg.contains(">the keep fault&apos;s servers = all</text>") || svg.contains(">the keep fault's servers = all</text>"))
        #expect(!svg.contains("faults[1]"))
        // lost_messages means are 0.5: a count axis still has whole ticks only.
        let y = Self.yTickLabels(svg)
        #expect(y.count >= 2 && y.allSatisfy { !$0.contains(".") }, "\(y)")
        // Means below 1 message: ticks 0 and 1, not 0.1, 0.2 …; a fraction axis keeps its decimals.
        var small = SVGPlot(title: "t", xTitle: "x", yTitle: "y", series: [.init(label: "a", points: [(1, 0.2, .nan, .nan), (2, 0.4, .nan, .nan)])])
        var fraction = small
        ResultSet.fitAxes(&small, unit: "messages", xValues: [1, 2])
        ResultSet.fitAxes(&fraction, unit: "fraction", xValues: [1, 2])
        #expect(Self.yTickLabels(small.render()) == ["0", "1"], "\(Self.yTickLabels(small.render()))")
        #expect(Self.yTickLabels(fraction.render()).contains("0.2"))
        // The first x value is not on the y axis.
        let firstPoint = try #require(svg.split(separator: "\n").first { $0.hasPrefix("<circle") || $0.contains("<circle cx") })
        let cx = Double(firstPoint.components(separatedBy: "cx=\"")[1].split(separator: "\"")[0])!
        #expect(cx >= SVGPlot.left + 10, "padding before the first point: \(cx)")
    }

    @Test func categoricalXHasPointsWithoutLinesAndEqualSeriesStaySeparate() throws {
        let p = try Self.plots(#""sweep": [{"path": "protocol.variant", "values": ["thesis", "no-recovery"]}, {"path": "group.k", "values": [1, 2]}]"#)
        let conv = try #require(p["plot-converged.svg"]).render()
        #expect(!conv.contains("<polyline"), "no line joins categories")
        #expect(conv.contains(">protocol variant</text>"))
        // Both k lines are 1 at every variant: dodged, so both stay visible.
        let cxs = conv.components(separatedBy: "<circle cx=\"").dropFirst().map { Double($0.split(separator: "\"")[0])! }
            .filter { $0 < SVGPlot.left + SVGPlot.plotWidth }  // not the legend's markers
        #expect(cxs.count == 4 && Set(cxs).count == cxs.count, "\(cxs)")
        let numeric = try #require(try Self.plots(#""sweep": [{"path": "group.k", "values": [1, 2]}]"#)["plot-converged.svg"]).render()
        #expect(numeric.contains("<polyline"))
    }

    @Test func seriesWithoutDataAreMarkedInTheLegend() throws {
        let p = try Self.plots(#""sweep": [{"path": "group.k", "values": [1, 2]}, {"path": "protocol.variant", "values": ["thesis", "no-recovery"]}]"#)
        let up = try #require(p["plot-upload_time.svg"]).render()
        #expect(up.contains(">protocol variant = thesis (no data)</text>"), "\(up)")
        let conv = try #require(p["plot-converged.svg"]).render()
        #expect(!conv.contains("(no data)"))
    }
}
