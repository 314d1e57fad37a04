import Testing
import SimKernel
@testable import GrouperModel

/// `DeliveryState` (per-sender records, found by run-wide slot or by name) against a plain
/// reference of Algorithm 1's normal and confirm handling: per sender name a contiguous mark,
/// a set of sequences above it and the last range asked, in dictionaries.
@Suite struct DeliveryStateReferenceTests {
    struct Reference {
        var contiguous: [String: Int] = [:], above: [String: Set<Int>] = [:]
        var lastAsk: [String: (range: ClosedRange<Int>, at: SimTime)] = [:]
        let retry = SimDuration.minutes(5)

        mutating func handle(_ m: GrouperMessage, now: SimTime, ranges: ResendRanges) -> [DeliveryAction] {
            let c = contiguous[m.sender] ?? 0, got = above[m.sender] ?? []
            if m.type == .confirm {
                guard let top = Int(m.content), top > c, let a = ask(m.sender, c + 1, top, got, now, ranges) else { return [.none] }
                return [a]
            }
            if m.sequence <= c || got.contains(m.sequence) { return [.duplicate(m)] }
            var out: [DeliveryAction] = []
            if m.sequence > c + 1, let a = ask(m.sender, c + 1, m.sequence - 1, got, now, ranges) { out.append(a) }
            var set = got, mark = c
            set.insert(m.sequence)
            while set.remove(mark + 1) != nil { mark += 1 }
            contiguous[m.sender] = mark
            above[m.sender] = set
            return out + [.apply(m)]
        }

        mutating func ask(_ s: String, _ lo: Int, _ hi: Int, _ got: Set<Int>, _ now: SimTime, _ ranges: ResendRanges)
            -> DeliveryAction? {
            let missing = (lo...hi).filter { !got.contains($0) }
            guard let first = missing.first, let last = missing.last else { return nil }
            if let p = lastAsk[s], p.range.contains(first), p.range.contains(last), now - p.at < retry { return nil }
            lastAsk[s] = (first...last, now)
            guard ranges == .holes else { return .askResend(sender: s, range: first...last) }
            var holes: [ClosedRange<Int>] = []
            for q in missing {
                if let h = holes.last, h.upperBound == q - 1 { holes[holes.count - 1] = h.lowerBound...q } else { holes.append(q...q) }
            }
            return .askResend(sender: s, range: first...last, holes: holes.count > 1 ? holes : nil)
        }
    }

    /// Random histories of four senders (mostly in order, with skips, repeats and confirms),
    /// each message found sometimes by its sender's slot and sometimes by name. Slots spread
    /// out, or dense and in another order than first sight (a sender's slot is then often where
    /// the record of a sender seen only by name sits).
    @Test(arguments: [ResendRanges.span, .holes], [false, true])
    func actionsMatchAPlainReference(_ ranges: ResendRanges, denseSlots: Bool) {
        for seed in UInt64(1)...20 {
            var rng = Xoshiro256StarStar(seed: seed)
            var state = DeliveryState(), reference = Reference()
            var next = [1, 1, 1, 1]
            for i in 0..<400 {
                let s = rng.int(in: 0...3), sender = "S\(s)", now = SimTime.zero + .seconds(Double(i * 20))
                let m: GrouperMessage
                if rng.int(in: 0...9) == 0 {
                    m = DeliveryStateTests.msg(.confirm, seq: 0, from: sender, content: "\(next[s] + rng.int(in: -2...4))", id: "c\(i)")
                } else {
                    switch rng.int(in: 0...9) {
                    case 0: next[s] += rng.int(in: 1...9)
                    case 1: next[s] = max(1, next[s] - rng.int(in: 1...12))
                    default: break
                    }
                    m = DeliveryStateTests.msg(.update, seq: next[s], from: sender)
                    next[s] += 1
                }
                let slot = m.type.isNormal && rng.int(in: 0...3) > 0 ? (denseSlots ? 3 - s : 7 * s + 2) : nil
                let got = state.handle(m, now: now, variant: .thesis, asBuilt: AsBuiltSwitches(), resendRetry: .minutes(5),
                                       ownSequence: 0, senderSlot: slot, ranges: ranges)
                #expect(got == reference.handle(m, now: now, ranges: ranges), "seed \(seed) message \(i)")
            }
            #expect(state.contiguous.filter { $0.value > 0 } == reference.contiguous.filter { $0.value > 0 }, "seed \(seed)")
        }
    }
}
