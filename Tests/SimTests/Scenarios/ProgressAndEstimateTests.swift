import Foundation
import Testing
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
@testable import GrouperSimCLI

/// `--progress`, and `validate`'s estimate of the events a scenario generates.
@Suite struct ProgressAndEstimateTests {
    @Test func progressLinesWithoutATerminalAndNothingWithNever() {
        let c = CapturedOutput()
        let lines = ProgressBar(label: "x", style: .lines, io: c.io, lineInterval: .seconds(3600))
        lines.begin(3)
        #expect(c.err == "x: 0/3 runs 0%  elapsed 0:00  ETA ?\n", "a line at once, before any run ends")
        lines.update(1, 3)
        #expect(c.err.split(separator: "\n").count == 1, "then at most one line per interval")
        lines.update(3, 3); lines.finish()
        #expect(c.err.hasSuffix("x: 3/3 runs 100%  elapsed 0:00  ETA 0:00\n") && !c.err.contains("\r"))
        #expect(ProgressBar.style(.auto, terminal: true) == .bar && ProgressBar.style(.auto, terminal: false) == .lines)
        #expect(ProgressBar.style(.always, terminal: false) == .bar && ProgressBar.style(.never, terminal: true) == .off)

        let dir = ScenarioFixtures.tempDir("progress")
        let auto = runCLI(["run", "smoke", "--engine", "synthetic", "--out", dir.path + "/a"])
        #expect(auto.code == 0 && auto.err.hasPrefix("smoke: 0/3 runs 0%") && auto.err.contains("smoke: 3/3 runs 100%"), "\(auto.err)")
        let never = runCLI(["run", "smoke", "--engine", "synthetic", "--out", dir.path + "/b", "--progress", "never"])
        #expect(never.code == 0 && never.err.isEmpty)
        let bad = runCLI(["run", "smoke", "--progress", "sometimes"])
        #expect(bad.code == 2 && bad.err.contains("--progress must be one of auto, always, never"))
    }

    @Test func validateEstimatesEventsWithinAFactorOfThree() throws {
        let v = runCLI(["validate", "smoke"])
        #expect(v.code == 0 && v.out.contains("events (rough estimate from the rates)"), "\(v.out)")
        let examples = try ScenarioFixtures.docExamples()
        let cases: [(String, ScenarioSource)] = [("smoke", BuiltinScenarios.source(named: "smoke")!),
                                                 ("ttl-series", BuiltinScenarios.source(named: "ttl-series")!),
                                                 ("thesis-fig6-1", BuiltinScenarios.source(named: "thesis-fig6-1")!)]
            + examples.enumerated().map { ("docs example \($0.offset)", ScenarioSource(label: "ex\($0.offset)", text: $0.element)) }
        var checked = 0
        for (name, source) in cases {
            let s = try ScenarioLoader.load(source)
            var run = RunPlan(s).runs[0]
            // The smaller runs only, to keep the test quick (the estimate decides which: a wild
            // underestimate would show up here too).
            guard run.spec.estimatedEvents < 30_000 else { continue }
            checked += 1
            run.spec.metrics = ["events"]
            let actual = try GrouperExecutor().execute(run).metrics.first { $0.name == "events" }!.value
            let estimate = run.spec.estimatedEvents
            #expect(estimate > actual / 3 && estimate < actual * 3, "\(name): estimated \(estimate), actual \(actual)")
        }
        #expect(checked >= 8)
    }
}
