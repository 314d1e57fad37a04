import Testing
import SimKernel
@testable import GrouperModel

/// The compact history representations against plain reference models on random inputs:
/// held messages as bits over a run-wide index, control-message ids as bits, id arrays that
/// reuse their forgotten front.
@Suite struct CompactHistoryTests {
    static func msg(_ type: MessageType, seq: Int, from s: String, id: String) -> GrouperMessage {
        GrouperMessage(type: type, content: type == .confirm ? "\(seq)" : "x", sequence: seq, objectClass: "R",
                       objectID: "o", receiver: "*", sender: s, email: "", name: "", sendTime: 0, messageID: id)
    }

    /// Three devices hold random (sender, sequence, handle) triples — mostly the run's first
    /// handle for the pair, sometimes another (a replaced message), sometimes far sequences
    /// (overflow) — and each handover equals a plain dictionary's, sorted by sender then sequence.
    @Test func heldMessagesHandOverWhatAPlainMapHolds() {
        for seed in UInt64(1)...30 {
            var rng = Xoshiro256StarStar(seed: seed)
            let index = HeldIndex()
            var devices = Array(repeating: HeldMessages(), count: 3)
            var plain = Array(repeating: [String: [Int: Int32]](), count: 3)
            var firstHandle: [String: Int32] = [:]
            for _ in 0..<400 {
                let d = rng.int(in: 0...2), sender = "s\(rng.int(in: 0...3))"
                let far = rng.int(in: 0...30) == 0
                let q = far ? rng.int(in: 5_000...9_000) : rng.int(in: 1...120)
                let key = "\(sender)#\(q)"
                var h = firstHandle[key] ?? Int32(rng.int(in: 0...10_000))
                if rng.int(in: 0...9) == 0 { h = Int32(rng.int(in: 10_001...20_000)) }
                if firstHandle[key] == nil { firstHandle[key] = h }
                devices[d].set(sender: sender, sequence: q, handle: h, index: index)
                plain[d][sender, default: [:]][q] = h
            }
            for d in 0..<3 {
                let expected = plain[d].keys.sorted().flatMap { s in plain[d][s]!.keys.sorted().map { plain[d][s]![$0]! } }
                #expect(devices[d].handover(index: index) == expected, "seed \(seed) device \(d)")
                #expect(devices[d].count == expected.count)
            }
        }
    }

    /// Control duplicates found by id number give the same actions as by id string.
    @Test func controlDuplicatesByNumberMatchByID() {
        var rng = Xoshiro256StarStar(seed: 7)
        var byID = DeliveryState(), byNumber = DeliveryState()
        var numbers: [String: Int32] = [:]
        for i in 0..<500 {
            let id = "c\(rng.int(in: 0...60))", sender = "S\(rng.int(in: 0...2))"
            let m = rng.int(in: 0...3) == 0 ? Self.msg(.update, seq: i / 4 + 1, from: sender, id: "u\(i)")
                : Self.msg(.confirm, seq: rng.int(in: 0...9), from: sender, id: id)
            if numbers[m.messageID] == nil { numbers[m.messageID] = Int32(numbers.count) }
            let now = SimTime.zero + .seconds(Double(i))
            let a = byID.handle(m, now: now, variant: .thesis, asBuilt: AsBuiltSwitches(), resendRetry: .minutes(5), ownSequence: 0)
            let b = byNumber.handle(m, now: now, variant: .thesis, asBuilt: AsBuiltSwitches(), resendRetry: .minutes(5),
                                    ownSequence: 0, idNumber: m.type.isNormal ? nil : numbers[m.messageID])
            #expect(a == b, "message \(i)")
        }
        #expect(byNumber.seenControl.isEmpty && byNumber.seenControlNumbers.count == byID.seenControl.count)
    }

    /// A FIFO of ids (append at the back, forget the front) keeps the same ids as a plain array,
    /// in a buffer about 1.25× the most ids live at once rather than up to 4×.
    @Test func liveFrontArrayKeepsTheSameIDsInLessSpace() {
        var rng = Xoshiro256StarStar(seed: 11)
        var ids: [Int] = [], head = 0, reference: [Int] = [], next = 0, maxLive = 0
        for _ in 0..<50_000 {
            if rng.int(in: 0...99) < 52 || ids.count == head {
                ids.append(next, liveFrom: &head)
                reference.append(next)
                next += 1
            } else {
                head += 1
                reference.removeFirst()
            }
            maxLive = max(maxLive, reference.count)
            #expect(ids.count - head == reference.count)
        }
        #expect(Array(ids[head...]) == reference)
        #expect(maxLive > 500 && Double(ids.capacity) <= 1.3 * Double(maxLive) + 32, "capacity \(ids.capacity), live at most \(maxLive)")
    }
}
