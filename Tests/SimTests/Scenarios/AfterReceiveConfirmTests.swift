import Foundation
import Testing
@testable import Scenarios
@testable import Format
@testable import ScenarioFile
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Explore
@testable import Experiments
import GrouperModel

/// The as-built client's confirm policy `after-receive` (docs/scenarios.md): a confirm after a
/// successful receive, at most once per TTL. It used to be configured without its confirm
/// timer, which the model needs for the policy to act, so it never confirmed at all.
@Suite struct AfterReceiveConfirmTests {
    static let asBuilt = #"{"variant": "as-built", "confirm": {"policy": "after-receive", "on_reconnect": false}, "receive": {"policy": "poll", "poll_period": "15min"}}"#

    /// Device 1 writes (confirms name a sequence, so only a writer confirms) and polls every
    /// 15 min for 3 h with a 1 h TTL: at least one confirm, at most one per TTL.
    @Test func confirmsAfterReceivingAtMostOncePerTTL() throws {
        let r = try ScheduleScenarioTests.run("", protocol: Self.asBuilt)
        let confirms = ScheduleScenarioTests.metric(r, "confirms_uploaded")
        #expect(confirms >= 1 && confirms <= 3, "got \(confirms) confirms")
        let never = try ScheduleScenarioTests.run("", protocol: Self.asBuilt.replacingOccurrences(of: "after-receive", with: "never"))
        #expect(ScheduleScenarioTests.metric(never, "confirms_uploaded") == 0)
    }

    /// `equations --variant as-built` runs the published client: after-receive confirms and
    /// unsent messages retried only on launch; the other variants keep periodic confirms.
    @Test func equationsAsBuiltUsesTheDemoAppsPolicies() throws {
        var p = ScheduleScenarioTests.parameters(.protocol, offline: 0)
        func spec() throws -> ProtocolSpec {
            try ThesisEquations.scenario(p, ThesisEquations.schedule(p, end: 3 * p.ttl.nanoseconds, seed: 1),
                                         windows: 3, warmUp: 1).protocolSpec
        }
        p.variant = .asBuilt
        let built = try spec()
        #expect(built.confirm.mode == .afterReceive && built.unsentRetryPeriod == nil)
        p.variant = .thesis
        let thesis = try spec()
        #expect(thesis.confirm.mode == .periodic && thesis.unsentRetryPeriod != nil)
    }
}
