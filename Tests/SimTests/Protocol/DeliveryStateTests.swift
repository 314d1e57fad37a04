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

    /// `resend_ranges` at its boundary: two holes from one writer with held messages between
    /// them — `.span` asks one range that covers the held ones, `.holes` asks the two holes (and
    /// the request's content names only them); one hole — both ask the same.
    @Test(arguments: [ResendRanges.span, .holes])
    func spanAsksOneRangeOverHeldMessagesHolesAsksEachHole(_ ranges: ResendRanges) {
        func run(_ seqs: [Int], confirm: Int) -> [DeliveryAction] {
            var st = DeliveryState()
            for q in seqs { _ = st.handle(Self.msg(.update, seq: q), now: Self.t0, variant: .thesis, asBuilt: AsBuiltSwitches(),
                                          resendRetry: .minutes(5), ownSequence: 0, ranges: ranges) }
            return st.handle(Self.msg(.confirm, seq: 0, content: String(confirm)), now: Self.t0 + .minutes(6), variant: .thesis,
                             asBuilt: AsBuiltSwitches(), resendRetry: .minutes(5), ownSequence: 0, ranges: ranges)
        }
        // Holds 1, 4, 5 and 8 of 1…9: holes 2…3, 6…7 and 9 (the confirm announces 9).
        let two = run([1, 4, 5, 8], confirm: 9)
        if ranges == .span {
            #expect(two == [.askResend(sender: "S", range: 2...9)])
        } else {
            #expect(two == [.askResend(sender: "S", range: 2...9, holes: [2...3, 6...7, 9...9])])
        }
        // One hole (2…3, nothing held above it): the same request either way.
        #expect(run([1], confirm: 3) == [.askResend(sender: "S", range: 2...3)])
        // A hole reaching the top: 4 held, 2…3 and 5…6 missing.
        let top = run([1, 4], confirm: 6)
        #expect(top == (ranges == .span ? [.askResend(sender: "S", range: 2...6)]
                                        : [.askResend(sender: "S", range: 2...6, holes: [2...3, 5...6])]))
        // The sender reads either content: "2-3,6-7" answers the two holes only.
        var sender = DeliveryState()
        #expect(Self.handle(&sender, Self.msg(.resend, seq: 0, from: "R", content: "2-3,6-7"))
            == [.answerResend(requester: "R", range: 2...7, holes: [2...3, 6...7])])
        #expect(DeliveryState.formatRanges(2...7, holes: [2...3, 6...7]) == "2-3,6-7")
        #expect(DeliveryState.formatRanges(2...7, holes: nil) == "2-7")
        for bad in ["2-3,3-4", "6-7,2-3", "2-3,", ",2-3", "2-3,x"] { #expect(DeliveryState.parseRanges(bad) == nil, "\(bad)") }
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
