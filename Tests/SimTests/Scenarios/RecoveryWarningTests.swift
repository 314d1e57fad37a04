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
import GrouperModel
import SimKernel

/// Scenario settings under which recovery cannot work as meant (issue #26): refused, or warned
/// about, at their boundaries.
@Suite struct RecoveryWarningTests {
    static func load(group: String = #""devices": 3, "k": 2, "n": 3, "s": 3, "ttl": "1h""#, protocol p: String) throws -> LoadedScenario {
        try ScenarioLoader.load(ScenarioSource(label: "t.json", text: """
            {"format": 1, "name": "t", "duration": "1d", "group": {\(group)}, "protocol": {\(p)}}
            """))
    }

    /// check needs k + 1 shares: n = k is an error (it could never rebuild), n = k + 1 is not.
    @Test func checkWithKEqualToNIsRefused() throws {
        do {
            _ = try Self.load(group: #""devices": 3, "k": 3, "n": 3, "s": 3"#, protocol: #""rebuild": "check""#)
            Issue.record("check with k = n was accepted")
        } catch {
            #expect("\(error)".contains("protocol.rebuild") && "\(error)".contains("expected n ≥ k + 1"), "\(error)")
        }
        let ok = try Self.load(group: #""devices": 3, "k": 2, "n": 3, "s": 3"#, protocol: #""rebuild": "check""#)
        #expect(ok.warnings.isEmpty, "\(ok.warnings)")
    }

    /// check/correct with s = k warns; s = k + 1 does not; first-k with s = k does not.
    @Test func checkOrCorrectWithSEqualToKWarns() throws {
        for policy in ["check", "correct"] {
            let w = try Self.load(group: #""devices": 3, "k": 2, "n": 4, "s": 2"#, protocol: #""rebuild": "\#(policy)""#).warnings
            #expect(w.count == 1 && w[0].contains("protocol.rebuild: check/correct with s = k"), "\(w)")
            let fine = try Self.load(group: #""devices": 3, "k": 2, "n": 4, "s": 3"#, protocol: #""rebuild": "\#(policy)""#)
            #expect(fine.warnings.isEmpty, "\(fine.warnings)")
        }
        #expect(try Self.load(group: #""devices": 3, "k": 2, "n": 4, "s": 2"#, protocol: #""rebuild": "first-k""#).warnings.isEmpty)
    }

    /// Poll-only receivers: a poll period of exactly the TTL warns, one second less does not;
    /// push-and-poll never does (the re-upload's notification triggers a receive).
    @Test func pollOnlyReceiversAtTheTTLWarn() throws {
        let at = try Self.load(protocol: #""receive": {"policy": "poll", "poll_period": "1h"}"#).warnings
        #expect(at.count == 1 && at[0].contains("poll-only receivers with poll_period ≥ group.ttl"), "\(at)")
        #expect(try Self.load(protocol: #""receive": {"policy": "poll", "poll_period": "3599s"}"#).warnings.isEmpty)
        #expect(try Self.load(protocol: #""receive": {"policy": "push-and-poll", "poll_period": "2h"}"#).warnings.isEmpty)
        #expect(try Self.load(protocol: #""variant": "no-recovery", "receive": {"policy": "poll", "poll_period": "2h"}"#).warnings.isEmpty)
    }
}
