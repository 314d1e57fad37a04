import Testing
@testable import SimKernel

/// The 4-ary heap with sentinel keys (`QuaternaryHeap`, `EventKeyStorage`): deep heaps
/// with mostly distinct times, growth, draining, extreme times, and an invariant check
/// that notices a missing sentinel.
@Suite("Event queue heap")
struct EventQueueHeapTests {
    /// Reference: pending events kept sorted by (time, seq).
    struct SortedReference {
        var pending: [(time: Int64, seq: UInt64)] = []
        mutating func insert(_ e: (time: Int64, seq: UInt64)) {
            var lo = 0, hi = pending.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if (pending[mid].time, pending[mid].seq) < (e.time, e.seq) { lo = mid + 1 } else { hi = mid }
            }
            pending.insert(e, at: lo)
        }
    }

    /// Random pushes (times spread over 2³⁰ ns, so ties are rare but happen), pops and
    /// cancels, in phases that grow the queue to about 2,400 events (six levels, deep
    /// enough for `removeTop`'s loads ahead) and shrink it again; every pop is compared
    /// with the reference.
    static func runDeep(seed: UInt64, operations: Int = 12_000) -> String? {
        var rng = Xoshiro256StarStar(seed: seed)
        var q = EventQueue<UInt64>(reservingCapacity: 1)
        var ref = SortedReference()
        var handles: [EventHandle] = []
        var now: Int64 = 0, maxPending = 0
        for step in 0..<operations {
            maxPending = max(maxPending, q.count)
            let growing = (step / 3_000) % 2 == 0
            let op = rng.nextInt(below: 100)
            if op < (growing ? 80 : 30) {
                let t = now + Int64(rng.nextInt(below: 1 << 30)) / (rng.chance(0.1) ? 1 << 20 : 1)
                let h = q.push(UInt64(step), at: SimTime(nanoseconds: t))
                ref.insert((t, h.seq)); handles.append(h)
            } else if op < (growing ? 85 : 40), !handles.isEmpty {
                let h = handles[rng.nextInt(below: handles.count)]
                let expected = ref.pending.contains { $0.seq == h.seq }
                if q.cancel(h) != expected { return "seed \(seed) step \(step): cancel(\(h.seq)) disagreed" }
                ref.pending.removeAll { $0.seq == h.seq }
            } else {
                let got = q.popMin()
                let want = ref.pending.isEmpty ? nil : ref.pending.removeFirst()
                if got?.time.nanoseconds != want?.time || got?.handle.seq != want?.seq {
                    return "seed \(seed) step \(step): popped \(String(describing: got?.handle.seq)) expected \(String(describing: want?.seq))"
                }
                if let t = got?.time.nanoseconds { now = t }
            }
            if q.count != ref.pending.count { return "seed \(seed) step \(step): count \(q.count) vs \(ref.pending.count)" }
            if step % 499 == 0, let problem = q.checkInvariants() { return "seed \(seed) step \(step): \(problem)" }
        }
        if maxPending < 2_000 { return "seed \(seed): only \(maxPending) pending at most" }
        return q.checkInvariants().map { "seed \(seed) at the end: \($0)" }
    }

    @Test(.tags(.slow)) func deepHeapsMatchTheSortedReference() {
        var failures: [String] = []
        for seed in 0..<UInt64(max(propertySeedCount / 50, 2)) {
            if let f = Self.runDeep(seed: seed) { failures.append(f) }
            if failures.count >= 3 { break }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func sentinelsSurviveGrowthDrainAndReuse() {
        var q = EventQueue<Int>(reservingCapacity: 1)
        var rng = Xoshiro256StarStar(seed: 7)
        for round in 0..<3 {
            var times: [Int64] = []
            for i in 0..<(100 << round) {
                let t = Int64(rng.nextInt(below: 1_000_000)); times.append(t)
                q.push(i, at: SimTime(nanoseconds: t))
                if i % 37 == 0 { #expect(q.checkInvariants() == nil) }
            }
            var popped: [Int64] = []
            while let e = q.popMin() {
                popped.append(e.time.nanoseconds)
                if popped.count % 41 == 0 { #expect(q.checkInvariants() == nil) }
            }
            #expect(popped == times.sorted(), "round \(round)")
            #expect(q.checkInvariants() == nil)
        }
    }

    @Test func extremeTimesStayOrderedAndFIFO() {
        var q = EventQueue<Int>()
        let times: [Int64] = [.max, 0, .max, -5, .min, .max - 1, .max, .min]
        for (i, t) in times.enumerated() { q.push(i, at: SimTime(nanoseconds: t)) }
        var out: [Int] = []
        while let e = q.popMin() { out.append(e.payload) }
        #expect(out == [4, 7, 3, 1, 5, 0, 2, 6])
    }

    @Test func invariantCheckNoticesAMissingSentinel() {
        var q = EventQueue<Int>()
        for i in 0..<10 { q.push(i, at: SimTime(nanoseconds: Int64(i))) }
        #expect(q.checkInvariants() == nil)
        q.heap.base[q.heap.count + 1] = EventKey(time: 3, tag: 0)
        #expect(q.checkInvariants() == "no sentinel at index 11 behind the last key")
    }
}
