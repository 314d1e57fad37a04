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
import SimKernel

/// The timeline page: its size on a large run, its bytes for the same run, and what a browser
/// shows of it (headless Chromium, Debian package `chromium`: .ci/run installs it and sets
/// GROUPER_SIM_REQUIRE_CHROMIUM=1, so there the test fails rather than skips without it).
@Suite struct TimelinePageTests {
    static let chromium: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        .flatMap { ["\($0)/chromium", "\($0)/chromium-browser"] }.first { FileManager.default.isExecutableFile(atPath: $0) }
    static let required = ProcessInfo.processInfo.environment["GROUPER_SIM_REQUIRE_CHROMIUM"] == "1"

    /// 3 devices over 3 servers for 2 hours, each writing every 25 s on average, with churn:
    /// about 8,000 requests and 2,500 shares, above the caps (a few seconds in a debug build).
    static let largeText = """
        {"format": 1, "name": "tl-large", "seed": 3, "duration": "2h", "settle": "20min",
         "group": {"devices": 3, "servers": 3, "k": 2, "n": 3, "s": 3, "ttl": "20min"},
         "workload": {"update": {"every": {"dist": "exponential", "mean": "25s"}}, "objects": 40},
         "churn": {"online": {"dist": "exponential", "mean": "40min"}, "offline": {"dist": "exponential", "mean": "10min"}},
         "metrics": ["messages_uploaded"], "require": []}
        """

    /// The documented bound (docs/timeline.md): at most 2 MB whatever the run, with the caps
    /// reached and said on the page.
    @Test func largeRunStaysUnderTheBound() throws {
        let r = try TimelineLayoutTests.record(Self.largeText)
        let o = TimelineOptions()
        #expect(r.arrows.count > 2 * o.maxArrows && r.spans.count > o.maxSpans)
        let t = TimelineLayout.layout(r, o)
        #expect(t.arrows.count == o.maxArrows && t.spans.count == o.maxSpans)
        #expect(t.notes.count >= 2 && !t.aggregates.isEmpty)
        let html = TimelinePage.html(t)
        #expect(html.utf8.count < TimelinePage.maxBytes, "\(html.utf8.count) bytes")
        #expect(html.contains("are not drawn one by one"))
    }

    /// The page is one file: no external script, style, image or font, no network; the same
    /// run gives the same bytes.
    @Test func selfContainedAndDeterministic() throws {
        let html = TimelinePage.html(TimelineLayout.layout(try TimelineLayoutTests.record(TimelineLayoutTests.lossText)))
        #expect(html == TimelinePage.html(TimelineLayout.layout(try TimelineLayoutTests.record(TimelineLayoutTests.lossText))))
        for bad in ["src=", "href=", "@import", "url(http", "fetch(", "XMLHttpRequest", "<link"] {
            #expect(!html.contains(bad), "\(bad)")
        }
        #expect(html.contains(TimelinePage.marker))
    }

    @Test(.enabled(if: chromium != nil || required,
                   "chromium is not installed (Debian: apt-get install chromium); .ci/run installs it and sets GROUPER_SIM_REQUIRE_CHROMIUM=1"))
    func browserShowsLanesArrowsBandsAndMarkers() throws {
        let chromium = try #require(Self.chromium, "GROUPER_SIM_REQUIRE_CHROMIUM=1 but chromium is not on the PATH (apt-get install chromium)")
        let r = try TimelineLayoutTests.record(TimelineLayoutTests.lossText)
        let dir = ScenarioFixtures.tempDir("timeline-browser")
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("t.html")
        try TimelinePage.html(TimelineLayout.layout(r)).write(to: page, atomically: true, encoding: .utf8)
        let dom = try Self.render(chromium, page, in: dir)
        for lane in ["D1", "D2", "S1"] { #expect(dom.contains("class=\"lane\" data-lane=\"\(lane)\""), "lane \(lane)") }
        #expect(Self.count("class=\"lane\"", in: dom) == 3)
        #expect(dom.contains("class=\"band band-offline\"") && dom.contains("class=\"band band-refusing\""))
        #expect(dom.contains("class=\"arrow req ep-put out-ok") && dom.contains("class=\"arrow req ep-put out-refused"))
        #expect(dom.contains("class=\"span"))
        #expect(dom.contains("class=\"marker finding"))
        #expect(dom.contains("D2 lacks update of o1 by D1"))   // the findings panel
    }

    static func count(_ s: String, in text: String) -> Int { text.components(separatedBy: s).count - 1 }

    /// The DOM after the page's script ran (`chromium --headless --dump-dom`).
    static func render(_ chromium: String, _ page: URL, in dir: URL, screenshot: URL? = nil) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: chromium)
        var args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                    "--user-data-dir=\(dir.appendingPathComponent("profile").path)", "--window-size=1400,900"]
        if let screenshot { args.append("--screenshot=\(screenshot.path)") } else { args.append("--dump-dom") }
        p.arguments = args + [page.absoluteString]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }
}
