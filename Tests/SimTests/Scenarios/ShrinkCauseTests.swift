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
@testable import Experiments
@testable import Explore
@testable import Shrink

/// `shrink` keeps the cause of a failure: the settle period is never cut, no cut moves a
/// window's end to the end of the run, and `--control VARIANT` keeps only scenarios the
/// control variant passes.
@Suite struct ShrinkCauseTests {
    static func spec(_ text: String) throws -> ScenarioSpec {
        try ScenarioLoader.load(ScenarioSource(label: "s.json", text: text)).base
    }

    static let windows = """
    {"format": 1, "name": "w", "duration": "10h",
     "group": {"devices": 3, "k": 1, "n": 2, "s": 1},
     "churn": {"windows": [{"device": 2, "start": "1h", "end": "5h"}, {"device": 3, "start": "2h", "end": "10h"}]},
     "faults": [{"kind": "refuse", "servers": [1], "window": {"start": "1h", "end": "4h"}},
                {"kind": "blackhole", "servers": [2], "window": {"start": "30min"}}]}
    """

    @Test func aCutNeverMovesAWindowsEndToTheEndOfTheRun() throws {
        let s = try Self.spec(Self.windows)
        // Inside device 2's window [1h, 5h): its end would become the run's end (3h).
        #expect(s.cut(active: .hours(3)) == nil)
        // Inside server 1's refusal [1h, 4h) only (device 2's window ends before 4.5h).
        #expect(s.cut(active: .minutes(210)) == nil)
        // At the window's end exactly, nothing moves: the window is kept as it was.
        let atEnd = try #require(s.cut(active: .hours(5)))
        #expect(atEnd.churn.windows.map(\.end) == [.hours(5), .hours(5)])
        // A window that lasted to the end of the run (device 3) ends with the shorter run, and
        // a fault window with no end keeps none.
        #expect(atEnd.churn.windows[1].start == .hours(2))
        if case .window(_, _, let end) = atEnd.faults[1].kind { #expect(end == nil) } else { Issue.record("fault 2 changed kind") }
        // Before every window starts: all of them dropped but the open-ended blackhole.
        let early = try #require(s.cut(active: .minutes(40)))
        #expect(early.churn.windows.isEmpty && early.faults.count == 1)
    }

    /// The no-recovery canary fails convergence with any settle; the shrunk file keeps the
    /// original's 12 h.
    @Test(.tags(.slow)) func theSettlePeriodIsNeverShrunk() throws {
        let dir = ScenarioFixtures.tempDir("shrink-settle")
        let file = dir.appendingPathComponent("canary.json").path
        try ShrinkTests.canary.write(toFile: file, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("small.json").path
        let r = runCLI(["shrink", file, "--point", "0", "--replication", "0", "--checker", "convergence", "--out", out, "--jobs", "2"])
        #expect(r.code == 0, "\(r.err)")
        let small = try ScenarioLoader.load(ScenarioSource.read(path: out)).base
        #expect(small.settle == .hours(12))
        #expect(small.duration > small.settle)
    }

    /// The canary fails with no-recovery and passes with the thesis variant: with
    /// `--control thesis` the shrunk file still does both.
    @Test(.tags(.slow)) func aControlVariantKeepsTheDifference() throws {
        let dir = ScenarioFixtures.tempDir("shrink-control")
        let file = dir.appendingPathComponent("canary.json").path
        try ShrinkTests.canary.write(toFile: file, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("small.json").path
        let r = runCLI(["shrink", file, "--point", "0", "--replication", "0", "--checker", "convergence",
                        "--control", "thesis", "--out", out, "--jobs", "2"])
        #expect(r.code == 0, "\(r.err)")
        let small = try ScenarioLoader.load(ScenarioSource.read(path: out)).base
        #expect(small.description.contains("the thesis variant passes it"))
        let seed = RunPlan.runSeed(scenarioSeed: small.seed, replication: 0)
        func verdict(_ v: ProtocolVariant) throws -> Bool {
            var s = small
            s.protocolSpec.variant = v
            let run = ResolvedRun(index: 0, point: 0, replication: 0, seed: seed, spec: s, assignments: [])
            return try GrouperExecutor().execute(run).checkers.first { $0.name == "convergence" }!.passed
        }
        #expect(try verdict(.noRecovery) == false)
        #expect(try verdict(.thesis) == true)
    }

    /// A device away until the run's end fails every variant: nothing to keep, exit 2.
    @Test func aFailureTheControlSharesIsRefused() throws {
        let dir = ScenarioFixtures.tempDir("shrink-control-both")
        let text = """
        {"format": 1, "name": "away", "duration": "6h",
         "group": {"devices": 3, "k": 2, "n": 3, "s": 3, "ttl": "2h"},
         "protocol": {"variant": "no-recovery"},
         "workload": {"writes": [{"device": 1, "at": "2h", "object": 0, "size": 100}]},
         "churn": {"windows": [{"device": 3, "start": "1h", "end": "6h"}]}}
        """
        let file = dir.appendingPathComponent("away.json").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("small.json").path
        let r = runCLI(["shrink", file, "--point", "0", "--replication", "0", "--checker", "convergence",
                        "--control", "thesis", "--out", out])
        #expect(r.code == 2 && r.err.contains("with --control thesis too") && r.err.contains("nothing written"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let same = runCLI(["shrink", file, "--point", "0", "--replication", "0", "--control", "no-recovery", "--out", out])
        #expect(same.code == 2 && same.err.contains("already runs"), "\(same.err)")
        let typo = runCLI(["shrink", file, "--point", "0", "--replication", "0", "--control", "thesys", "--out", out])
        #expect(typo.code == 2 && typo.err.contains("did you mean 'thesis'"), "\(typo.err)")
    }
}
