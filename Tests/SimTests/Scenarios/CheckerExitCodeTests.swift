import Foundation
import Testing
@testable import Scenarios
@testable import Format
@testable import Catalogs
@testable import ScenarioFile
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore
@testable import GrouperSimCLI

/// `run` exits 1 when a required safety checker failed and 4 when only required liveness
/// checkers did (issue #14), through the CLI on the real protocol model.
@Suite struct CheckerExitCodeTests {
    /// Three devices; device 1 writes; `extra` adds faults, churn, require.
    static func file(_ dir: URL, _ name: String, _ extra: String) throws -> String {
        let text = """
            {"format": 1, "name": "\(name)", "seed": 4, "duration": "6h",
             "group": {"devices": 3, "k": 2, "n": 3, "s": 3, "ttl": "1d"},
             "workload": {"writers": [1], "writes": [{"device": 1, "at": "10min", "object": 1, "size": 100},
                                                    {"device": 1, "at": "1h", "object": 2, "size": 100}]},
             \(extra)}
            """
        let path = dir.appendingPathComponent(name + ".json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let tamper = #""faults": [{"kind": "tamper", "servers": [1, 2], "fraction": 1}]"#
    static let away = #""churn": {"windows": [{"device": 3, "start": "5min", "end": "6h"}]}"#

    @Test func safetyGivesOneLivenessOnlyGivesFour() throws {
        let dir = ScenarioFixtures.tempDir("checker-exit-codes")
        let cases: [(name: String, extra: String, code: Int32, kind: String)] = [
            ("clean", #""require": ["no-phantom", "convergence"]"#, 0, ""),
            ("safety", Self.tamper + #", "require": ["no-phantom"]"#, 1, "no-phantom (safety)"),
            ("liveness", Self.away + #", "require": ["convergence", "no-phantom"]"#, 4, "convergence (liveness)"),
            ("both", Self.tamper + ", " + Self.away + #", "require": ["convergence", "no-phantom"]"#, 1, "no-phantom (safety)"),
        ]
        for c in cases {
            let r = runCLI(["run", try Self.file(dir, c.name, c.extra), "--out", dir.appendingPathComponent("out-" + c.name).path,
                            "--progress", "never"])
            #expect(r.code == c.code, "\(c.name): \(r.err)")
            if !c.kind.isEmpty { #expect(r.err.contains(c.kind) && r.err.contains("replay: grouper-sim run"), "\(c.name): \(r.err)") }
        }
        // Several files: a safety failure in any gives 1.
        let both = runCLI(["run", dir.appendingPathComponent("liveness.json").path, dir.appendingPathComponent("safety.json").path,
                           "--out", dir.appendingPathComponent("multi").path, "--progress", "never"])
        #expect(both.code == 1, "\(both.err)")
    }

    @Test func worseRanksSafetyOverLiveness() {
        let all: [ExitCode] = [.ok, .livenessFailed, .checkerFailed]
        for a in all { for b in all { #expect(a.worse(b) == all[max(all.firstIndex(of: a)!, all.firstIndex(of: b)!)]) } }
    }
}
