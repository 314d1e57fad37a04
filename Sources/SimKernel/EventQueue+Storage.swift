/// Cache-line-aligned storage for the 4-ary heap of `EventKey` (16 bytes each), in huge
/// pages when it outgrows the L2 cache (`QueueMemory`), and the radix buckets a large
/// queue keeps most of its keys in (`RadixKeyBuckets`).
///
/// Logical index `i` lives at physical `i + 3`, and the buffer is 64-byte aligned, so
/// the four children `4i + 1 … 4i + 4` of any node (physical `4(i + 1) … 4(i + 1) + 3`)
/// share exactly one cache line: one miss per level of a pop instead of ~1.75.
/// Behind the last key there are always `sentinels` copies of `EventKey.sentinel`, so a
/// node whose first child exists can compare all four (`QuaternaryHeap`).
///
/// Audit notes: `base` points at logical index 0 of an allocation of
/// `capacity + sentinels + padding` keys, all initialized (unused ones to the sentinel);
/// `count <= capacity` always; `insert` grows before writing and writes a sentinel
/// `sentinels` places after the new key; `QuaternaryHeap.removeTop` writes one where the
/// last key was; `copy()` gives `EventQueue` its copy-on-write value semantics. Only
/// `EventQueue` touches this type.
@usableFromInline final class EventKeyStorage {
    @usableFromInline static var padding: Int { 3 }
    @usableFromInline static var sentinels: Int { 3 }
    @exclusivity(unchecked) @usableFromInline var base: UnsafeMutablePointer<EventKey>
    @exclusivity(unchecked) @usableFromInline var count: Int = 0
    @exclusivity(unchecked) @usableFromInline var capacity: Int
    /// Where `QuaternaryHeap.removeTop` leaves the words it loads ahead (never read).
    @exclusivity(unchecked) @usableFromInline var prefetchSink: UInt64 = 0
    /// The radix buckets of a large queue; the heap then holds only keys below the buckets'
    /// `last`.
    @exclusivity(unchecked) @usableFromInline var radix: RadixKeyBuckets?
    /// Keys from which a full heap moves them into radix buckets (`RadixKeyBuckets`); below
    /// a quarter of it they move back.
    @usableFromInline let radixFrom: Int
    /// Keys of events scheduled ahead (`EventQueue.pushAhead`), pending from `laneHead` on:
    /// in push order while the lane is open, sorted once it is sealed.
    @exclusivity(unchecked) @usableFromInline var lane: [EventKey] = []
    @exclusivity(unchecked) @usableFromInline var laneHead = 0
    /// What a pop compares the heap's top with: the lane's minimum `lane[laneHead]` once
    /// sealed, the sentinel when the lane is empty, and the smallest possible key while an
    /// open lane holds unsorted keys, so that the next pop takes the way that sorts them.
    @exclusivity(unchecked) @usableFromInline var laneFront: EventKey = .sentinel
    /// Whether the lane takes keys in any order (until the first look at the queue's minimum).
    @exclusivity(unchecked) @usableFromInline var laneOpen = true

    @usableFromInline init(capacity: Int, radixFrom: Int) {
        self.capacity = Swift.max(Swift.min(capacity, radixFrom), 16)
        self.radixFrom = radixFrom
        base = Self.allocate(self.capacity)
    }

    deinit {
        (base - Self.padding).deallocate()
        radix?.release()
    }

    /// Room for `capacity` keys plus the sentinels, every key set to the sentinel.
    static func allocate(_ capacity: Int) -> UnsafeMutablePointer<EventKey> {
        let total = capacity + sentinels + padding
        let raw = QueueMemory.allocate(byteCount: total * MemoryLayout<EventKey>.stride, alignment: 64)
        return raw.initializeMemory(as: EventKey.self, repeating: .sentinel, count: total) + padding
    }

    /// A new storage with the same keys (for copy-on-write).
    @usableFromInline func copy() -> EventKeyStorage {
        let c = EventKeyStorage(capacity: capacity, radixFrom: radixFrom)
        c.base.update(from: base, count: count)
        c.count = count
        c.radix = radix?.copy()
        c.lane = lane
        c.laneHead = laneHead
        c.laneFront = laneFront
        c.laneOpen = laneOpen
        return c
    }

    /// For a full heap: moves its keys into new radix buckets once it holds `radixFrom`
    /// (true when `key` went into them too), else doubles the room (up to `radixFrom` while
    /// there are no buckets).
    @usableFromInline @inline(never) func makeRoom(for key: EventKey) -> Bool {
        if radix == nil && count >= radixFrom {
            formRadix()
            radix.unsafelyUnwrapped.insert(key)   // every key is at least the floor, 0
            return true
        }
        let bigger = radix == nil ? Swift.min(capacity * 2, radixFrom) : capacity * 2
        let moved = Self.allocate(bigger)
        moved.update(from: base, count: count)
        (base - Self.padding).deallocate()
        base = moved
        capacity = bigger
        return false
    }

    /// Moves every key into new radix buckets with the smallest possible floor, 0: whatever
    /// a queue pushes until its next pop goes into the buckets too. The first pop then sorts
    /// the keys out of the top bucket once (O(n), once per `radixFrom` pushes at least), and
    /// makes the floor the key it takes; a simulation pushes nothing below that.
    @usableFromInline func formRadix() {
        let buckets = RadixKeyBuckets(floor: 0)
        for key in buffer { buckets.insert(key) }
        removeAll()
        radix = buckets
    }

    /// Moves the buckets' keys back into the heap (the queue has shrunk).
    @usableFromInline func dissolveRadix() {
        guard let buckets = radix else { return }
        radix = nil
        buckets.forEach { insert($0) }
        buckets.release()
    }

    /// Adds `key` at the end and sifts it up to its place.
    @inlinable @inline(__always) func insert(_ key: EventKey) {
        if count == capacity, makeRoom(for: key) { return }
        let b = base, i = count
        count = i &+ 1
        b[i &+ Self.sentinels] = .sentinel
        QuaternaryHeap.siftUp(key, from: i, base: b)
    }

    /// Empties the heap (its keys have moved into radix buckets); every key slot becomes a
    /// sentinel again.
    @usableFromInline func removeAll() {
        base.update(repeating: .sentinel, count: count + Self.sentinels)
        count = 0
    }

    /// The heap as a buffer of `count` keys (valid until the next insert).
    @inlinable @inline(__always) var buffer: UnsafeMutableBufferPointer<EventKey> {
        UnsafeMutableBufferPointer(start: base, count: count)
    }
}
