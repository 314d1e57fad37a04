import Foundation
import Testing
import SimKernel
@testable import Scenarios
@testable import Format
@testable import ScenarioFile
@testable import Plan
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Shrink
@testable import Experiments
@testable import Explore
@testable import Reports

/// The thesis-style transfer figure (upload and download side by side, bars stacked into
/// data sync, secret sharing and network) and each results folder's index.html.
@Suite struct TransferFigureTests {
    /// `rsvg-convert` on the PATH (Debian package librsvg2-bin), if any.
    static let rsvg: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        .map { "\($0)/rsvg-convert" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    /// Set by .ci/run: the figure check must run there, not be skipped.
    static let required = ProcessInfo.processInfo.environment["GROUPER_SIM_REQUIRE_RSVG"] == "1"

    static func fig61() throws -> ResultSet {
        let text = ThesisScenarios.all.first { $0.name == "thesis-fig6-1" }!.text
        return try Reproduction.run(name: "thesis-fig6-1", text: text, jobs: 2)
    }

    /// summary.csv's mean per (point, metric), read from the file text.
    static func means(_ csv: String) -> [String: Double] {
        let rows = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let h = rows[0]
        let (p, m, mean) = (h.firstIndex(of: "point")!, h.firstIndex(of: "metric")!, h.firstIndex(of: "mean")!)
        var out: [String: Double] = [:]
        for r in rows.dropFirst() { out["\(r[p])/\(r[m])"] = Double(r[mean]) }
        return out
    }

    @Test(.enabled(if: rsvg != nil || required,
                   "rsvg-convert is not installed (Debian: apt-get install librsvg2-bin); .ci/run installs it and sets GROUPER_SIM_REQUIRE_RSVG=1"))
    func renderedBarsHaveTheHeightsOfTheSummaryNumbers() throws {
        let rsvg = try #require(Self.rsvg, "GROUPER_SIM_REQUIRE_RSVG=1 but rsvg-convert is not on the PATH (apt-get install librsvg2-bin)")
        let result = try Self.fig61()
        let figure = try #require(result.transferFigure)
        let svg = try #require(result.files.first { $0.name == ResultSet.transferFigureFile }).contents
        let dir = ScenarioFixtures.tempDir("figure-png")
        let svgURL = dir.appendingPathComponent("f.svg"), pngURL = dir.appendingPathComponent("f.png")
        try svg.write(to: svgURL, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: rsvg)
        p.arguments = [svgURL.path, "-o", pngURL.path]
        try p.run(); p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        let png = try PNGImage(data: Array(Data(contentsOf: pngURL)))
        let l = figure.layout
        #expect(png.width == Int(l.width.rounded()) && png.height == Int(l.height))
        let means = Self.means(result.summaryCSV)
        let colors = StackedBarFigure.partColors.prefix(3).map(Self.rgb)
        var measured = 0
        for (panel, parts) in ResultSet.transferParts.enumerated() {
            for point in result.scenario.points.indices {
                // A column inside the bar, clear of the error bar's centre line and caps.
                let x = Int(l.barCenter(panel: panel, bar: point, of: result.scenario.points.count) - l.barWidth * 0.4)
                let rows = Int(l.top)...Int(l.bottom)  // the plot area (the legend's swatches are above it)
                let heights = colors.map { c in rows.filter { Self.near(png.rgb(x, $0), c) }.count }
                let expected = parts.metrics.map { l.pixels(means["\(point)/\($0)"]!) }
                for (h, e) in zip(heights, expected) {
                    #expect(abs(Double(h) - e) <= 2, "panel \(parts.direction), point \(point): \(heights) px vs \(expected)")
                }
                #expect(abs(Double(heights.reduce(0, +)) - expected.reduce(0, +)) <= 3)
                measured += 1
            }
        }
        #expect(measured == 22)
        // The scale is not vacuous: the tallest bar (download at N = 100) fills most of the axis.
        let tallest = l.pixels(ResultSet.transferParts[1].metrics.map { means["10/\($0)"]! }.reduce(0, +))
        #expect(tallest > 0.8 * (l.bottom - l.top))
    }

    static func rgb(_ hex: String) -> (r: Int, g: Int, b: Int) {
        let v = Int(hex.dropFirst(), radix: 16)!
        return (v >> 16, (v >> 8) & 255, v & 255)
    }
    static func near(_ a: (r: Int, g: Int, b: Int), _ b: (r: Int, g: Int, b: Int)) -> Bool {
        abs(a.r - b.r) <= 6 && abs(a.g - b.g) <= 6 && abs(a.b - b.b) <= 6
    }

    /// Upload parts 1, 2, 3 s plus the replication number on the network part; download NaN.
    struct PartsExecutor: RunExecutor {
        var vary: Bool
        func execute(_ run: ResolvedRun) throws -> RunOutcome {
            let net = 3 + (vary ? Double(run.replication) : 0)
            return RunOutcome(metrics: [("upload_sync_time", 1), ("upload_sharing_time", 2), ("upload_network_time", net),
                                        ("download_sync_time", .nan), ("download_sharing_time", .nan),
                                        ("download_network_time", .nan)], checkers: [], fingerprint: RunFingerprint(value: 1))
        }
    }

    static func parts(vary: Bool, metrics: [MetricName]? = nil) throws -> ResultSet {
        let names = metrics ?? ResultSet.transferParts.flatMap(\.metrics)
        let text = """
        {"format": 1, "name": "parts", "replications": 3, "duration": "1h", "group": {"devices": 2, "k": 1, "n": 2, "s": 2},
         "sweep": [{"path": "group.n", "values": [2, 3]}], "metrics": [\(names.map { "\"\($0)\"" }.joined(separator: ", "))]}
        """
        let s = try ScenarioLoader.load(ScenarioSource(label: "parts.json", text: text))
        return ResultSet(scenario: s, records: try ParallelRunner.execute(RunPlan(s).runs, executor: PartsExecutor(vary: vary), jobs: 1))
    }

    @Test func errorBarsOnlyWhereReplicationsVaryAndNoBarWithoutData() throws {
        let still = try #require(try Self.parts(vary: false).transferFigure).render()
        let varying = try #require(try Self.parts(vary: true).transferFigure).render()
        #expect(!still.contains("<g stroke=\"#000\"><line"))
        #expect(varying.components(separatedBy: "<g stroke=\"#000\"><line").count - 1 == 2)  // one per upload bar
        #expect(varying.components(separatedBy: "n/a").count - 1 == 2)  // the download bars
        // Totals 6 s and 1 + 2 + 3…5 s: the axis reaches past the interval's top.
        let fig = try #require(try Self.parts(vary: true).transferFigure)
        #expect(fig.panels[0].bars[0].total == 7 && fig.panels[0].bars[0].high > 7 && fig.layout.yMax >= fig.panels[0].bars[0].high)
    }

    /// The thesis figures name their x axis in words, and a spread too small to see draws no
    /// error bar.
    @Test func xTitleInWordsAndNoCapsWithoutVisibleSpread() throws {
        let text = ThesisScenarios.all.first { $0.name == "thesis-fig6-1" }!.text
        let s = try ScenarioLoader.load(ScenarioSource(label: "f.json", text: text))
        let fig = try #require(ResultSet(scenario: s, records: try ParallelRunner.execute(RunPlan(s).runs, executor: SyntheticExecutor(), jobs: 1)).transferFigure)
        #expect(fig.xTitle == "messages N", "\(fig.xTitle)")
        // Totals 6 s ± a nanosecond: no error bar; ± 0.5 s on a 0–7 axis: one.
        func bar(_ low: Double, _ high: Double) -> String {
            StackedBarFigure(title: "t", xTitle: "x", yTitle: "y", categories: ["a"], parts: ["p"],
                             panels: [.init(title: "up", bars: [.init(values: [6], low: low, high: high)])]).render()
        }
        #expect(!bar(6 - 1e-9, 6 + 1e-9).contains("<g stroke=\"#000\"><line"))
        #expect(bar(5.5, 6.5).contains("<g stroke=\"#000\"><line"))
    }

    @Test func onlyScenariosWithEveryPartGetTheFigure() throws {
        let without = try Self.parts(vary: false, metrics: ["upload_sync_time", "upload_sharing_time", "upload_network_time"])
        #expect(without.transferFigure == nil)
        #expect(!without.files.contains { $0.name == ResultSet.transferFigureFile })
        #expect(try Self.parts(vary: false).files.contains { $0.name == ResultSet.transferFigureFile })
    }

    @Test func indexHTMLShowsEverythingAndNeedsNoNetwork() throws {
        let result = try Self.parts(vary: true)
        let files = result.files
        let html = try #require(files.first { $0.name == "index.html" }).contents
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.hasSuffix("</html>\n"))
        for f in files where f.name.hasSuffix(".svg") { #expect(html.contains(f.contents), "\(f.name) inlined") }
        for m in result.spec.metrics { #expect(html.contains("<th>\(m) (s)</th>")) }
        #expect(html.contains(SVGPlot.escape(String(decoding: result.scenario.source.bytes, as: UTF8.self))))
        // Nothing to fetch: no scripts, styles, images or fonts from elsewhere. The only URL is
        // the SVG namespace, which is a name, not a request.
        for needle in ["<script", "<link", "<img", "src=", "url(", "@import", "https:"] { #expect(!html.contains(needle), "\(needle)") }
        #expect(html.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "").contains("http:") == false)
        // The summary table scrolls in its own box (a 17-column table does not widen the page),
        // and its cells do not break inside "mean ± half-width".
        #expect(html.contains("<div class=\"table\"><table>") && html.contains(".table{overflow-x:auto"))
        #expect(html.contains("td{white-space:nowrap}"))
        // Listed in the manifest and the same bytes every time.
        #expect(try #require(files.last).contents.contains("\"index.html\""))
        #expect(try Self.parts(vary: true).files.first { $0.name == "index.html" }!.contents == html)
    }

    /// Parts under the top one that reach less than a quarter of the y axis get a second row
    /// of panels on their own axis (the thesis's sync and sharing beside network); at a quarter
    /// exactly, none.
    @Test func smallPartsGetASecondRowOnTheirOwnScale() throws {
        func figure(_ values: [Double], low: Double = .nan, high: Double = .nan) -> StackedBarFigure {
            StackedBarFigure(title: "t", xTitle: "messages N", yTitle: "time (s)", categories: ["1"],
                             parts: ["data sync", "secret sharing", "network"],
                             panels: [.init(title: "upload", bars: [.init(values: values, low: low, high: high)])])
        }
        // Total 4 on a 0–4 axis: the parts under network reach 1, a quarter: one row.
        let quarter = figure([0.5, 0.5, 3])
        #expect(quarter.layout.yMax == 4 && !quarter.detailRow)
        #expect(!quarter.render().contains("own scale") && quarter.layout.height == 460)
        #expect(figure([0.5, 0.49, 3.01]).detailRow)
        // 1 and 2 ms under 1 s of network: invisible in the first row (under a pixel), drawn
        // on 0–3 ms in the second, 160 px tall: 53.33 and 106.67 px, ticked in 0.5 ms steps.
        let small = figure([0.001, 0.002, 1], low: 0.9, high: 1.1)
        #expect(small.detailRow && small.layout.height == 730)
        let svg = small.render()
        #expect(svg.contains("height=\"730\" viewBox=\"0 0 350 730\""))
        #expect(svg.contains(">upload without network (own scale)</text>"))
        #expect(svg.contains("height=\"53.33\" fill=\"\(StackedBarFigure.partColors[0])\""))
        #expect(svg.contains("height=\"106.67\" fill=\"\(StackedBarFigure.partColors[1])\""))
        #expect(svg.contains(">0.0030</text>") && svg.contains(">0.0005</text>"))
        // The network part is not in the second row, and its error bar is drawn once (the
        // interval is the whole stack's).
        #expect(svg.components(separatedBy: "fill=\"\(StackedBarFigure.partColors[2])\"").count - 1 == 2)  // bar + legend
        #expect(svg.components(separatedBy: "<g stroke=\"#000\"><line").count - 1 == 1)
        // Both rows carry the x title in words.
        #expect(svg.components(separatedBy: ">messages N</text>").count - 1 == 2)
    }
}
