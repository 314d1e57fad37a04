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
            Self.compareHeld(seed: seed, steps: 400) { _, _ in
                rng.int(in: 0...30) == 0 ? rng.int(in: 5_000...9_000) : rng.int(in: 1...120)
            } draw: { rng.int(in: $0) }
        }
    }

    /// As above with the order real runs have: each sender's next sequence mostly, sometimes a
    /// skip ahead (a hole, filled later), an old one again, or a far one; every hole and its
    /// filling go through the records' in-order path and the bits of a sender with a hole.
    @Test func heldMessagesInOrderWithHolesHandOverWhatAPlainMapHolds() {
        for seed in UInt64(1)...30 {
            var rng = Xoshiro256StarStar(seed: seed)
            var next = Array(repeating: Array(repeating: 1, count: 4), count: 3)
            var holes = Array(repeating: Array(repeating: [Int](), count: 4), count: 3)
            Self.compareHeld(seed: seed, steps: 600) { d, s in
                switch rng.int(in: 0...19) {
                case 0 where !holes[d][s].isEmpty: return holes[d][s].removeFirst()
                case 1:   // skip ahead, leaving holes
                    let skip = rng.int(in: 1...70)
                    holes[d][s] += (next[d][s]..<(next[d][s] + skip))
                    next[d][s] += skip
                case 2 where next[d][s] > 1: return rng.int(in: 1...(next[d][s] - 1))
                case 3: return rng.int(in: 0...3) == 0 ? next[d][s] + 5_000 : next[d][s] + 1
                default: break
                }
                next[d][s] += 1
                return next[d][s] - 1
            } draw: { rng.int(in: $0) }
        }
    }

    /// Sets `steps` triples on three devices, each sequence from `sequence(device, sender)`, and
    /// compares every handover and count with a plain map's.
    static func compareHeld(seed: UInt64, steps: Int, sequence: (Int, Int) -> Int, draw: (ClosedRange<Int>) -> Int) {
        let index = HeldIndex()
        var devices = Array(repeating: HeldMessages(), count: 3)
        var plain = Array(repeating: [String: [Int: Int32]](), count: 3)
        var firstHandle: [String: Int32] = [:]
        for _ in 0..<steps {
            let d = draw(0...2), s = draw(0...3), sender = "s\(s)"
            let q = sequence(d, s)
            let key = "\(sender)#\(q)"
            var h = firstHandle[key] ?? Int32(draw(0...10_000))
            if draw(0...9) == 0 { h = Int32(draw(10_001...20_000)) }
            if firstHandle[key] == nil { firstHandle[key] = h }
            devices[d].set(sender: sender, sequence: q, handle: h, index: index)
            plain[d][sender, default: [:]][q] = h
        }
        for d in 0..<3 {
            let expected = plain[d].keys.sorted().flatMap { s in plain[d][s]!.keys.sorted().map { plain[d][s]![$0]! } }
            #expect(devices[d].handover(index: index) == expected, "seed \(seed) device \(d)")
            #expect(devices[d].count == expected.count, "seed \(seed) device \(d)")
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
