import Foundation
import Testing
@testable import Scenarios
@testable import Format
@testable import ScenarioFile
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore
@testable import GrouperSimCLI

@Suite struct CLIRunTests {
    private func run(_ args: [String]) -> (code: Int32, out: String, err: String) { runCLI(args) }

    @Test func severalFilesGoToOneFolderEachAndRerunsReplaceCleanly() throws {
        let dir = ScenarioFixtures.tempDir("multi")
        let a = dir.appendingPathComponent("a.json"), b = dir.appendingPathComponent("b.json")
        try Data(ScenarioFixtures.sweepText.utf8).write(to: a)
        try Data(ScenarioFixtures.sweepText.replacingOccurrences(of: "\"det\"", with: "\"det2\"").utf8).write(to: b)
        let out = dir.appendingPathComponent("out")
        for _ in 0..<2 {
            let r = run(["run", a.path, b.path, "--engine", "synthetic", "--out", out.path, "--jobs", "2"])
            #expect(r.code == 0, "\(r.err)")
        }
        let entries = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(entries == ["det", "det2"], "no .tmp-/.old- folders may remain")
        #expect(FileManager.default.fileExists(atPath: out.path + "/det2/manifest.json"))
        let same = run(["run", a.path, a.path, "--engine", "synthetic", "--out", out.path])
        #expect(same.code == 2 && same.err.contains("two scenarios are named 'det'"))
    }

    @Test func progressBarShowsCountAndETAOnlyWhenEnabled() {
        let on = CapturedOutput(), off = CapturedOutput()
        let bar = ProgressBar(label: "x", enabled: true, io: on.io)
        bar.update(3, 3); bar.finish()
        ProgressBar(label: "x", enabled: false, io: off.io).update(3, 3)
        #expect(on.err.contains("x [##############################] 3/3 runs") && on.err.contains("ETA 0:00"))
        #expect(on.err.hasSuffix("\n"))
        #expect(off.err.isEmpty)
    }

    @Test func validateReportsRunCountsAndListShowsEverything() {
        let v = run(["validate", "churn-k-sweep"])
        #expect(v.code == 0 && v.out.hasPrefix("ok churn-k-sweep: churn-k-sweep, 6 point(s) × 5 replication(s) = 30 run(s), about "))
        let missing = run(["validate", "no/such.json"])
        #expect(missing.code == 2 && missing.err.contains("no/such.json: (top level): no such file"))
        let l = run(["list"])
        for word in ["smoke", "churn-k-sweep", "a5", "tomcat-mysql", "no-recovery", "csss257", "delivery_ratio"] {
            #expect(l.out.contains(word), "\(word)")
        }
    }
}
