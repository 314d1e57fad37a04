import Foundation
import Testing
@testable import Scenarios

/// A results folder keeps timeline pages of its first failing runs, and index.html links them.
@Suite struct TimelineFolderTests {
    @Test func indexLinksTheTimelinesOfTheFirstFailingRuns() throws {
        let dir = ScenarioFixtures.tempDir("timeline-folder")
        // Every replication fails convergence the same way (a fixed schedule): four failing runs.
        let text = DeviceNumberingTests.lost.replacingOccurrences(of: "\"name\": \"numbering\",", with: "\"name\": \"numbering\", \"replications\": 4,")
        let file = try ShrinkTests.write(text, dir, "lost.json")
        let out = dir.appendingPathComponent("res").path
        let r = runCLI(["run", file, "--out", out, "--progress", "never"])
        #expect(r.code == 4, "\(r.err)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasPrefix("timeline-") }.sorted()
        #expect(names == (0..<ResultSet.timelineLimit).map { ResultSet.timelineFileName(point: 0, replication: $0) })
        let index = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        for n in names { #expect(index.contains("(<a href=\"\(n)\">timeline</a>)"), "\(n)") }
        #expect(!index.contains("timeline-p0-r3.html"))
        let manifest = try String(contentsOfFile: out + "/manifest.json", encoding: .utf8)
        #expect(manifest.contains("\"timeline-p0-r0.html\""))
        // The page is the one `grouper-sim timeline` draws for that run: its finding included.
        let page = try String(contentsOfFile: out + "/timeline-p0-r1.html", encoding: .utf8)
        #expect(page.contains(TimelinePage.marker) && page.contains("D5 lacks update of o1 by D4"))
        #expect(page.contains("grouper-sim timeline lost.json --seed "))
        // A passing run keeps none.
        let ok = dir.appendingPathComponent("ok").path
        #expect(runCLI(["run", "smoke", "--out", ok, "--progress", "never", "--replications", "1"]).code == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: ok).filter { $0.hasPrefix("timeline-") }.isEmpty)
    }
}
