/// A radix heap of `EventKey`s: where `EventQueue` keeps its keys while it holds more than
/// its `radixFrom` (more than fit in the L2 cache).
///
/// A radix heap needs keys that never go below the last key taken (`last`), which is what a
/// discrete-event simulation does: an event is scheduled at or after the current time, with a
/// larger sequence number. Its digits are the key's 32 nibbles (4 bits). Bucket 0 holds keys
/// equal to `last`; a key whose highest nibble that differs from `last` is nibble p (0…31),
/// where it has the value v (greater than `last`'s there), is in bucket 1 + 16p + v. Every key
/// of a lower bucket is smaller than every key of a higher one, so the minimum lies in the
/// lowest non-empty bucket. `settle` scans that bucket for its minimum, makes it `last`, and
/// moves the bucket's keys into lower buckets (the minimum into bucket 0): they all agree with
/// the new `last` from nibble p up, so each moves below position p. A key only ever moves down,
/// at most once per nibble, and every move is an append to the end of an array. A 4-ary heap of
/// 100,000 keys misses the cache on most of its nine levels per pop, each miss waiting for the
/// one before; the buckets are read and written in order, which the hardware prefetches.
/// Sixteen values per digit, not two (one bucket per bit): in the hold model at 100,000
/// pending a key moves about three times, where one bucket per bit moves it about six.
///
/// The lowest positions are where keys move most often, a few keys at a time. So when the
/// lowest non-empty bucket holds at most `runFrom` (32) keys, `settle` sorts them into a run
/// instead of moving them down (`run`, largest first), and pops take the run's last key until
/// it is empty. The run's keys agree with each other from the bucket's nibble up, and a key
/// pushed meanwhile whose bucket relative to `last` (one of them) is below the run's belongs
/// among them, so it is inserted in order; every other key still goes into its bucket. A run
/// that outgrows `runCapacity` (64) keys is moved into the buckets below its bucket, as
/// `settle` would have.
///
/// Keys below `last` (an event scheduled between the current time and an event already
/// peeked) do not fit in a bucket; `EventQueue` keeps them in its 4-ary heap beside the
/// buckets and takes whichever minimum is smaller.
///
/// A struct of pointers, not a class: `EventQueue` reaches it on every push and pop, and a
/// class reference read from the heap's storage costs a retain and a release each time
/// (two atomic operations). Copies share the memory; `release()` frees it, once, and
/// `copy()` makes an independent set.
///
/// Audit notes: `starts[b]` points at an allocation of `capacities[b]` keys (nil and 0 for a
/// bucket never used, or emptied by `settle` with room for more than `releaseAbove`) of which
/// `0 ..< sizes[b]` are initialized (`EventKey` is a trivial type, so nothing needs
/// deinitializing); `append` grows a bucket before writing past its capacity; bit b of
/// `occupied[b >> 6]` is set exactly when `sizes[b] > 0`, and the word past the last bucket's
/// is all ones, which ends `lowestOccupied`'s scan; `settle` reads bucket i while it
/// appends only to buckets below i (every key of bucket i differs from the new `last` in a
/// lower nibble), so the buffer it reads is never reallocated under it. `run` has room for
/// `runCapacity + 1` keys after a sentinel at `run[-1]`, of which `0 ..< runCount` (in `header`) are initialized, in decreasing order;
/// `insertIntoRun` moves them into the buckets as soon as there are more than `runCapacity`.
/// While `runCount > 0` the buckets below `runLevel` are empty. `checkInvariants()`
/// verifies bucket membership, sizes, the occupancy bits and the run in tests. Only `EventKeyStorage`
/// owns one: it calls `release()` when it drops the buckets or is itself freed.
@usableFromInline struct RadixKeyBuckets {
    /// The buckets' scalars, kept behind a pointer so that every method is nonmutating.
    @usableFromInline struct Header {
        /// The last key taken (or the lower bound the buckets were formed with).
        @usableFromInline var last: UInt128
        @usableFromInline var count: Int
        /// Keys in the sorted run (0: no run).
        @usableFromInline var runCount: Int
        /// The bucket the run was sorted out of: a key pushed while there is a run goes into
        /// it when its bucket relative to `last` is below this one.
        @usableFromInline var runLevel: Int
    }
    /// Bucket 0, then 16 per nibble position (values 0…15; a value at or below `last`'s
    /// there stays empty).
    @inlinable static var bucketCount: Int { 1 + 32 * 16 }
    /// Words of `occupied`: one bit per bucket, then a word of ones.
    @inlinable static var occupiedWords: Int { (bucketCount + 63) / 64 + 1 }
    /// Keys a bucket gets room for when it is first used.
    @inlinable static var initialCapacity: Int { 64 }
    /// A lowest bucket of at most this many keys is sorted into the run.
    @inlinable static var runFrom: Int { 32 }
    /// The run's keys move into the buckets when it holds more than this many.
    @inlinable static var runCapacity: Int { 64 }
    /// A bucket with room for more keys than this (1 MiB) gives its memory back when a settle
    /// empties it. Each bucket's room is the most it ever held, and with 16 buckets per nibble
    /// the sum of those peaks is many times the keys held (`bench kernel --pending 100000`
    /// peaks at 54 MB without the release, 37 MB with it). Buckets of up to 1 MiB keep theirs:
    /// at 100,000 pending the busiest refill every few thousand events, and refilling them by
    /// doubling from empty would cost about 19 instructions per event (a 64 KiB limit).
    @inlinable static var releaseAbove: Int { 65_536 }

