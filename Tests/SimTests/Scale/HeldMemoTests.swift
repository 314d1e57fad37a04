import Testing
import SimKernel
@testable import GrouperModel

/// `HeldMemo` against the plain calls it saves: every `handleAndSlot` gives what
/// `registry.intern` and `index.slot(of:)` give, `cachedSlot` nil or that slot, and
/// `senderNumber` / `objectNumber` the numbers a `StringNumbering` asked every time gives.
/// Random operations on a pool of message values that keeps changing (boxes die and their
/// addresses come back), with equal messages in other boxes, through a memo of few sets (its
/// entries collide and are evicted all the time) and one of the default size.
@Suite struct HeldMemoTests {
    static func message(_ rng: inout Xoshiro256StarStar) -> GrouperMessage {
        RebuildFastPathTests.message(rng.next() % 2 == 0 ? .update : .delete, sender: "s\(rng.next() % 7)",
                                     sequence: Int(rng.next() % 4) + 1, sendTime: Int64(rng.next() % 3),
                                     id: "m\(rng.next() % 50)")
    }

    @Test(arguments: [1, 4, HeldMemo.defaultSets])
    func answersWhatThePlainCallsAnswer(sets: Int) throws {
        var rng = Xoshiro256StarStar(seed: UInt64(sets))
        let memo = HeldMemo(sets: sets)
        let registry = MessageRegistry(), index = HeldIndex()
        let plainRegistry = MessageRegistry(), plainIndex = HeldIndex()
        var plainSenders = StringNumbering(), plainObjects = StringNumbering()
        var pool = (0..<40).map { _ in Self.message(&rng) }
        var hits = 0
        for step in 0..<40_000 {
            let j = Int(rng.next() % UInt64(pool.count))
            switch rng.next() % 10 {
            case 0: pool[j] = Self.message(&rng)                                   // a new box
            case 1: pool[j] = try GrouperMessage.decode(pool[Int(rng.next() % 40)].encoded())   // an equal one, other box
            case 2, 3, 4:
                let m = pool[j]
                let (handle, slot) = memo.handleAndSlot(m, registry: registry, index: index)
                #expect(handle == plainRegistry.intern(m) && slot == plainIndex.slot(of: m.sender), "step \(step)")
                #expect(registry[handle] == m)
            case 5:
                let m = pool[j]
                if let slot = memo.cachedSlot(of: m) {
                    hits += 1
                    #expect(slot == plainIndex.slot(of: m.sender), "step \(step)")
                }
            case 6, 7:
                let m = pool[j]
                #expect(memo.senderNumber(of: m) == UInt32(plainSenders.number(of: m.sender)), "step \(step)")
                let ranks = memo.senderRanks()
                #expect(ranks == HandlingOrder.ranks(plainSenders.strings))
            default:
                let m = pool[j]
                #expect(memo.objectNumber(of: m) == plainObjects.number(of: m.objectID), "step \(step)")
            }
        }
        #expect(hits > 100)
    }
}
