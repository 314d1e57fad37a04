import Testing
import SimKernel
@testable import GrouperModel

/// The memoised pipeline's handling order (`HandlingOrder`, senders ranked through
/// `HeldMemo`) against the plain `DeviceNode.handlingOrder`: batches full of ties, the same
/// message values seen again (memo hits), new senders arriving within and between batches
/// (ranks recomputed), sequences past what a key holds (the plain fallback).
@Suite struct HandlingOrderTests {
    static func batch(_ rng: inout Xoshiro256StarStar, pool: [GrouperMessage], senders: [String]) -> [GrouperMessage] {
        (0..<Int(rng.next() % 40)).map { _ in
            if !pool.isEmpty && rng.next() % 2 == 0 { return pool[Int(rng.next() % UInt64(pool.count))] }
            let type = MessageType.allCases[Int(rng.next() % 4)]
            let sequence = rng.next() % 50 == 0 ? Int(UInt32.max) + Int(rng.next() % 3) : Int(rng.next() % 5) + 1
            var m = RebuildFastPathTests.message(type, sender: senders[Int(rng.next() % UInt64(senders.count))],
                                                 sequence: sequence, sendTime: Int64(rng.next() % 3),
                                                 id: ["m1", "m2", "m10", "x", "m2b"][Int(rng.next() % 5)])
            if type.isNormal { m.sequence = sequence }
            return m
        }
    }

    @Test func packedKeysGiveThePlainOrder() {
        var rng = Xoshiro256StarStar(seed: 32)
        let memo = HeldMemo()
        var senders = ["b-sender", "a-sender", "c"], pool: [GrouperMessage] = []
        for round in 0..<600 {
            if round % 50 == 49 { senders.append(round % 100 == 49 ? "a\(round)" : "é\(round)") }   // a new sender's rank
            let ms = Self.batch(&rng, pool: pool, senders: senders)
            pool = Array((pool + ms).suffix(64))
            for asBuilt in [false, true] {
                let fast = HandlingOrder.indices(ms, asBuilt: asBuilt, senderNumber: { memo.senderNumber(of: $0) },
                                                 ranks: { memo.senderRanks() })
                #expect(fast == DeviceNode.handlingOrder(ms, asBuilt: asBuilt), "\(ms.map { ($0.type, $0.sender, $0.sequence) })")
            }
        }
    }

    @Test func ranksFollowStringOrder() {
        let strings = ["b", "a", "e\u{301}", "é", "", "a"]
        #expect(HandlingOrder.ranks(strings) == [2, 1, 3, 3, 0, 1])
    }
}

