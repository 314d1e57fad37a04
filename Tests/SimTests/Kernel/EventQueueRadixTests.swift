import Testing
@testable import SimKernel

/// The radix buckets a large queue keeps its keys in (`RadixKeyBuckets`): with a low
/// threshold the queue moves between heap and buckets many times in one run, and every pop
/// must still be the reference's; pushes below the buckets' floor go to the heap beside them.
@Suite("Event queue radix buckets")
struct EventQueueRadixTests {
    /// Thresholds from the smallest allowed to a few hundred keys: the deep run (up to about
    /// 2,400 pending) forms and dissolves the buckets again and again.
    @Test(arguments: [16, 64, 500])
    func deepRunsThroughTheBucketsMatchTheSortedReference(radixFrom: Int) {
        var failures: [String] = []
        for seed in 0..<UInt64(3) {
            if let f = EventQueueHeapTests.runDeep(seed: seed, radixFrom: radixFrom) { failures.append(f) }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    /// One push in ten goes into the past, below the buckets' floor: those keys live in the
    /// heap beside the buckets, and pops take the smaller of the two minimums.
    @Test(arguments: [16, 64])
    func pushesBelowTheFloorStayInTheHeapBesideTheBuckets(radixFrom: Int) {
        var failures: [String] = []
        for seed in 10..<UInt64(13) {
            if let f = EventQueueHeapTests.runDeep(seed: seed, radixFrom: radixFrom, pastPushes: true) {
                failures.append(f)
            }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    /// The hold model of `bench kernel` (pop one, push it again an exponential time later)
    /// pops the same events with buckets from 16 keys on as with the heap alone, and the
    /// buckets are in use: formed at 16 and kept above a quarter of that.
    @Test func holdModelPopsTheSameEventsWithAndWithoutBuckets() {
        func hold(radixFrom: Int) -> (pops: [UInt64], bucketsUsed: Bool) {
            var rng = Xoshiro256StarStar(seed: 5)
            var q = EventQueue<UInt32>(reservingCapacity: 16, radixFrom: radixFrom)
            for i in 0..<1_000 { q.push(UInt32(i), at: SimTime(nanoseconds: Int64(rng.nextExponential(mean: 1e6)))) }
            var pops: [UInt64] = [], used = false
            for step in 0..<20_000 {
                let t = q.peekTime()
                guard let e = q.popMin() else { break }
                if t != e.time { return ([], false) }
                pops.append(e.handle.seq)
                used = used || q.heap.radix != nil
                if step % 7 == 0, let victim = pops.last.map({ EventHandle(seq: $0 &+ 900) }) { q.cancel(victim) }
                if step < 15_000 {
                    q.push(e.payload &+ 1, at: SimTime(nanoseconds: e.time.nanoseconds + Int64(rng.nextExponential(mean: 1e6))))
                }
                if step % 997 == 0, q.checkInvariants() != nil { return ([], false) }
            }
            return (pops, used)
        }
        let plain = hold(radixFrom: Int.max)
        let radix = hold(radixFrom: 16)
        #expect(plain.pops.count > 15_000)
        #expect(!plain.bucketsUsed && radix.bucketsUsed)
        #expect(radix.pops == plain.pops)
    }

    /// The buckets form when a push finds `radixFrom` keys in the heap (not one before) and
    /// dissolve when fewer than a quarter of it remain (not one after).
    @Test func bucketsFormAtTheThresholdAndDissolveBelowAQuarter() {
        var q = EventQueue<Int>(reservingCapacity: 16, radixFrom: 40)
        for i in 0..<40 { q.push(i, at: SimTime(nanoseconds: Int64(i * 10))) }
        #expect(q.heap.radix == nil && q.heap.count == 40)
        #expect(q.checkInvariants() == nil)
        q.push(40, at: SimTime(nanoseconds: 400))
        #expect(q.heap.radix?.count == 41 && q.heap.count == 0)
        #expect(q.checkInvariants() == nil)
        for i in 0..<31 { #expect(q.popMin()?.payload == i) }
        #expect(q.heap.radix != nil, "10 keys left: a quarter of 40, not fewer")
        #expect(q.popMin()?.payload == 31)
        #expect(q.heap.radix == nil && q.heap.count == 9, "9 keys left: back in the heap")
        #expect(q.checkInvariants() == nil)
        var rest: [Int] = []
        while let e = q.popMin() { rest.append(e.payload) }
        #expect(rest == Array(32...40))
    }

    /// A copy of a queue with buckets keeps its own buckets and run (copy-on-write), and the
    /// invariant check notices a key in the wrong bucket and a run out of order.
    @Test func copiesKeepTheirOwnBucketsAndTheCheckNoticesAMisplacedKey() {
        // 1,000 (0x3E8), then eight keys that first differ from it in the time's nibble 1, where
        // they hold 15 (0x3F0…0x3F7), then 30 far ones: the first pop moves them down (39 > 32
        // keys), the second sorts the eight into the run.
        let times = [1_000] + Array(1_008...1_015) + (0..<30).map { 2_000_000 + $0 * 1_000 }
        var q = EventQueue<Int>(reservingCapacity: 16, radixFrom: 16)
        for i in times.indices.reversed() { q.push(i, at: SimTime(nanoseconds: Int64(times[i]))) }
        var copy = q
        #expect(q.popMin()?.payload == 0)
        #expect(copy.popMin()?.payload == 0)
        copy.push(100, at: SimTime(nanoseconds: 0))
        #expect(copy.popMin()?.payload == 100)
        #expect(q.popMin()?.payload == 1)
        #expect(q.heap.radix?.header.pointee.runCount == 7 && q.heap.radix?.header.pointee.runLevel == 1 + 17 * 16 + 15,
                "nibble 1 of the time is nibble 17 of the key")
        var withRun = q
        #expect(withRun.popMin()?.payload == 2)
        withRun.push(101, at: SimTime(nanoseconds: 1_500))
        #expect(q.popMin()?.payload == 2 && q.popMin()?.payload == 3)
        #expect(q.checkInvariants() == nil && copy.checkInvariants() == nil && withRun.checkInvariants() == nil)
        var rest: [Int] = []
        while let e = withRun.popMin() { rest.append(e.payload) }
        #expect(rest == Array(3...8) + [101] + Array(9..<times.count))
        let r = q.heap.radix!
        let (first, second) = (r.run[0], r.run[1])
        (r.run[0], r.run[1]) = (second, first)
        #expect(q.checkInvariants() == "the run is not in decreasing order at 1")
        (r.run[0], r.run[1]) = (first, second)
        let b = (1..<RadixKeyBuckets.bucketCount).first { r.sizes[$0] > 0 }!
        let key = r.starts[b]![0]
        r.starts[b]![0] = EventKey(wide: r.last)
        #expect(q.checkInvariants() == "radix bucket \(b) holds a key of bucket 0")
        r.starts[b]![0] = key
        #expect(q.checkInvariants() == nil)
    }

    /// Every key of a just-formed queue lies in one bucket (they all differ from the floor, 0,
    /// first in the time's top nibble, nibble 31 of the key, where they hold 8: the time's sign
    /// bit flipped). The first pop sorts that bucket into the run when it holds
    /// at most `runFrom` (32) keys, and moves them into lower buckets when it holds 33.
    @Test(arguments: [32, 33])
    func aLowestBucketOfAtMost32KeysIsSortedIntoTheRun(keys: Int) {
        var q = EventQueue<Int>(reservingCapacity: 16, radixFrom: 16)
        for i in 0..<keys { q.push(i, at: SimTime(nanoseconds: Int64(1_000_000 - i * 3))) }
        #expect(q.heap.radix?.count == keys && q.heap.radix?.sizes[1 + 31 * 16 + 8] == keys)
        #expect(q.popMin()?.payload == keys - 1)
        #expect(q.heap.radix?.header.pointee.runCount == (keys <= 32 ? keys - 1 : 0))
        #expect(q.checkInvariants() == nil)
        var rest: [Int] = []
        while let e = q.popMin() { rest.append(e.payload) }
        #expect(rest == Array((0..<keys - 1).reversed()))
    }

    /// Keys pushed while there is a run, into its range, join it in order; the 65th moves the
    /// whole run into the buckets (a run holds at most `runCapacity`, 64), and every key still
    /// comes out in order.
    @Test func aRunOfMoreThan64KeysMovesIntoTheBuckets() {
        var q = EventQueue<Int>(reservingCapacity: 16, radixFrom: 16)
        for i in 0..<20 { q.push(i, at: SimTime(nanoseconds: Int64(1_000_000 + i * 1_000))) }
        #expect(q.popMin()?.payload == 0)
        #expect(q.heap.radix?.header.pointee.runCount == 19)
        for j in 0..<45 { q.push(100 + j, at: SimTime(nanoseconds: Int64(1_000_500 + j * 1_000))) }
        #expect(q.heap.radix?.header.pointee.runCount == 64 && q.checkInvariants() == nil)
        q.push(145, at: SimTime(nanoseconds: Int64(1_045_500)))
        #expect(q.heap.radix?.header.pointee.runCount == 0 && q.heap.radix?.count == 65 && q.checkInvariants() == nil)
        var times: [Int64] = []
        while let e = q.popMin() { times.append(e.time.nanoseconds) }
        #expect(times.count == 65 && times == times.sorted())
    }

    /// A key's bucket relative to `last` is 1 + 16p + v for the highest nibble p in which they
    /// differ and the key's value v there, 0 for `last` itself; sorted keys have non-decreasing
    /// buckets. Random keys at or above random `last`s, differing from them in every nibble
    /// position, from both halves of the 128-bit key.
    @Test func aKeysBucketIsItsHighestDifferingNibbleAndItsValueThere() {
        var rng = Xoshiro256StarStar(seed: 23)
        func nibble(_ x: UInt128, _ p: Int) -> Int { Int(truncatingIfNeeded: (x >> (4 * p)) & 15) }
        var failures: [String] = []
        for _ in 0..<300 {
            let last = UInt128(rng.next()) << 64 | UInt128(rng.next() >> 1)
            #expect(RadixKeyBuckets.bucket(last, last: last) == 0)
            var keys: [UInt128] = []
            for p in 0..<32 {
                let r = UInt128(rng.next()) << 64 | UInt128(rng.next())
                let delta = p == 31 ? r : r % (UInt128(1) << (4 * p + 4))
                let (key, overflow) = last.addingReportingOverflow(delta | 1)
                if !overflow { keys.append(key) }
            }
            for key in keys {
                let b = RadixKeyBuckets.bucket(key, last: last)
                let p = (b - 1) >> 4, v = (b - 1) & 15
                let agreesAbove = p == 31 || key >> (4 * p + 4) == last >> (4 * p + 4)
                if !(b >= 1 && b < RadixKeyBuckets.bucketCount && agreesAbove && nibble(key, p) == v && nibble(last, p) < v) {
                    failures.append("key \(key) last \(last): bucket \(b)")
                }
            }
            let buckets = keys.sorted().map { RadixKeyBuckets.bucket($0, last: last) }
            if buckets != buckets.sorted() { failures.append("buckets out of key order for last \(last)") }
        }
        #expect(failures.count == 0, "\(failures.prefix(3))")
    }

    /// A settle that empties a bucket with room for more than 65,536 keys (`releaseAbove`) frees
    /// its memory; one with room for 65,536 keeps it. A queue formed at 16 keys holds every key
    /// in the top bucket, which doubles its room from 64, so 65,536 keys fill room for 65,536
    /// and 65,537 need room for 131,072; the first pop empties it.
    @Test(arguments: [65_536, 65_537])
    func anEmptiedBucketWithRoomForMoreThan65536KeysGivesItsMemoryBack(keys: Int) {
        var q = EventQueue<Int>(reservingCapacity: 16, radixFrom: 16)
        for i in 0..<keys { q.push(i, at: SimTime(nanoseconds: Int64(1_000_000 + i * 7))) }
        let top = 1 + 31 * 16 + 8, large = keys > 65_536
        guard let r = q.heap.radix else { Issue.record("no buckets"); return }
        #expect(r.sizes[top] == keys && r.capacities[top] == (large ? 131_072 : 65_536))
        #expect(q.popMin()?.payload == 0)
        #expect(r.sizes[top] == 0 && r.capacities[top] == (large ? 0 : 65_536) && (r.starts[top] == nil) == large)
        #expect(q.checkInvariants() == nil)
        q.push(-1, at: SimTime(nanoseconds: 1 << 60))   // far ahead: into a high bucket again
        var popped = [0]
        while let e = q.popMin() { popped.append(e.payload) }
        #expect(popped == Array(0..<keys) + [-1])
    }

    /// The key `popMinOutOfLine` prefetches the slot of (`runMinimum`) is the one the next
    /// pop takes whenever there is a run: in the hold model at 2,000 pending, with buckets
    /// from 64 keys, before every pop.
    @Test func theRunsMinimumIsTheNextPop() {
        var rng = Xoshiro256StarStar(seed: 17)
        var q = EventQueue<Int>(reservingCapacity: 16, radixFrom: 64)
        for i in 0..<2_000 { q.push(i, at: SimTime(nanoseconds: Int64(rng.nextExponential(mean: 1e6)))) }
        var checked = 0, mismatches: [String] = []
        for _ in 0..<20_000 {
            let expected = q.heap.radix?.runMinimum
            guard let e = q.popMin() else { break }
            if let k = expected {
                checked += 1
                if k.time != e.time.nanoseconds || k.tag >> 24 != e.handle.seq {
                    mismatches.append("expected (\(k.time), \(k.tag >> 24)), popped (\(e.time.nanoseconds), \(e.handle.seq))")
                }
            }
            q.push(e.payload, at: e.time + .nanoseconds(Int64(rng.nextExponential(mean: 1e6))))
        }
        #expect(checked > 10_000, "pops with a run: \(checked)")
        #expect(mismatches.count == 0, "\(mismatches.prefix(3))")
    }

    final class Counter { var live = 0 }
    final class Tracked {
        let value: Int, counter: Counter
        init(_ value: Int, _ counter: Counter) { self.value = value; self.counter = counter; counter.live += 1 }
        deinit { counter.live -= 1 }
    }

    /// While the keys are in buckets, each popped payload is the one pushed with that event, a
    /// payload lives exactly while some queue holds its event (cancelled ones until their key
    /// is dropped), a copy holds its own references and buckets, the buckets dissolve with
    /// every payload in place, and a dropped queue releases its buckets' events.
    @Test func payloadsLiveExactlyWhileQueuedThroughFormingCopyingAndDissolving() {
        let counter = Counter()
        func time(_ value: Int) -> SimTime { SimTime(nanoseconds: Int64(value * 37 % 101)) }
        func popMatches(_ q: inout EventQueue<Tracked>) -> Bool? {
            guard let e = q.popMin() else { return nil }
            return e.time == time(e.payload.value)
        }
        do {
            var q = EventQueue<Tracked>(reservingCapacity: 16, radixFrom: 16)
            var handles: [EventHandle] = []
            for i in 0..<100 { handles.append(q.push(Tracked(i, counter), at: time(i))) }
            #expect(q.heap.radix != nil && q.heap.count == 0 && counter.live == 100)
            var cancelled = 0
            for (i, h) in handles.enumerated() where i % 3 == 0 && q.cancel(h) { cancelled += 1 }
            #expect(cancelled == 34)
            #expect(counter.live == 100, "cancelled payloads stay until their key is dropped")
            var copy = q
            for _ in 0..<20 { let matches = popMatches(&q); #expect(matches == true) }
            #expect(counter.live == 100, "the copy still holds every payload")
            var fromCopy = 0
            while let matches = popMatches(&copy) { #expect(matches); fromCopy += 1 }
            #expect(fromCopy == 66)
            #expect(counter.live == q.storedCount && q.checkInvariants() == nil)
            while q.heap.radix != nil { let matches = popMatches(&q); #expect(matches == true) }
            #expect(q.storedCount > 0 && counter.live == q.storedCount && q.checkInvariants() == nil)
            while let matches = popMatches(&q) { #expect(matches) }
            #expect(counter.live == 0)
            var dropped = EventQueue<Tracked>(reservingCapacity: 16, radixFrom: 16)
            for i in 0..<40 { dropped.push(Tracked(i, counter), at: time(i)) }
            #expect(dropped.heap.radix != nil && counter.live == 40)
        }
        #expect(counter.live == 0, "the dropped queue released its buckets' events")
    }
}
