import Testing
@testable import GrouperModel
import SimKernel

/// The device-side memos that reuse a slot's storage in place: a slot recorded again answers
/// for its new contents only.
@Suite struct DeviceMemoReuseTests {
    static func partial(_ shares: [[UInt8]], number: Int32, servers: [Int]) -> PartialMessage {
        var p = PartialMessage(servers: 4)
        for (s, j) in zip(shares, servers) {
            p.add(ShareDownload(shareID: j, messageID: "m\(number)", sender: "s", share: s, saveAt: .zero,
                                messageNumber: number), server: j)
        }
        return p
    }

    /// A rebuild memo slot recorded over and over (the same message with other share sets and
    /// other counts, then another message of the same slot) hits for exactly its latest record.
    @Test func aRebuildMemoSlotRecordedAgainAnswersForItsLatestRecordOnly() {
        let memo = RebuildMemo(), m = RebuildFastPathTests.message(.update, sender: "s", sequence: 1, sendTime: 0, id: "m")
        let other = 7 + Int32(RebuildMemo.slotCount)
        var rng = Xoshiro256StarStar(seed: 2020)
        var previous: (Int32, PartialMessage)?
        var expectedHits = 0, expectedMisses = 0
        for round in 0..<40 {
            let number: Int32 = round % 5 == 4 ? other : 7
            let count = 2 + Int(rng.next() % 3)
            let shares = (0..<count).map { j in [UInt8(j + 1), UInt8(truncatingIfNeeded: rng.next()), UInt8(round)] }
            let p = Self.partial(shares, number: number, servers: Array(0..<count))
            let o = RebuildMemo.Outcome(message: m, secretCount: round, work: SharingWork(bytesIn: round))
            memo.record(number, k: 2, shares: p.shares, o)
            let got = memo.outcome(number, k: 2, p)
            #expect(got?.secretCount == o.secretCount && got?.work == o.work && got?.message == m, "round \(round)")
            expectedHits += 1
            if let (n, old) = previous {
                #expect(memo.outcome(n, k: 2, old) == nil, "round \(round): the slot's earlier record")
                expectedMisses += 1
            }
            previous = (number, p)
        }
        #expect(memo.hits == expectedHits && memo.misses == expectedMisses)
    }

    /// A join memo slot joined again with other shares of its message (the same x, so the same
    /// slot: two secrets in turn) holds exactly the latest shares: each repeat of the latest
    /// set hits, each change misses.
    @Test func aJoinMemoSlotJoinedAgainHoldsItsLatestSharesOnly() throws {
        let scheme = SharingSchemeKind.gf256.makeScheme(), memo = JoinMemo()
        var rng = Xoshiro256StarStar(seed: 2021)
        let secrets = (0..<2).map { m in (0..<(24 + m)).map { _ in UInt8(truncatingIfNeeded: rng.next()) } }
        let shares = try secrets.map { try scheme.split($0, k: 2, n: 4, rng: &rng).shares }
        for round in 0..<6 {
            let given = Array(shares[round % 2][0..<2])
            let expected = try scheme.join(given, k: 2)
            for _ in 0..<2 {
                let got = try memo.join(given, k: 2, number: 5, scheme: scheme)
                #expect(got.secret == expected.secret && got.work == expected.work, "round \(round)")
            }
            #expect(memo.hits == round + 1 && memo.misses == round + 1, "round \(round): one join, one hit")
        }
    }

    /// A server's answer to a get taken in one access of the receive record
    /// (`ServerReceiveState.answered(by:)`) leaves the record and reports what the step by step
    /// reference does: asked ids seen (or, with nothing asked, the answer's ids), the ask
    /// forgotten, the asked ids the answer left out, whether the list had more.
    @Test func aGetAnswerTakenInOneAccessMatchesTheStepByStepReference() {
        var rng = Xoshiro256StarStar(seed: 2022)
        for _ in 0..<2000 {
            var state = ServerReceiveState()
            for _ in 0..<Int(rng.next() % 6) { state.seen.insert(Int(rng.next() % 40)) }
            let asked = (0..<40).filter { _ in rng.next() % 4 == 0 }
            state.asked = ShareIDs(asked)
            state.askedMore = rng.next() % 2 == 0
            let served = (asked.isEmpty ? Array(0..<40) : asked).filter { _ in rng.next() % 3 != 0 }
            let ss = ShareDownloads(served.map {
                ShareDownload(shareID: $0, messageID: "m\($0)", sender: "s", share: [1, 2], saveAt: .zero, messageNumber: Int32($0))
            })
            var reference = state
            var short = false, missing: [Int] = [], more = false
            if !reference.asked.isEmpty {
                let a = reference.asked
                for id in a { reference.seen.insert(id) }
                if ss.count < a.count {
                    short = true
                    for id in a where !ss.contains(where: { $0.shareID == id }) { missing.append(id) }
                }
                more = reference.askedMore
                reference.asked = ShareIDs()
                reference.askedMore = false
            } else {
                for s in ss { reference.seen.insert(s.shareID) }
            }
            let got = state.answered(by: ss)
            #expect(got.short == short && got.missing == missing && got.more == more)
            #expect(state.seen.ids == reference.seen.ids && state.asked.isEmpty && !state.askedMore)
        }
    }
}
