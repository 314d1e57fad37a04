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

    /// Ranks through the distinct names equal ranks from sorting every name: few distinct
    /// names (a batch's senders) or many, ties, prefixes shared past eight bytes, non-ASCII.
    @Test func denseRanksEqualRanksFromSortingEveryName() {
        var rng = Xoshiro256StarStar(seed: 1663)
        let pool = ["device-1", "device-10", "device-2", "b", "a", "", "é", "e\u{301}", "long-name-sharing-a-prefix-1",
                    "long-name-sharing-a-prefix-0"]
        for round in 0..<2000 {
            let few = round % 2 == 0
            let names = (0..<Int(rng.next() % 60)).map { _ in
                few ? pool[Int(rng.next() % UInt64(pool.count))] : "n\(rng.next() % 200)"
            }
            #expect(DeviceNode.denseRanks(names) == DeviceNode.denseRanksBySortingAll(names), "\(names)")
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

    /// An equal message sent again in other storage (a re-upload read back from the registry)
    /// leaves the first box to decoders; a changed message under the same number, or the same
    /// bytes after the slot decoded other ones, takes the slot.
    @Test func resentEqualMessageKeepsTheFirstBox() throws {
        let cache = DecodedMessageCache()
        let a = Self.message(.update, sender: "s", sequence: 1, sendTime: 5, id: "m1")
        let bytes = a.encoded()
        cache.sent(a, bytes: bytes, number: 3)
        let copy = try GrouperMessage.decode(bytes)
        cache.sent(copy, bytes: copy.encoded(), number: 3)
        let got = try #require(cache.decode(bytes, number: 3))
        #expect(GrouperMessage.sameStorage(got, a))
        var b = a
        b.content += " "
        cache.sent(b, bytes: b.encoded(), number: 3)
        let gotB = try #require(cache.decode(b.encoded(), number: 3))
        #expect(gotB == b && GrouperMessage.sameStorage(gotB, b))
        var tampered = bytes
        tampered[tampered.count / 2] ^= 1
        _ = cache.decode(tampered, number: 3)
        cache.sent(copy, bytes: bytes, number: 3)
        let again = try #require(cache.decode(bytes, number: 3))
        #expect(again == a && GrouperMessage.sameStorage(again, copy))
    }

    /// A re-upload's encoding from the cache is the message's own `encoded()`: for an equal
    /// message in other storage, every other message under the same number (any one field
    /// changed) encodes afresh, and so does a number whose slot holds only decoded bytes, a
    /// slot taken by another number, or no number. Both pipelines give `m.encoded()`.
    @Test func recordedEncodingIsTheMessagesEncoding() throws {
        let pipeline = MemoisedPipeline(scheme: GF256Sharing(), registry: MessageRegistry(), heldIndex: HeldIndex())
        let plain = PlainPipeline(scheme: GF256Sharing(), registry: MessageRegistry(), heldIndex: HeldIndex())
        let a = Self.message(.update, sender: "s", sequence: 1, sendTime: 5, id: "m1")
        pipeline.sent(a, as: a.encoded(), number: 3)
        let copy = try GrouperMessage.decode(a.encoded())   // equal, other storage
        #expect(!GrouperMessage.sameStorage(copy, a) && pipeline.decoded.encoded(copy, number: 3) == a.encoded())
        var changed: [GrouperMessage] = []
        for field in 0..<11 {
            var m = a
            switch field {
            case 0: m.type = .delete
            case 1: m.content += " "
            case 2: m.sequence += 1
            case 3: m.objectClass += "x"
            case 4: m.objectID += "x"
            case 5: m.receiver += "x"
            case 6: m.sender += "x"
            case 7: m.email += "x"
            case 8: m.name += "x"
            case 9: m.sendTime += 1
            default: m.messageID += "x"
            }
            #expect(pipeline.decoded.encoded(m, number: 3) == nil, "field \(field)")
            changed.append(m)
        }
        for m in changed + [a, copy] {
            #expect(pipeline.encoded(m, knownNumber: 3) == m.encoded() && plain.encoded(m, knownNumber: 3) == m.encoded())
            #expect(pipeline.encoded(m, knownNumber: nil) == m.encoded())
        }
        #expect(pipeline.decoded.encoded(a, number: 3 + Int32(DecodedMessageCache.slotCount)) == nil)
        let b = Self.message(.update, sender: "s", sequence: 2, sendTime: 6, id: "m2")
        _ = pipeline.decoded.decode(b.encoded(), number: 4)   // decoded only, never sent
        #expect(pipeline.decoded.encoded(b, number: 4) == nil && pipeline.encoded(b, knownNumber: 4) == b.encoded())
    }
}

