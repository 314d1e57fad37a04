import Testing
import SimKernel
@testable import GrouperModel

/// The receiver's fast paths (issue #16): handling order by integer keys instead of sorting
/// whole messages, and one shared decode of each rebuilt secret. Both must give exactly what
/// the plain code gives; the run-level check is `CompactStateEquivalenceTests`.
@Suite struct RebuildFastPathTests {
    static func message(_ type: MessageType, sender: String, sequence: Int, sendTime: Int64, id: String) -> GrouperMessage {
        GrouperMessage(type: type, content: type == .confirm ? "\(sequence)" : "{}", sequence: type.isNormal ? sequence : 0,
                       objectClass: "Note", objectID: "o", receiver: GrouperMessage.multicast, sender: sender,
                       email: "e", name: "n", sendTime: sendTime, messageID: id)
    }

    /// Batches with many ties: few senders and sequences, equal send times, repeated ids.
    static func batch(_ rng: inout Xoshiro256StarStar) -> [GrouperMessage] {
        let senders = ["b-sender", "a-sender", "c", "a-sender-2"], ids = ["m1", "m2", "m10", "x", "m2b"]
        return (0..<Int(rng.next() % 40)).map { _ in
            let type = MessageType.allCases[Int(rng.next() % 4)]
            return message(type, sender: senders[Int(rng.next() % 4)], sequence: Int(rng.next() % 5) + 1,
                           sendTime: Int64(rng.next() % 3), id: ids[Int(rng.next() % 5)])
        }
    }

    @Test func handlingOrderEqualsAStableSortOfTheMessages() {
        var rng = Xoshiro256StarStar(seed: 16)
        for _ in 0..<500 {
            let ms = Self.batch(&rng)
            let indexed = Array(ms.enumerated())
            let thesis = indexed.sorted { DeviceNode.handledBefore($0.element, $1.element) }.map(\.offset)
            let asBuilt = indexed.sorted { $0.element.messageID < $1.element.messageID }.map(\.offset)
            #expect(DeviceNode.handlingOrder(ms, asBuilt: false) == thesis)
            #expect(DeviceNode.handlingOrder(ms, asBuilt: true) == asBuilt)
        }
    }

    @Test func decodedCacheReturnsWhatDecodingReturns() {
        let cache = DecodedMessageCache()
        let a = Self.message(.update, sender: "s", sequence: 1, sendTime: 5, id: "m1")
        var b = a
        b.content = "{\"x\":1}"
        let garbage: [UInt8] = Array("{\"type\":".utf8)
        #expect(cache.decode(a.encoded(), number: 3) == a)
        #expect(cache.decode(a.encoded(), number: 3) == a)
        #expect(cache.hits == 1)
        #expect(cache.decode(b.encoded(), number: 3) == b, "other bytes under the same id are decoded")
        #expect(cache.decode(garbage, number: 3) == nil)
        #expect(cache.decode(garbage, number: 3) == nil)
        let other = 3 + Int32(DecodedMessageCache.slotCount)
        #expect(cache.decode(a.encoded(), number: other) == a, "same slot, other id")
        #expect(cache.decode(b.encoded(), number: 3) == b)
        #expect(cache.hits == 2 && cache.misses == 5)
    }

    /// A sender's recorded bytes give back the sent message itself (no decode: the very same
    /// storage), what decoding them gives; other bytes under the number are decoded. At the
    /// edge of what decoding accepts: sequence Int32.max is recorded, Int32.max + 1 and −1 are
    /// not (decoding them fails, so the cache must too).
    @Test func sentBytesGiveTheSentMessage() throws {
        let cache = DecodedMessageCache()
        let a = Self.message(.update, sender: "s", sequence: 1, sendTime: 5, id: "m1")
        cache.sent(a, bytes: a.encoded(), number: 3)
        let got = try #require(cache.decode(a.encoded(), number: 3))
        #expect(got == a && GrouperMessage.sameStorage(got, a))
        #expect(cache.hits == 1 && cache.misses == 0)
        var tampered = a.encoded()
        tampered[tampered.count / 2] ^= 1
        #expect(cache.decode(tampered, number: 3) == (try? GrouperMessage.decode(tampered)))
        #expect(cache.misses == 1)
        for (sequence, decodes) in [(Int(Int32.max), true), (Int(Int32.max) + 1, false), (-1, false)] {
            var m = a
            m.sequence = sequence
            let bytes = m.encoded()
            #expect(((try? GrouperMessage.decode(bytes)) != nil) == decodes)
            let fresh = DecodedMessageCache()
            fresh.sent(m, bytes: bytes, number: 9)
            #expect(fresh.decode(bytes, number: 9) == (try? GrouperMessage.decode(bytes)), "sequence \(sequence)")
            #expect(fresh.hits == (decodes ? 1 : 0), "sequence \(sequence)")
        }
    }
}

