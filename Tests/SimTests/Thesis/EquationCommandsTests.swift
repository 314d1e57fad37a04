import Testing
import SimKernel
@testable import Scenarios

/// The equations' replications run on the binding's `GrouperRun` path, their schedule handed
/// over as driver commands: the list must say everything the order of scheduling said.
@Suite struct EquationCommandsTests {
    static func parameters(_ model: EquationAssumptions) -> EquationParameters {
        var p = EquationParameters()
        p.devices = 4; p.updatesPerDevice = 6; p.confirms = 1; p.offline = 2; p.offlineTime = .hours(12)
        p.model = model
        return p
    }

    static func commands(_ p: EquationParameters, windows: Int = 6) -> (EquationSchedule, [TimedCommand], Int64) {
        let end = Int64(windows) * p.ttl.nanoseconds
        let s = ThesisEquations.schedule(p, end: end, seed: 11)
        return (s, s.commands(p, end: end), end)
    }

    /// Every write is one update at its time, in write order per device; then the confirms.
    @Test(arguments: [EquationAssumptions.thesis, .protocol])
    func writesAndConfirmsComeFirst(_ model: EquationAssumptions) {
        let p = Self.parameters(model)
        let (s, cmds, _) = Self.commands(p)
        let updates = cmds.prefix { if case .update = $0.command { true } else { false } }
        #expect(updates.count == s.writes.joined().count && updates.count > 0)
        for d in 0..<p.devices { #expect(updates.filter { $0.device == d }.map(\.time.nanoseconds) == s.writes[d]) }
        let confirms = cmds.filter { $0.command == .confirm }
        #expect(confirms.count == s.confirms.joined().count)
        #expect(cmds.allSatisfy { $0.command != .confirm } || cmds.firstIndex { $0.command == .confirm }! == updates.count)
    }

    /// Every departure is scheduled before every return, so where a return falls on another
    /// device's departure (the rotating schedule makes them meet) the leaver goes first; the
    /// thesis model's resend answers come last, at returns, never to the writer itself.
    @Test(arguments: [EquationAssumptions.thesis, .protocol])
    func departuresBeforeReturnsAndAnswersLast(_ model: EquationAssumptions) throws {
        let p = Self.parameters(model)
        let (s, cmds, end) = Self.commands(p)
        let leaves = cmds.indices.filter { cmds[$0].command == .setOnline(false) }
        let returns = cmds.indices.filter { cmds[$0].command == .setOnline(true) }
        #expect(leaves.count == s.away.count && returns.count == s.away.filter { $0.end < end }.count)
        #expect(try #require(leaves.last) < (try #require(returns.first)))
        let times = Set(returns.map { cmds[$0].time })
        #expect(leaves.contains { times.contains(cmds[$0].time) } == (model == .thesis), "the rotating schedule meets")
        let answers = cmds.indices.compactMap { i -> (Int, TimedCommand)? in
            if case .answerResend = cmds[i].command { return (i, cmds[i]) } else { return nil }
        }
        #expect(answers.isEmpty == (model != .thesis))
        for (i, a) in answers {
            guard case .answerResend(let requester, _) = a.command else { continue }
            #expect(i > returns.last! && requester != a.device && times.contains(a.time))
        }
    }

    /// A replication is a plain `GrouperRun`: the same seed gives the same window counts.
    @Test func aReplicationIsDeterministic() throws {
        var p = Self.parameters(.thesis)
        p.ttl = .hours(2); p.offlineTime = .hours(1)
        let a = try ThesisEquations.simulate(p, seed: 3, warmUp: 2, measured: 2)
        let b = try ThesisEquations.simulate(p, seed: 3, warmUp: 2, measured: 2)
        #expect(a.windows == b.windows && a.windows.count == 2 && a.windows[0][0] > 0)
    }
}