    @usableFromInline let header: UnsafeMutablePointer<Header>
    @usableFromInline let starts: UnsafeMutablePointer<UnsafeMutablePointer<EventKey>?>
    @usableFromInline let sizes: UnsafeMutablePointer<Int>
    @usableFromInline let capacities: UnsafeMutablePointer<Int>
    /// Bit b of word b >> 6 is set when bucket b holds keys; the last word is all ones.
    @usableFromInline let occupied: UnsafeMutablePointer<UInt64>
    /// The sorted run, largest key first. `run[-1]` is `EventKey.sentinel`, larger than
    /// every key, which ends the insertion loops without a bounds test.
    @usableFromInline let run: UnsafeMutablePointer<EventKey>

    /// The last key taken (or the lower bound the buckets were formed with).
    @inlinable var last: UInt128 {
        @inline(__always) get { header.pointee.last }
        @inline(__always) nonmutating set { header.pointee.last = newValue }
    }
    @inlinable var count: Int {
        @inline(__always) get { header.pointee.count }
        @inline(__always) nonmutating set { header.pointee.count = newValue }
    }

    /// Empty buckets whose keys must be at least `floor`.
    @usableFromInline init(floor: UInt128) {
        header = .allocate(capacity: 1)
        header.initialize(to: Header(last: floor, count: 0, runCount: 0, runLevel: 0))
        let runSpace = UnsafeMutablePointer<EventKey>.allocate(capacity: Self.runCapacity + 2)
        runSpace.initialize(to: .sentinel)
        run = runSpace + 1
        starts = .allocate(capacity: Self.bucketCount)
        starts.initialize(repeating: nil, count: Self.bucketCount)
        sizes = .allocate(capacity: Self.bucketCount)
        sizes.initialize(repeating: 0, count: Self.bucketCount)
        capacities = .allocate(capacity: Self.bucketCount)
        capacities.initialize(repeating: 0, count: Self.bucketCount)
        occupied = .allocate(capacity: Self.occupiedWords)
        occupied.initialize(repeating: 0, count: Self.occupiedWords - 1)
        (occupied + Self.occupiedWords - 1).initialize(to: .max)
    }

    /// Frees the buckets' memory; no copy of them may be used afterwards.
    @usableFromInline func release() {
        for b in 0..<Self.bucketCount { starts[b].map { UnsafeMutableRawPointer($0).deallocate() } }
        header.deallocate(); (run - 1).deallocate(); starts.deallocate(); sizes.deallocate(); capacities.deallocate(); occupied.deallocate()
    }

    /// The bucket of `key` relative to `last`: 0 when equal, else 1 + 16p + v, where p is the
    /// highest nibble in which they differ and v the key's value there. Requires
    /// `key >= last` for the order of buckets to be the order of keys.
    @inlinable @inline(__always) static func bucket(_ key: UInt128, last: UInt128) -> Int {
        let x = key ^ last
        let high = UInt64(truncatingIfNeeded: x >> 64), low = UInt64(truncatingIfNeeded: x)
        let keyHigh = UInt64(truncatingIfNeeded: key >> 64), keyLow = UInt64(truncatingIfNeeded: key)
        if high != 0 {
            let p = (63 &- high.leadingZeroBitCount) >> 2   // nibble of the high word
            return 257 &+ p << 4 &+ Int(truncatingIfNeeded: keyHigh &>> UInt64(p << 2)) & 15
        }
        if low == 0 { return 0 }
        let p = (63 &- low.leadingZeroBitCount) >> 2
        return 1 &+ p << 4 &+ Int(truncatingIfNeeded: keyLow &>> UInt64(p << 2)) & 15
    }

