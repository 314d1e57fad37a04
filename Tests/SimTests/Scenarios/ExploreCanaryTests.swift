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

/// Explore's canaries: with one fault planted in the model or a checker (`PlantedBug`), a short
/// search from a fixed seed finds it with the oracle meant to catch it, and shrinks the case to
/// a scenario of a few devices. The same cases with nothing planted find nothing (so the
/// finding is the planted fault's, not a fault of the model).
@Suite(.serialized, .tags(.slow)) struct ExploreCanaryTests {
    /// Small cases only: a debug build runs them ten times slower than a release build.
    static let maxEvents = 20_000.0

    /// The first case (of `limit`) with a finding of `oracle`.
    static func firstFinding(_ bug: PlantedBug?, profile: ExploreProfile, seed: UInt64, oracle: ExploreOracle,
                             limit: Int, maxEvents: Double) -> ExploreCase? {
        var explorer = Explorer(profile: profile, seed: seed)
        explorer.plantedBug = bug
        explorer.maxEvents = maxEvents
        for i in 0..<limit {
            let c = explorer.explore(case: i)
            if c.findings.contains(where: { $0.oracle == oracle }) {
                print("canary \(bug?.rawValue ?? "none"): case \(i) of \(profile.rawValue) seed \(seed): \(c.findings.first { $0.oracle == oracle }!.message.prefix(200))")
                return c
            }
        }
        return nil
    }

    static func check(_ bug: PlantedBug, profile: ExploreProfile, seed: UInt64, oracle: ExploreOracle, limit: Int,
                      maxEvents: Double = maxEvents) throws {
        guard let found = firstFinding(bug, profile: profile, seed: seed, oracle: oracle, limit: limit, maxEvents: maxEvents) else {
            Issue.record("\(bug.rawValue): no \(oracle.rawValue) finding in \(limit) cases of \(profile.rawValue) seed \(seed)")
            return
        }
        // The same case without the plant passes that oracle.
        var clean = Explorer(profile: profile, seed: seed)
        clean.maxEvents = maxEvents
        let control = clean.explore(case: found.index)
        #expect(!control.findings.contains { $0.oracle == oracle }, "case \(found.index) fails \(oracle) without the plant: \(control.findings)")

        var explorer = Explorer(profile: profile, seed: seed)
        explorer.plantedBug = bug
        explorer.maxEvents = maxEvents
        var mine = found
        mine.findings = found.findings.filter { $0.oracle == oracle }
        let shrunk = try #require(try explorer.shrink(mine, jobs: 2), "\(bug.rawValue): case \(found.index) did not shrink")
        // The shrink's runs keep the case's event budget: with a budget of one event none can run.
        #expect(mine.budget > 1)
        var starved = mine
        starved.budget = 1
        #expect((try? explorer.shrink(starved, jobs: 2)) == nil, "\(bug.rawValue): the shrink ran past the case's budget")
        #expect(shrunk.oracle == oracle)
        #expect(shrunk.spec.group.devices <= 4, "\(bug.rawValue): shrunk to \(ScenarioShrinker.size(shrunk.spec))")
        // The shrunk file reads back and still fails with the plant, and passes without it.
        let reread = try ScenarioLoader.load(ScenarioSource(label: "shrunk.json", text: shrunk.text)).base
        let oracleFn = explorer.shrinkOracle(mine.findings[0])
        func fails(_ e: GrouperExecutor) throws -> Bool {
            let o = try e.execute(ScenarioShrinker.resolved(reread, replication: 0))
            if let oracleFn { return !oracleFn(reread, o).isEmpty }
            return o.checkers.contains { !$0.passed && $0.name == mine.findings[0].checker?.rawValue }
        }
        #expect(try fails(GrouperExecutor(plantedBug: bug, audits: true)), "\(bug.rawValue): the shrunk file no longer fails")
        #expect(try !fails(GrouperExecutor(audits: true)), "\(bug.rawValue): the shrunk file fails without the plant")
    }

    @Test func aGapOffByOneIsALivenessFinding() throws {
        try Self.check(.gapOffByOne, profile: .thesis, seed: 1, oracle: .liveness, limit: 30)
    }

    @Test func noRecoveryPosingAsThesisIsALivenessFinding() throws {
        try Self.check(.noRecoveryAsThesis, profile: .thesis, seed: 1, oracle: .liveness, limit: 30)
    }

    @Test func aDuplicateReuploadIsAReuploadsFinding() throws {
        // Overlapping requests need a few devices and some churn: cases up to 40,000 events.
        try Self.check(.duplicateReupload, profile: .thesis, seed: 1, oracle: .reuploads, limit: 40, maxEvents: 40_000)
    }

    @Test func aCheckerThatIgnoresChunksIsAMetricsFinding() throws {
        try Self.check(.checkerIgnoresChunks, profile: .all, seed: 1, oracle: .metrics, limit: 100)
    }
}
