import Testing
import SimKernel
@testable import Scenarios
@testable import Format
@testable import ScenarioFile
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Explore
@testable import Experiments

/// The equations' replications run as scenarios: their schedule becomes the scenario's
/// `workload.writes` (played first) and `schedule` (played after, in list order), and the list
/// must say everything the order of scheduling said.
@Suite struct EquationCommandsTests {
    static func parameters(_ model: EquationAssumptions) -> EquationParameters {
        var p = EquationParameters()
        p.devices = 4; p.updatesPerDevice = 6; p.confirms = 1; p.offline = 2; p.offlineTime = .hours(12)
        p.model = model
        return p
    }

    static func commands(_ p: EquationParameters, windows: Int = 6) -> (EquationSchedule, [ScheduledCommand], Int64) {
        let end = Int64(windows) * p.ttl.nanoseconds
        let s = ThesisEquations.schedule(p, end: end, seed: 11)
        return (s, s.commands(p, end: end), end)
    }

    /// Every write is one scenario write at its time, in write order per device, each device
    /// on its own objects; the schedule starts with the confirms.
    @Test(arguments: [EquationAssumptions.thesis, .protocol])
    func writesAndConfirmsComeFirst(_ model: EquationAssumptions) {
        let p = Self.parameters(model)
        let (s, cmds, _) = Self.commands(p)
        let writes = s.scenarioWrites()
        #expect(writes.count == s.writes.joined().count && writes.count > 0)
        for d in 0..<p.devices {
            let mine = writes.filter { $0.device == d + 1 }
            #expect(mine.map(\.at.nanoseconds) == s.writes[d])
            #expect(mine.allSatisfy { $0.object / 50 == d && $0.kind == .update })
        }
        let confirms = cmds.filter { $0.action == .confirm }
        #expect(confirms.count == s.confirms.joined().count)
        #expect(cmds.prefix(confirms.count).allSatisfy { $0.action == .confirm })
    }

    /// Every departure is scheduled before every return, so where a return falls on another
    /// device's departure (the rotating schedule makes them meet) the leaver goes first; the
    /// thesis model's resend answers come last, at returns, never to the writer itself.
    @Test(arguments: [EquationAssumptions.thesis, .protocol])
    func departuresBeforeReturnsAndAnswersLast(_ model: EquationAssumptions) throws {
        let p = Self.parameters(model)
        let (s, cmds, end) = Self.commands(p)
        let leaves = cmds.indices.filter { cmds[$0].action == .offline }
        let returns = cmds.indices.filter { cmds[$0].action == .online }
        #expect(leaves.count == s.away.count && returns.count == s.away.filter { $0.end < end }.count)
        #expect(try #require(leaves.last) < (try #require(returns.first)))
        let times = Set(returns.map { cmds[$0].at })
        #expect(leaves.contains { times.contains(cmds[$0].at) } == (model == .thesis), "the rotating schedule meets")
        var answers: [(Int, ScheduledCommand)] = []
        for i in cmds.indices { if case .resend = cmds[i].action { answers.append((i, cmds[i])) } }
        #expect(answers.isEmpty == (model != .thesis))
        for (i, a) in answers {
            guard case .resend(let requester, let first, let last) = a.action else { continue }
            #expect(i > returns.last! && requester != a.device && times.contains(a.at) && first <= last)
        }
    }

    /// A replication is a scenario run: the same seed gives the same window counts.
    @Test func aReplicationIsDeterministic() throws {
        var p = Self.parameters(.thesis)
        p.ttl = .hours(2); p.offlineTime = .hours(1)
        let a = try ThesisEquations.simulate(p, seed: 3, warmUp: 2, measured: 2)
        let b = try ThesisEquations.simulate(p, seed: 3, warmUp: 2, measured: 2)
        #expect(a.windows == b.windows && a.windows.count == 2 && a.windows[0][0] > 0)
    }
}
