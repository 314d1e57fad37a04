import Testing
import SimKernel
@testable import GrouperModel

/// Algorithm 1 with the SPEC §4 decisions, on message values.
@Suite struct DeliveryStateTests {
    static func msg(_ type: MessageType, seq: Int, from s: String = "S", content: String = "", id: String? = nil)
        -> GrouperMessage {
        GrouperMessage(type: type, content: content, sequence: seq, objectClass: "R", objectID: "o", receiver: "*",
                       sender: s, email: "", name: "", sendTime: 0, messageID: id ?? "\(s)-\(type)-\(seq)-\(content)")
    }
    static let t0 = SimTime.zero
    static func handle(_ st: inout DeliveryState, _ m: GrouperMessage, at t: SimTime = t0,
                       variant: ProtocolVariant = .thesis) -> [DeliveryAction] {
        st.handle(m, now: t, variant: variant, asBuilt: AsBuiltSwitches(), resendRetry: .minutes(5), ownSequence: 0)
    }

    @Test func gapAsksForMissingRangeOnceUntilRetryTime() {
        var st = DeliveryState()
        _ = Self.handle(&st, Self.msg(.update, seq: 1))
        let m4 = Self.msg(.update, seq: 4)
        #expect(Self.handle(&st, m4) == [.askResend(sender: "S", range: 2...3), .apply(m4)])
        #expect(st.highestContiguous(from: "S") == 1)
        // A confirm of 4 within the retry time does not ask again for 2...3.
        #expect(Self.handle(&st, Self.msg(.confirm, seq: 0, content: "4")) == [.none])
        // After the retry time it does.
        let later = Self.t0 + .minutes(6)
        #expect(Self.handle(&st, Self.msg(.confirm, seq: 0, content: "4", id: "c2"), at: later)
            == [.askResend(sender: "S", range: 2...3)])
        _ = Self.handle(&st, Self.msg(.update, seq: 2))
        _ = Self.handle(&st, Self.msg(.update, seq: 3))
        #expect(st.highestContiguous(from: "S") == 4)
    }

    /// A gap of exactly one message asks for that one; the next in order asks nothing.
    @Test func aGapOfOneMessageIsAskedFor() {
        var st = DeliveryState()
        let m1 = Self.msg(.update, seq: 1), m3 = Self.msg(.update, seq: 3)
        #expect(Self.handle(&st, m1) == [.apply(m1)])
        #expect(Self.handle(&st, m3) == [.askResend(sender: "S", range: 2...2), .apply(m3)])
        let m4 = Self.msg(.update, seq: 4)
        #expect(Self.handle(&st, m4) == [.apply(m4)], "4 follows 3; 2 is still missing but was just asked for")
    }

    /// A range asked for is asked again exactly when `resendRetry` (5 min here) has passed,
    /// not a nanosecond before.
    @Test func aRangeIsAskedAgainExactlyAtTheRetryTime() {
        var st = DeliveryState()
        _ = Self.handle(&st, Self.msg(.update, seq: 1))
        #expect(Self.handle(&st, Self.msg(.confirm, seq: 0, content: "3", id: "c1")) == [.askResend(sender: "S", range: 2...3)])
        let justBefore = Self.t0 + .nanoseconds(5 * 60 * 1_000_000_000 - 1)
        #expect(Self.handle(&st, Self.msg(.confirm, seq: 0, content: "3", id: "c2"), at: justBefore) == [.none])
        #expect(Self.handle(&st, Self.msg(.confirm, seq: 0, content: "3", id: "c3"), at: Self.t0 + .minutes(5))
            == [.askResend(sender: "S", range: 2...3)])
    }

    @Test func duplicatesDroppedBySequenceAndControlByID() {
        var st = DeliveryState()
        let m1 = Self.msg(.update, seq: 1)
        #expect(Self.handle(&st, m1) == [.apply(m1)])
        var copy = m1
        copy.messageID = "another id, same (sender, seq)"
        #expect(Self.handle(&st, copy) == [.duplicate(copy)])
        let c = Self.msg(.confirm, seq: 0, content: "1")
        #expect(Self.handle(&st, c) == [.none])
        #expect(Self.handle(&st, c) == [.duplicate(c)])
    }

    @Test func confirmAsksFromContiguousMarkAndResendIsAnswered() {
        var st = DeliveryState()
        _ = Self.handle(&st, Self.msg(.update, seq: 1))
        _ = Self.handle(&st, Self.msg(.update, seq: 2))
        #expect(Self.handle(&st, Self.msg(.confirm, seq: 0, content: "5")) == [.askResend(sender: "S", range: 3...5)])
        #expect(Self.handle(&st, Self.msg(.confirm, seq: 0, content: "2", id: "c9")) == [.none])
        #expect(Self.handle(&st, Self.msg(.resend, seq: 0, from: "R", content: "3-5"))
            == [.answerResend(requester: "R", range: 3...5)])
        #expect(Self.handle(&st, Self.msg(.resend, seq: 0, from: "R", content: "5-3")) == [.none])
    }

    @Test func variantsDifferAsSpecified() {
        var basic = DeliveryState(), none = DeliveryState()
        let m3 = Self.msg(.update, seq: 3)
        #expect(Self.handle(&basic, m3, variant: .basicMulticast) == [.askResend(sender: "S", range: 1...2), .apply(m3)])
        #expect(Self.handle(&basic, Self.msg(.confirm, seq: 0, content: "9"), variant: .basicMulticast) == [.none])
        #expect(Self.handle(&none, m3, variant: .noRecovery) == [.apply(m3)])
        #expect(Self.handle(&none, Self.msg(.resend, seq: 0, content: "1-2"), variant: .noRecovery) == [.none])
        var built = DeliveryState()
        let m1 = Self.msg(.update, seq: 1)
        #expect(Self.handle(&built, m1, variant: .asBuilt) == [.apply(m1)])
        #expect(Self.handle(&built, m1, variant: .asBuilt) == [.apply(m1)])  // no duplicate check
    }
}
