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
    /// with the reference, and its payload with the one pushed under its seq.
    /// `radixFrom` is the queue's radix threshold; `pastPushes` makes one push in ten land
    /// anywhere up to 2³⁰ ns before the last pop (below the radix buckets' floor).
    static func runDeep(seed: UInt64, operations: Int = 12_000, radixFrom: Int = EventQueue<UInt64>.defaultRadixFrom,
                        pastPushes: Bool = false) -> String? {
        var rng = Xoshiro256StarStar(seed: seed)
        var q = EventQueue<UInt64>(reservingCapacity: 1, radixFrom: radixFrom)
        var ref = SortedReference()
        var handles: [EventHandle] = []
        var pushedPayloads: [UInt64: UInt64] = [:]
        var now: Int64 = 0, maxPending = 0
        for step in 0..<operations {
            maxPending = max(maxPending, q.count)
            let growing = (step / 3_000) % 2 == 0
            let op = rng.nextInt(below: 100)
            if op < (growing ? 80 : 30) {
                var t = now + Int64(rng.nextInt(below: 1 << 30)) / (rng.chance(0.1) ? 1 << 20 : 1)
                if pastPushes && rng.chance(0.1) { t = now - Int64(rng.nextInt(below: 1 << 30)) }
                let h = q.push(UInt64(step), at: SimTime(nanoseconds: t))
                ref.insert((t, h.seq)); handles.append(h)
                pushedPayloads[h.seq] = UInt64(step)
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
                if let got, got.payload != pushedPayloads[got.handle.seq] {
                    return "seed \(seed) step \(step): seq \(got.handle.seq) came with payload \(got.payload), pushed with \(String(describing: pushedPayloads[got.handle.seq]))"
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

/// Where a queue's memory lies (`QueueMemory`): a queue beyond the L2 cache sits in
/// 2 MiB-aligned, 2 MiB-rounded memory (huge pages), a small one on cache lines; either way
/// the heap's child groups share one line and the events come out in order.
@Suite("Event queue memory")
struct EventQueueMemoryTests {
    static func pushAndDrain(_ q: inout EventQueue<UInt32>, count: Int, seed: UInt64) -> Bool {
        var rng = Xoshiro256StarStar(seed: seed)
        var times: [Int64] = []
        for i in 0..<count {
            let t = Int64(rng.nextInt(below: 1 << 40)); times.append(t)
            q.push(UInt32(i), at: SimTime(nanoseconds: t))
        }
        guard q.checkInvariants() == nil else { return false }
        var popped: [Int64] = []
        while let e = q.popMin() { popped.append(e.time.nanoseconds) }
        return popped == times.sorted()
    }

    @Test func largeQueuesLieOnHugePageBoundaries() {
        let pending = 100_000                       // 1.6 MB of keys and 1.6 MB of slots
        var q = EventQueue<UInt32>(reservingCapacity: pending)
        let keys = UInt(bitPattern: q.heap.base - EventKeyStorage.padding)
        let slots = UInt(bitPattern: q.slots.base)
        #expect(keys % UInt(QueueMemory.hugePage) == 0)
        #expect(slots % UInt(QueueMemory.hugePage) == 0)
        #expect(UInt(bitPattern: q.heap.base + 1) % 64 == 0 && UInt(bitPattern: q.heap.base + 5) % 64 == 0,
                "the children 4i + 1 … 4i + 4 of node i share one line")
        #expect(Self.pushAndDrain(&q, count: pending, seed: 3))
    }

    @Test func smallQueuesStayOnCacheLinesAndGrowIntoHugePages() {
        var q = EventQueue<UInt32>(reservingCapacity: 16)
        #expect(UInt(bitPattern: q.heap.base - EventKeyStorage.padding) % 64 == 0)
        #expect(UInt(bitPattern: q.slots.base) % 64 == 0)
        #expect(!QueueMemory.isHuge(byteCount: 16 * 22))
        #expect(Self.pushAndDrain(&q, count: 40_000, seed: 4))   // grows past 512 KiB of keys
        #expect(q.heap.capacity * MemoryLayout<EventKey>.stride >= QueueMemory.hugeFrom)
        #expect(UInt(bitPattern: q.heap.base - EventKeyStorage.padding) % UInt(QueueMemory.hugePage) == 0)
        #expect(UInt(bitPattern: q.slots.base) % UInt(QueueMemory.hugePage) == 0)
    }
}
