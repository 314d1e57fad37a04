import Testing
import Foundation
@testable import SimKernel

/// Seeds for property runs: GROUPER_PROPERTY_SEEDS (default 500).
let propertySeedCount: Int = {
    ProcessInfo.processInfo.environment["GROUPER_PROPERTY_SEEDS"].flatMap(Int.init).map { max($0, 1) } ?? 500
}()

@Suite("Event queue")
struct EventQueueTests {
    /// Reference model: a plain list, popped by sorting on (time, seq).
    struct Reference {
        var pending: [(time: Int64, seq: UInt64, value: Int)] = []
        mutating func popMin() -> (Int64, UInt64, Int)? {
            guard let i = pending.indices.min(by: { (pending[$0].time, pending[$0].seq) < (pending[$1].time, pending[$1].seq) })
            else { return nil }
            let e = pending.remove(at: i)
            return (e.time, e.seq, e.value)
        }
    }

    /// Random pushes (few distinct times → many ties), cancels (live, stale and
    /// already-popped handles) and pops, checked step by step against the reference.
    static func runAgainstReference(seed: UInt64, operations: Int = 400) -> String? {
        var rng = Xoshiro256StarStar(seed: seed)
        var q = EventQueue<Int>(reservingCapacity: 4)
        var ref = Reference()
        var handles: [EventHandle] = []
        var now: Int64 = 0
        for step in 0..<operations {
            let op = rng.nextInt(below: 10)
            if op < 5 {
                let t = now + Int64(rng.nextInt(below: 8))
                let h = q.push(step, at: SimTime(nanoseconds: t))
                ref.pending.append((t, h.seq, step)); handles.append(h)
            } else if op < 7, !handles.isEmpty {
                let h = handles[rng.nextInt(below: handles.count)]
                let expected = ref.pending.contains { $0.seq == h.seq }
                if q.cancel(h) != expected { return "seed \(seed) step \(step): cancel(\(h.seq)) disagreed" }
                ref.pending.removeAll { $0.seq == h.seq }
            } else {
                let got = q.popMin(), want = ref.popMin()
                if got?.time.nanoseconds != want?.0 || got?.handle.seq != want?.1 || got?.payload != want?.2 {
                    return "seed \(seed) step \(step): popped \(String(describing: got)) expected \(String(describing: want))"
                }
                if let t = got?.time.nanoseconds { now = t }
            }
            if q.count != ref.pending.count { return "seed \(seed) step \(step): count \(q.count) vs \(ref.pending.count)" }
            if let problem = q.checkInvariants() { return "seed \(seed) step \(step): \(problem)" }
        }
        while let want = ref.popMin() {
            guard let got = q.popMin(), got.handle.seq == want.1 else { return "seed \(seed): drain order differs" }
        }
        return q.popMin() == nil && q.isEmpty ? nil : "seed \(seed): queue not empty after drain"
    }

    @Test(.tags(.slow)) func matchesSortedReferenceOverManySeeds() {
        var failures: [String] = []
        for seed in 0..<UInt64(propertySeedCount) {
            if let f = Self.runAgainstReference(seed: seed) { failures.append(f) }
            if failures.count >= 3 { break }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func fifoAmongEqualTimes() {
        var q = EventQueue<Int>()
        for i in 0..<100 { q.push(i, at: SimTime(nanoseconds: 5)) }
        var out: [Int] = []
        while let e = q.popMin() { out.append(e.payload) }
        #expect(out == Array(0..<100))
    }

    @Test func cancelIsPreciseAndIdempotent() {
        var q = EventQueue<String>()
        let a = q.push("a", at: SimTime(nanoseconds: 1))
        let b = q.push("b", at: SimTime(nanoseconds: 2))
        let first = q.cancel(a), second = q.cancel(a)
        #expect(first && !second)
        #expect(q.count == 1 && q.storedCount == 2)
        let peek = q.peekTime(), popped = q.popMin()?.payload, late = q.cancel(b)
        #expect(peek == SimTime(nanoseconds: 2) && popped == "b")
        #expect(!late, "already ran")
        // A stale handle must not cancel the event that reuses its slot.
        let c = q.push("c", at: SimTime(nanoseconds: 3))
        let stale = q.cancel(b), bySeq = q.cancel(EventHandle(seq: c.seq))
        #expect(!stale)
        #expect(bySeq, "slow path by seq")
        let drained = q.popMin()
        #expect(q.isEmpty && drained == nil)
        #expect(q.checkInvariants() == nil)
    }

    @Test func copiesAreIndependent() {
        var q = EventQueue<Int>()
        for i in 0..<50 { q.push(i, at: SimTime(nanoseconds: Int64(50 - i))) }
        var copy = q
        _ = copy.popMin()
        copy.push(999, at: .zero)
        #expect(q.count == 50 && copy.count == 50)
        let fromOriginal = q.popMin()?.payload, fromCopy = copy.popMin()?.payload
        #expect(fromOriginal == 49)
        #expect(fromCopy == 999)
        #expect(q.checkInvariants() == nil && copy.checkInvariants() == nil)
    }

    @Test func growsPastReservedCapacity() {
        var q = EventQueue<Int>(reservingCapacity: 1)
        var rng = Xoshiro256StarStar(seed: 1)
        var times: [Int64] = []
        for i in 0..<10_000 {
            let t = Int64(rng.nextInt(below: 1_000_000)); times.append(t)
            q.push(i, at: SimTime(nanoseconds: t))
        }
        #expect(q.checkInvariants() == nil)
        var popped: [Int64] = []
        while let e = q.popMin() { popped.append(e.time.nanoseconds) }
        #expect(popped == times.sorted())
    }
}