    /// Adds a key that is at least `last`.
    @inlinable @inline(__always) func insert(_ key: EventKey) {
        let b = Self.bucket(key.wide, last: last)
        if b < header.pointee.runLevel && header.pointee.runCount > 0 { insertIntoRun(key) } else { append(key, to: b) }
        count &+= 1
    }

    /// Puts `key` in its place in the run (from the smallest end: a new key is usually near
    /// the current time); a run of more than `runCapacity` keys moves into the buckets.
    @inlinable @inline(__always) func insertIntoRun(_ key: EventKey) {
        let n = header.pointee.runCount, w = key.wide
        var q = n
        while run[q &- 1].wide < w {   // stops at the sentinel, run[-1], at the latest
            run[q] = run[q &- 1]
            q &-= 1
        }
        run[q] = key
        header.pointee.runCount = n &+ 1
        if n &+ 1 > Self.runCapacity { scatterRun() }
    }

    /// Moves the run's keys into the buckets below its bucket (relative to `last`, which is
    /// one of them or was taken from it), as `settle` would have.
    @inlinable @inline(never) func scatterRun() {
        let n = header.pointee.runCount, m = last
        header.pointee.runCount = 0
        var j = 0
        while j < n {
            let k = run[j]
            append(k, to: Self.bucket(k.wide, last: m))
            j &+= 1
        }
    }

    @inlinable @inline(__always) func append(_ key: EventKey, to b: Int) {
        let n = sizes[b]
        if n == capacities[b] { grow(b) }
        starts[b].unsafelyUnwrapped[n] = key
        sizes[b] = n &+ 1
        occupied[b &>> 6] |= 1 &<< UInt64(b & 63)
    }

    /// Doubles bucket `b`'s room. Plain cache-line-aligned memory, not `QueueMemory`'s huge
    /// pages: a bucket is read and written in order, so it gains nothing from them, and
    /// rounding each large bucket up to 2 MiB would only add to the resident memory.
    @usableFromInline func grow(_ b: Int) {
        let old = capacities[b], new = Swift.max(old * 2, Self.initialCapacity)
        let raw = UnsafeMutableRawPointer.allocate(byteCount: new * MemoryLayout<EventKey>.stride, alignment: 64)
        let bigger = raw.bindMemory(to: EventKey.self, capacity: new)
        if let p = starts[b] {
            bigger.update(from: p, count: sizes[b])
            UnsafeMutableRawPointer(p).deallocate()
        }
        starts[b] = bigger
        capacities[b] = new
    }

    /// The lowest non-empty bucket (requires `count > 0`; the word of ones past the last
    /// bucket's ends the scan in any case).
    @inlinable @inline(__always) func lowestOccupied() -> Int {
        var w = 0
        while occupied[w] == 0 { w &+= 1 }
        return w << 6 &+ occupied[w].trailingZeroBitCount
    }

    /// Makes the minimum `last` and puts it alone in bucket 0 or at the end of the run
    /// (requires `count > 0`). `found` gets the minimum as soon as it is known, before the
    /// other keys move, so a load it starts (the event's slot) overlaps with the moves.
    @inlinable @inline(__always) func settle(found: (EventKey) -> Void = { _ in }) {
        let rc = header.pointee.runCount
        if rc > 0 {
            let m = run[rc &- 1]
            last = m.wide
            found(m)
            return
        }
        if sizes[0] > 0 { return }
        let i = lowestOccupied()
        let p = starts[i].unsafelyUnwrapped, n = sizes[i]
        if n <= Self.runFrom {
            sizes[i] = 0
            occupied[i &>> 6] &= ~(1 &<< UInt64(i & 63))
            var j = 0
            while j < n {   // insertion sort, largest first
                let k = p[j], w = k.wide
                var q = j
                while run[q &- 1].wide < w {
                    run[q] = run[q &- 1]
                    q &-= 1
                }
                run[q] = k
                j &+= 1
            }
            releaseIfLarge(i)
            header.pointee.runCount = n
            header.pointee.runLevel = i
            let m = run[n &- 1]
            last = m.wide
            found(m)
            return
        }
        var m = p[0].wide
        var j = 1
        while j < n {
            let w = p[j].wide
            m = w < m ? w : m
            j &+= 1
        }
        last = m
        found(EventKey(wide: m))
        sizes[i] = 0
        occupied[i &>> 6] &= ~(1 &<< UInt64(i & 63))
        j = 0
        while j < n {
            let k = p[j]
            append(k, to: Self.bucket(k.wide, last: m))
            j &+= 1
        }
        releaseIfLarge(i)
    }

