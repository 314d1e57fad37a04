import Foundation
import Testing
import SimKernel
import GrouperModel
@testable import Scenarios
@testable import ScenarioFile
@testable import Plan
@testable import GrouperBinding
@testable import Timelines
@testable import Explore
@testable import GrouperSimCLI

/// Every run `explore` makes of a case stops at the case's event budget: the first run, the
/// folder comparison's `grouper-sim run` with two replications, the finding's timeline page and
/// the shrink's candidates. A case that loops is a `runs` finding, never a search that hangs.
@Suite struct ExploreBudgetTests {
    static let text = """
        {"format": 1, "name": "b", "duration": "3h", "group": {"devices": 3, "k": 2, "n": 3, "s": 3, "ttl": "1h"},
         "workload": {"update": {"every": "5min"}}}
        """

    static func spec() throws -> ScenarioSpec {
        try ScenarioLoader.load(ScenarioSource(label: "b.json", text: text)).base
    }

    /// The events replication `replication` of the scenario takes to its end.
    static func events(replication: Int) throws -> UInt64 {
        let spec = try spec()
        let run = ResolvedRun(index: 0, point: 0, replication: replication, seed: RunPlan.runSeed(scenarioSeed: spec.seed, replication: replication),
                              spec: spec, assignments: [])
        return UInt64(try GrouperExecutor().execute(run).metrics.first { $0.name == "events" }!.value)
    }

    @Test func aBudgetedExecutorKeepsTheSmallerBudget() throws {
        let spec = try Self.spec()
        let e = try Self.events(replication: 0)
        var run = ResolvedRun(index: 0, point: 0, replication: 0, seed: RunPlan.runSeed(scenarioSeed: spec.seed, replication: 0),
                              spec: spec, assignments: [])
        #expect(throws: Never.self) { _ = try BudgetedExecutor(base: GrouperExecutor(), budget: e).execute(run) }
        #expect(throws: EventBudgetExceeded.self) { _ = try BudgetedExecutor(base: GrouperExecutor(), budget: e - 1).execute(run) }
        // A run that has a smaller budget of its own keeps it.
        run.eventBudget = e - 1
        #expect(throws: EventBudgetExceeded.self) { _ = try BudgetedExecutor(base: GrouperExecutor(), budget: e).execute(run) }
    }

    @Test func theFolderComparisonStopsAtTheCaseBudget() throws {
        let enough = max(try Self.events(replication: 0), try Self.events(replication: 1))
        var c = ExploreCase(index: 12, text: Self.text, status: .ran)
        c.budget = enough
        #expect(ExploreCommand.folderDifference(c) == nil)
        c.budget = enough - 1
        let d = try #require(ExploreCommand.folderDifference(c))
        #expect(d.contains("stopped at its budget of \(enough - 1) events"), "\(d)")
    }

    @Test func aCaseThatRanPastItsBudgetIsNotComparedAgain() {
        var c = ExploreCase(index: 12, text: Self.text, status: .ran)
        #expect(ExploreCommand.comparesFolders(c))
        c.findings = [ExploreFinding(oracle: .runs, message: "stopped at its budget", checker: nil)]
        #expect(!ExploreCommand.comparesFolders(c))
        c.findings = [ExploreFinding(oracle: .metrics, message: "x", checker: nil)]
        #expect(ExploreCommand.comparesFolders(c))
        c.index = 13
        #expect(!ExploreCommand.comparesFolders(c))
        c.index = 12
        c.status = .tooBig(1e9)
        #expect(!ExploreCommand.comparesFolders(c))
    }

    @Test func theTimelineRecordingStopsAtItsBudget() throws {
        let spec = try Self.spec()
        let e = try Self.events(replication: 0)
        _ = try TimelineRun.record(spec, point: 0, replication: 0, eventBudget: e)
        #expect(throws: EventBudgetExceeded.self) { _ = try TimelineRun.record(spec, point: 0, replication: 0, eventBudget: e - 1) }
    }

    @Test func exploreFromACaseStartsThere() throws {
        var o = try ExploreCommand.Options.parse(["--from", "2", "--cases", "3"])
        #expect(o.caseRange == 2..<5)
        o = try ExploreCommand.Options.parse(["--from", "7"])
        #expect(o.caseRange == 7..<107)
        o = try ExploreCommand.Options.parse(["--seconds", "5"])
        #expect(o.caseRange.lowerBound == 0 && o.caseRange.upperBound == Int.max)
        let dir = ScenarioFixtures.tempDir("explore-from")
        let one = dir.appendingPathComponent("one").path
        let b = runCLI(["explore", "--from", "2", "--cases", "1", "--seed", "5", "--jobs", "1", "--no-shrink", "--out", one])
        #expect([0, 1].contains(b.code), "\(b.err)")
        let summary = try String(contentsOfFile: one + "/explore.json", encoding: .utf8)
        #expect(summary.contains("\"from\": 2") && summary.contains("\"cases\": 1"), "\(summary)")
        #expect(b.err.contains("1 cases from case 2"), "\(b.err)")
        let bad = runCLI(["explore", "--from", "-1"])
        #expect(bad.code == 2 && bad.err.contains("--from"), "\(bad.err)")
    }
}
