import Testing
import SimKernel
@testable import GrouperModel

/// The receiver's structures of issue #16's sixth part against plain references: string order
/// by integer keys, the open requests with holes, the store written by object number, and the
/// memo of rebuilds by share buffer. The run-level check is `CompactStateEquivalenceTests`.
@Suite struct ReceiverFastPathTests {
    /// Ids like the run's (UUID-shaped), ones sharing long prefixes, short ones, NULs and
    /// non-ASCII ones (a combining accent after an ASCII letter changes that letter's order).
    static func name(_ rng: inout Xoshiro256StarStar) -> String {
        let pieces = ["A", "B", "a", "e", "AB", "ABCDEFGH", "ABCDEFGHI", "ABCDEFGH\u{0}", "\u{0}", "é", "e\u{301}", "Z", "9-"]
        switch rng.next() % 4 {
        case 0: return MessageIDGenerator.make(using: &rng)
        case 1: return "12345678-" + MessageIDGenerator.make(using: &rng).prefix(Int(rng.next() % 6))
        default: return (0..<Int(1 + rng.next() % 4)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
        }
    }

    @Test func sortedIndicesEqualAStableStringSort() {
        var rng = Xoshiro256StarStar(seed: 1661)
        for _ in 0..<2000 {
            let names = (0..<Int(rng.next() % 12)).map { _ in Self.name(&rng) }
            let reference = names.indices.sorted { names[$0] < names[$1] || (names[$0] == names[$1] && $0 < $1) }
            #expect(StringOrder.sortedIndices(names) == reference, "\(names)")
        }
        #expect(StringOrder.prefixKey("e\u{301}") == nil)
        #expect(StringOrder.prefixKey("AB") == 0x4142 << 48)
    }

    /// Message id numbers sorted by the registry's per-number prefix keys
    /// (`MessageRegistry.sortByID`, the memoised pipeline's `sortByMessageID`) against the
    /// plain sort of their ids: random ids numbered in a run-wide registry, random subsets of
    /// their numbers; ASCII ids only (many sharing their first eight bytes), then with one
    /// non-ASCII id numbered the registry declines and the plain sort answers.
    @Test func messageIDNumbersSortedByKeysEqualThePlainSort() {
        var rng = Xoshiro256StarStar(seed: 1664)
        let registry = MessageRegistry()
        var ids: [String] = []
        for _ in 0..<3000 {
            let id = rng.next() % 3 == 0 ? "ABCDEFGH" + Self.name(&rng) : Self.name(&rng)
            guard id.utf8.allSatisfy({ $0 < 0x80 }) else { continue }
            if Int(registry.idNumber(id)) == ids.count { ids.append(id) }
        }
        func check(_ seed: Int) {
            for _ in 0..<1500 {
                let picked = (0..<Int(rng.next() % 60)).map { _ in Int32(rng.next() % UInt64(ids.count)) }
                var numbers: [Int32] = []
                for n in picked where !numbers.contains(n) { numbers.append(n) }
                var reference = numbers
                PlainPipeline.sortByStrings(&reference) { ids[Int($0)] }
                var fast = numbers
                if registry.sortByID(&fast) {
                    #expect(fast == reference, "\(numbers.map { ids[Int($0)] })")
                } else {
                    #expect(seed == 1 && fast == numbers)
                }
            }
        }
        check(0)
        #expect(ids.count > 1000)
        _ = registry.idNumber("e\u{301}-not-ascii")
        check(1)
    }

    /// A round's touched message numbers without repeats, in their own buffer, equal the
    /// plain filtered copy: first occurrences in order up to 32 numbers, sorted beyond.
    @Test func touchedNumbersWithoutRepeatsEqualThePlainCopy() {
        var rng = Xoshiro256StarStar(seed: 1663)
        for _ in 0..<3000 {
            let distinct = Int32(1 + rng.next() % 40)
            let touched = (0..<Int(rng.next() % 80)).map { _ in Int32(rng.next() % UInt64(distinct)) }
            var reference: [Int32] = []
            if touched.count <= 32 {
                for n in touched where !reference.contains(n) { reference.append(n) }
            } else {
                for n in touched.sorted() where reference.last != n { reference.append(n) }
            }
            var inPlace = touched
            DeviceNode.dropRepeats(&inPlace)
            #expect(inPlace == reference, "\(touched)")
        }
    }

    @Test func pendingRequestsWithHolesBehaveLikeADictionary() {
        var rng = Xoshiro256StarStar(seed: 1662)
        var pending = PendingRequests(), reference: [Int: String] = [:], nextID = 0
        for step in 0..<30_000 {
            // Bursts of opens, then closes of any open id (holes in the middle, compaction).
            if rng.next() % 3 != 0 || reference.count < 2 {
                nextID += 1 + Int(rng.next() % 2)
                let p: RequestPurpose = .get(roundID: step, server: Int(rng.next() % 3))
                pending.insert(nextID, p)
                reference[nextID] = PendingRequestsTests.key(p)
            } else {
                let open = reference.keys.sorted()
                let id = rng.next() % 8 == 0 ? nextID + 1 : open[Int(rng.next() % UInt64(open.count))]
                #expect(pending.remove(id).map(PendingRequestsTests.key) == reference.removeValue(forKey: id))
                if rng.next() % 50 == 0 {   // close everything: the entries start over
                    for id in open where reference[id] != nil {
                        #expect(pending.remove(id).map(PendingRequestsTests.key) == reference.removeValue(forKey: id))
                    }
                }
            }
            #expect(pending.count == reference.count)
            if step % 97 == 0 { #expect(pending.sortedIDs == reference.keys.sorted()) }
        }
    }

    @Test func storeWrittenByNumberEqualsAPlainNewestVersionTable() {
        var rng = Xoshiro256StarStar(seed: 1663)
        let objects = (0..<9).map { "object-\($0)" }, senders = ["s1", "s2", "s0"]
        var store = NewestVersionWinsStore(), reference: [String: StoredObject] = [:]
        for q in 1...3000 {
            let o = Int(rng.next() % UInt64(objects.count)), delete = rng.next() % 5 == 0
            let m = GrouperMessage(type: delete ? .delete : .update, content: delete ? objects[o] : "c\(q)", sequence: q,
                                   objectClass: "Record", objectID: objects[o], receiver: GrouperMessage.multicast,
                                   sender: senders[Int(rng.next() % 3)], email: "e", name: "n",
                                   sendTime: Int64(rng.next() % 40), messageID: "m\(q)")
            let new = StoredObject(version: ObjectVersion(of: m), content: delete ? nil : m.content)
            let expected = reference[m.objectID].map { $0.version < new.version } ?? true
            if expected { reference[m.objectID] = new }
            // Numbered and plain writes mixed, as a device's local writes go by id.
            let changed = rng.next() % 3 == 0 ? (delete ? store.deleteRemote(m) : store.updateRemote(m))
                : store.apply(m, objectNumber: Int32(objects.count - 1 - o))
            #expect(changed == expected)
        }
        #expect(store.entries == reference)
        #expect(store.liveObjects == reference.compactMapValues(\.content))
    }

    @Test func rebuildMemoHitsOnlyTheVeryBuffersItRecorded() {
        let shares: [[UInt8]] = [[1, 10, 11], [2, 20, 21], [3, 30, 31]]
        var p = PartialMessage(servers: 4)
        for (j, s) in shares.enumerated() {
            p.add(ShareDownload(shareID: j, messageID: "m", sender: "s", share: s, saveAt: .zero, messageNumber: 7), server: j == 2 ? 3 : j)
        }
        let memo = RebuildMemo(), m = RebuildFastPathTests.message(.update, sender: "s", sequence: 1, sendTime: 0, id: "m")
        #expect(memo.outcome(7, k: 2, p) == nil)
        memo.record(7, k: 2, shares: p.shares, RebuildMemo.Outcome(message: m, secretCount: 40, work: SharingWork(bytesIn: 3)))
        let hit = memo.outcome(7, k: 2, p)
        #expect(hit?.message == m && hit?.secretCount == 40 && hit?.work == SharingWork(bytesIn: 3))
        #expect(memo.outcome(7, k: 3, p) == nil, "another threshold")
        #expect(memo.outcome(7 + Int32(RebuildMemo.slotCount), k: 2, p) == nil, "another message in the slot")
        var equalBytes = p
        equalBytes.add(ShareDownload(shareID: 9, messageID: "m", sender: "s", share: shares[1].map { $0 }, saveAt: .zero, messageNumber: 7), server: 1)
        #expect(memo.outcome(7, k: 2, equalBytes) == nil, "equal bytes in another buffer are rebuilt on their own")
        var fewer = PartialMessage(servers: 4)
        fewer.add(ShareDownload(shareID: 0, messageID: "m", sender: "s", share: shares[0], saveAt: .zero, messageNumber: 7), server: 0)
        #expect(memo.outcome(7, k: 2, fewer) == nil)
        #expect(memo.hits == 1 && memo.misses == 5)
    }

    /// `hasExactly(addresses:)`, the rebuild memo's test (the buffer address each collected share
    /// keeps), answers as `hasExactly` comparing the buffers themselves, for random partial
    /// messages against random recorded share lists: the very buffers, equal bytes in other
    /// buffers, empty shares, fewer or more shares, another order.
    @Test func addressComparisonEqualsBufferComparison() {
        var rng = Xoshiro256StarStar(seed: 3217)
        let pool: [[UInt8]] = (0..<6).map { i in i == 5 ? [] : [UInt8(i), UInt8(i + 1), 7] }
        let copies: [[UInt8]] = pool.map { $0.map { $0 } }   // equal bytes in other buffers
        func pick() -> [UInt8] { rng.next() % 4 == 0 ? copies[Int(rng.next() % 6)] : pool[Int(rng.next() % 6)] }
        var hits = 0
        for step in 0..<5_000 {
            let servers = 1 + Int(rng.next() % 5)
            var p = PartialMessage(servers: servers)
            for j in 0..<servers where rng.next() % 3 != 0 {
                p.add(ShareDownload(shareID: step, messageID: "m", sender: "s", share: pick(), saveAt: .zero), server: j)
            }
            var recorded = p.shares
            switch rng.next() % 5 {
            case 0: if !recorded.isEmpty { recorded[Int(rng.next() % UInt64(recorded.count))] = pick() }
            case 1: if recorded.count > 1 { recorded.swapAt(0, recorded.count - 1) }
            case 2: if !recorded.isEmpty { recorded.removeLast() }
            case 3: recorded.append(pick())
            default: break
            }
            let plain = p.hasExactly(recorded)
            #expect(p.hasExactly(addresses: recorded.map(ShareBuffers.address)) == plain)
            if plain { hits += 1 }
        }
        #expect(hits > 1_000)
    }

    /// A download's buffer address follows its share through a copy-on-write setter.
    @Test func downloadAddressFollowsItsShare() {
        let a: [UInt8] = [1, 2, 3], b: [UInt8] = [4, 5]
        var d = ShareDownload(shareID: 1, messageID: "m", sender: "s", share: a, saveAt: .zero)
        let kept = d
        d.share = b
        #expect(d.shareAddress == ShareBuffers.address(b) && kept.shareAddress == ShareBuffers.address(a))
        #expect(CollectedShare(d).address == ShareBuffers.address(b) && ShareBuffers.address([]) == 0)
    }

    @Test func handledMessagesEqualAPlainList() {
        var rng = Xoshiro256StarStar(seed: 1664)
        for _ in 0..<1000 {
            let given = (0..<Int(rng.next() % 6)).map {
                RebuildFastPathTests.message(.update, sender: "s", sequence: $0 + 1, sendTime: 0, id: "m\($0)")
            }
            var handled = HandledMessages(given: given), reference: [GrouperMessage] = []
            for m in given {
                switch rng.next() % 4 {
                case 0: continue                                   // dropped
                case 1:                                            // replaced by an equal value in another box
                    var other = m
                    other.content = m.content
                    handled.append(other)
                    reference.append(other)
                default:
                    handled.append(m)
                    reference.append(m)
                }
            }
            let got = handled.messages
            #expect(got == reference)
            #expect(zip(got, reference).allSatisfy { GrouperMessage.sameStorage($0, $1) }, "the very values appended")
        }
    }
}
