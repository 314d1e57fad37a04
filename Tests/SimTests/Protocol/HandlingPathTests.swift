import Testing
import SimKernel
@testable import GrouperModel

/// Algorithm 1's handling path: the store's writes by message (kept as the message) against a
/// plain newest-version table of `StoredObject`s, and `DeliveryState.decide`'s inline actions
/// against `handle`'s list.
@Suite struct HandlingPathTests {
    /// A message of `type` writing `objectID` (content tied to the write).
    static func write(_ type: MessageType, _ objectID: String, sender: String, sequence: Int, time: Int64) -> GrouperMessage {
        GrouperMessage(type: type, content: type == .update ? "c-\(sender)-\(sequence)" : objectID, sequence: sequence,
                       objectClass: "Record", objectID: objectID, receiver: GrouperMessage.multicast, sender: sender,
                       email: "e", name: "n", sendTime: time, messageID: "m-\(sender)-\(sequence)")
    }

    /// Random writes of few objects, senders and times (so versions often tie on time and
    /// sometimes on sender), by every way into the store: `apply` by number, `updateRemote` and
    /// `deleteRemote` (also of a message of the other type), a `StoredObject` by id; the same
    /// message value again, and an equal message in another box. Every answer and every view
    /// equals a plain table's.
    @Test func storeWritesEqualAPlainNewestVersionTable() {
        for seed in UInt64(1)...6 {
            var rng = Xoshiro256StarStar(seed: seed)
            let objects = (0..<5).map { "obj-\($0)" }, senders = ["b", "a", "c"]
            var store = NewestVersionWinsStore(), reference: [String: StoredObject] = [:], order: [String] = []
            var earlier: [GrouperMessage] = []
            for q in 1...600 {
                let o = rng.int(in: 0...(objects.count - 1)), type: MessageType = rng.int(in: 0...4) == 0 ? .delete : .update
                var m = Self.write(type, objects[o], sender: senders[rng.int(in: 0...2)], sequence: rng.int(in: 1...4),
                                   time: Int64(rng.int(in: 0...12)))
                switch rng.int(in: 0...9) {
                case 0 where !earlier.isEmpty: m = earlier[rng.int(in: 0...(earlier.count - 1))]   // the same box
                case 1 where !earlier.isEmpty:   // an equal message in another box
                    let e = earlier[rng.int(in: 0...(earlier.count - 1))]
                    m = Self.write(e.type, e.objectID, sender: e.sender, sequence: e.sequence, time: e.sendTime)
                    #expect(!GrouperMessage.sameStorage(m, e) && m == e)
                default: break
                }
                earlier.append(m)
                let number = Int32(objects.count - 1 - objects.firstIndex(of: m.objectID)!)   // the same id, the same number
                let way = rng.int(in: 0...4)
                let new: StoredObject
                switch way {
                case 2: new = StoredObject(version: ObjectVersion(of: m), content: m.content)   // updateRemote
                case 3: new = StoredObject(version: ObjectVersion(of: m), content: nil)        // deleteRemote
                default: new = StoredObject(version: ObjectVersion(of: m), content: m.type == .update ? m.content : nil)
                }
                let expected = reference[m.objectID].map { $0.version < new.version } ?? true
                if reference[m.objectID] == nil { order.append(m.objectID) }
                if expected { reference[m.objectID] = new }
                let changed: Bool
                switch way {
                case 0, 1: changed = store.apply(m, objectNumber: number)
                case 2: changed = store.updateRemote(m)
                case 3: changed = store.deleteRemote(m)
                default: changed = store.write(m.objectID, new)
                }
                #expect(changed == expected, "write \(q) of seed \(seed) by way \(way)")
                #expect(store.entry(m.objectID) == reference[m.objectID])
            }
            #expect(store.entries == reference)
            #expect(store.storedIDs == order)
            #expect(store.storedObjects == order.map { reference[$0]! })
            #expect(store.liveObjects == reference.compactMapValues(\.content))
            #expect(store.entry("never-written") == nil)
        }
    }

    /// A version newer only by sender, or only by sequence, replaces the stored one whichever
    /// way each was written; an equal version (the same message again) does not.
    @Test func tiesOnTimeGoBySenderThenSequence() {
        let old = Self.write(.update, "o", sender: "b", sequence: 5, time: 7)
        let bySender = Self.write(.update, "o", sender: "c", sequence: 1, time: 7)
        let bySequence = Self.write(.delete, "o", sender: "c", sequence: 2, time: 7)
        for byNumber in [false, true] {
            var store = NewestVersionWinsStore()
            func put(_ m: GrouperMessage) -> Bool {
                byNumber ? store.apply(m, objectNumber: 0) : (m.type == .update ? store.updateRemote(m) : store.deleteRemote(m))
            }
            #expect(put(old))
            #expect(!put(old), "the same version again")
            #expect(!put(Self.write(.update, "o", sender: "a", sequence: 9, time: 7)), "an older sender")
            #expect(!put(Self.write(.update, "o", sender: "b", sequence: 4, time: 7)), "an older sequence")
            #expect(put(bySender))
            #expect(store.entry("o") == StoredObject(version: ObjectVersion(time: 7, sender: "c", sequence: 1), content: "c-c-1"))
            #expect(put(bySequence))
            #expect(store.entry("o") == StoredObject(version: ObjectVersion(time: 7, sender: "c", sequence: 2), content: nil))
            #expect(!put(bySender), "a deleted object is not resurrected by an older update")
            #expect(put(Self.write(.update, "o", sender: "a", sequence: 1, time: 8)), "a later time wins over any sender")
        }
    }

    /// `decide`'s inline actions (a request, then the verdict on the message) list as `handle`
    /// lists them: an ask before an apply, a duplicate alone, a confirm's ask alone, an
    /// answered resend, a confirm with nothing missing.
    @Test func inlineActionsListAsHandleDoes() {
        var a = DeliveryState(), b = DeliveryState()
        let s = "S", now = SimTime.zero
        func both(_ m: GrouperMessage) -> [DeliveryAction] {
            let inline = a.decide(m, now: now, variant: .thesis, asBuilt: AsBuiltSwitches(), resendRetry: .minutes(5),
                                  ownSequence: 0).actions(of: m)
            let listed = b.handle(m, now: now, variant: .thesis, asBuilt: AsBuiltSwitches(), resendRetry: .minutes(5),
                                  ownSequence: 0)
            #expect(inline == listed)
            return listed
        }
        let m1 = DeliveryStateTests.msg(.update, seq: 1, from: s), m3 = DeliveryStateTests.msg(.update, seq: 3, from: s)
        #expect(both(m1) == [.apply(m1)])
        #expect(both(m3) == [.askResend(sender: s, range: 2...2), .apply(m3)])
        #expect(both(m3) == [.duplicate(m3)])
        let confirm = DeliveryStateTests.msg(.confirm, seq: 0, from: s, content: "5", id: "c1")
        #expect(both(confirm) == [.askResend(sender: s, range: 2...5)])
        #expect(both(confirm) == [.duplicate(confirm)])
        let nothing = DeliveryStateTests.msg(.confirm, seq: 0, from: s, content: "1", id: "c2")
        #expect(both(nothing) == [.none])
        let resend = DeliveryStateTests.msg(.resend, seq: 0, from: s, content: "1-2,4-4", id: "r1")
        #expect(both(resend) == [.answerResend(requester: s, range: 1...4, holes: [1...2, 4...4])])
    }
}