    /// Frees an emptied bucket's memory when it has room for more than `releaseAbove` keys.
    @inlinable @inline(__always) func releaseIfLarge(_ b: Int) {
        if capacities[b] > Self.releaseAbove { freeBucket(b) }
    }

    @usableFromInline @inline(never) func freeBucket(_ b: Int) {
        starts[b].map { UnsafeMutableRawPointer($0).deallocate() }
        starts[b] = nil
        capacities[b] = 0
    }

    /// The smallest key (requires `count > 0`); settles the buckets, so `last` becomes it.
    @inlinable @inline(__always) func minimum(found: (EventKey) -> Void = { _ in }) -> EventKey {
        settle(found: found)
        let rc = header.pointee.runCount
        return rc > 0 ? run[rc &- 1] : starts[0].unsafelyUnwrapped[0]
    }

    /// Removes the smallest key, which `minimum()` has just settled at the end of the run or
    /// into bucket 0 (keys are unique, so it is bucket 0's only key).
    @inlinable @inline(__always) func removeSettledMinimum() {
        let rc = header.pointee.runCount
        if rc > 0 {
            header.pointee.runCount = rc &- 1
        } else {
            sizes[0] = 0
            occupied[0] &= ~1
        }
        count &-= 1
    }

    /// The run's smallest key, if there is a run: after a pop, the key the next pop takes
    /// unless a smaller one is pushed meanwhile.
    @inlinable @inline(__always) var runMinimum: EventKey? {
        let rc = header.pointee.runCount
        return rc > 0 ? run[rc &- 1] : nil
    }

    /// Every key, the run's first, then bucket by bucket.
    @usableFromInline func forEach(_ body: (EventKey) throws -> Void) rethrows {
        for j in 0..<header.pointee.runCount { try body(run[j]) }
        for b in 0..<Self.bucketCount where sizes[b] > 0 {
            let p = starts[b].unsafelyUnwrapped
            for j in 0..<sizes[b] { try body(p[j]) }
        }
    }

    /// A new, independent set of buckets with the same keys (for copy-on-write).
    @usableFromInline func copy() -> RadixKeyBuckets {
        let c = RadixKeyBuckets(floor: last)
        forEach { c.insert($0) }
        return c
    }

    /// The first violated invariant, or nil: every key lies in its bucket relative to `last`
    /// (so it is at least `last`), the sizes add up to `count`, the occupancy bits match.
    func checkInvariants() -> String? {
        var total = 0
        for b in 0..<Self.bucketCount {
            let bit = occupied[b >> 6] >> UInt64(b & 63) & 1 == 1
            if bit != (sizes[b] > 0) { return "radix bucket \(b): occupancy bit \(bit) but \(sizes[b]) keys" }
            if sizes[b] > capacities[b] { return "radix bucket \(b): \(sizes[b]) keys in room for \(capacities[b])" }
            total += sizes[b]
            guard sizes[b] > 0 else { continue }
            let p = starts[b].unsafelyUnwrapped
            for j in 0..<sizes[b] {
                if p[j].wide < last { return "radix bucket \(b) holds a key below the last one taken" }
                if Self.bucket(p[j].wide, last: last) != b { return "radix bucket \(b) holds a key of bucket \(Self.bucket(p[j].wide, last: last))" }
            }
        }
        if sizes[0] > 1 { return "radix bucket 0 holds \(sizes[0]) keys (keys are unique)" }
        if occupied[Self.occupiedWords - 1] != .max { return "the occupancy word past the last bucket is not all ones" }
        if occupied[Self.bucketCount >> 6] >> UInt64(Self.bucketCount & 63) != 0 { return "occupancy bits set past the last bucket" }
        let rc = header.pointee.runCount
        if (run - 1).pointee.wide != EventKey.sentinel.wide { return "the run's sentinel, run[-1], was overwritten" }
        if rc > Self.runCapacity { return "the run holds \(rc) keys, more than \(Self.runCapacity)" }
        if rc > 0 {
            if let b = (0..<header.pointee.runLevel).first(where: { sizes[$0] > 0 }) { return "radix bucket \(b) holds keys below the run's bucket \(header.pointee.runLevel)" }
            for j in 0..<rc {
                let w = run[j].wide
                if w < last { return "the run holds a key below the last one taken" }
                if Self.bucket(w, last: last) >= header.pointee.runLevel { return "the run holds a key of bucket \(Self.bucket(w, last: last)), not below \(header.pointee.runLevel)" }
                if j > 0 && !(w < run[j - 1].wide) { return "the run is not in decreasing order at \(j)" }
            }
        }
        return total + rc == count ? nil : "radix buckets hold \(total) keys and the run \(rc), count says \(count)"
    }
}
