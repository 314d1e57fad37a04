/// Identifies one scheduled event; used to cancel it.
///
/// Equality and hashing use `seq` only (it is unique per queue). A handle made with
/// `init(seq:)` has no slot, so cancelling it takes the O(n) slow path.
public struct EventHandle: Hashable, Sendable {
    public let seq: UInt64
    /// Slab slot of the event while it is pending (`UInt32.max` = unknown).
    @usableFromInline let slot: UInt32
    @inlinable public init(seq: UInt64) { self.seq = seq; slot = .max }
    @inlinable init(seq: UInt64, slot: UInt32) { self.seq = seq; self.slot = slot }
    @inlinable public static func == (a: EventHandle, b: EventHandle) -> Bool { a.seq == b.seq }
    public func hash(into h: inout Hasher) { h.combine(seq) }
}

/// Heap key: time, then the kernel's sequence number, with the payload's slab slot
/// packed into the low bits (`tag = seq << slotBits | slot`). Comparing `(time, tag)`
/// is comparing `(time, seq)`, because seqs are unique.
@usableFromInline struct EventKey {
    /// Time with the sign bit flipped, so unsigned order is signed time order.
    @usableFromInline var biasedTime: UInt64
    @usableFromInline var tag: UInt64
    @inlinable init(time: Int64, tag: UInt64) {
        biasedTime = UInt64(bitPattern: time) ^ (1 << 63); self.tag = tag
    }
    @inlinable var time: Int64 { Int64(bitPattern: biasedTime ^ (1 << 63)) }

    /// Larger than every real key: a tag is at most `(2⁴⁰ − 1) << 24 | (2²⁴ − 2)`
    /// (`EventQueue` bounds), below `UInt64.max`. Fills the heap storage past its end.
    @inlinable static var sentinel: EventKey { EventKey(wide: .max) }

    /// The key as one 128-bit number (time high, tag low): key order is its order.
    @inlinable @inline(__always) var wide: UInt128 { UInt128(biasedTime) << 64 | UInt128(tag) }
    @inlinable @inline(__always) init(wide: UInt128) {
        biasedTime = UInt64(truncatingIfNeeded: wide >> 64); tag = UInt64(truncatingIfNeeded: wide)
    }

    /// `(biasedTime, tag) < (other.biasedTime, other.tag)` as one 128-bit compare, which
    /// compiles to `cmp`/`sbb`, so selects on it become conditional moves, not branches.
    @inlinable @inline(__always) static func < (a: EventKey, b: EventKey) -> Bool { a.wide < b.wide }
}

/// A priority queue of events ordered by (time, seq): FIFO among equal times.
///
/// Layout: a 4-ary min-heap of 16-byte keys (`EventKey`) plus a slab of payload slots
/// reused through a LIFO free list, so the heap moves only small keys and a steady
/// state allocates nothing. Cancellation is O(1): the slot is marked cancelled and
/// the key is discarded when it reaches the top (lazy deletion). A payload is moved into
/// its slot on push and moved out on pop (`EventSlab`: uninitialized while the slot is
/// free), so an event is never copied inside the queue and a popped event's payload is
/// not kept alive by its old slot. When a push finds `radixFrom` keys in the heap (beyond the
/// L2 cache) they move into radix buckets (`RadixKeyBuckets`), whose moves are sequential where a deep
/// heap's are cache misses, and back into the heap below a quarter of that; keys pushed
/// below the buckets' floor stay in the heap beside them. Both hold the same keys in the
/// same order, so the events come out the same either way.
///
/// Complexity: push O(log₄ n), popMin O(log₄ n) amortised (plus cancelled keys
/// skipped) in the heap; in the buckets push O(1) and popMin O(128) amortised (a key moves
/// down at most once per bucket); cancel O(1) for handles returned by `push`. Memory O(pending + cancelled
/// not yet popped).
///
/// Bounds (overflow is a precondition failure, documented in docs/kernel.md): at most
/// `maxPending` (2²⁴ − 1 = 16,777,215) stored events, at most 2⁴⁰ pushes per queue.
public struct EventQueue<Payload> {
    @inlinable static var slotBits: UInt64 { 24 }
    @inlinable static var slotMask: UInt64 { (1 << slotBits) - 1 }
    @inlinable static var cancelledBit: UInt64 { 1 << 63 }
    /// Largest number of stored events (live + cancelled-but-unpopped).
    @inlinable public static var maxPending: Int { Int(slotMask) }
    /// Pushes allowed over the queue's lifetime.
    @inlinable public static var maxPushes: UInt64 { 1 << (64 - slotBits) }

    @usableFromInline var heap: EventKeyStorage
    /// Payload slots and their free list; a used slot's state is its occupant's seq, or
    /// `seq | cancelledBit` once cancelled.
    @usableFromInline var slots: EventSlab<Payload>
    @usableFromInline var nextSeq: UInt64 = 0
    @usableFromInline var cancelledCount = 0

    /// `radixFrom`: 32,768 keys are 512 KiB, the L2 cache; up to there the 4-ary heap's
    /// levels stay in cache and it is faster than the buckets.
    public static var defaultRadixFrom: Int { 32_768 }

    public init(reservingCapacity capacity: Int = 1024, radixFrom: Int = EventQueue.defaultRadixFrom) {
        precondition(radixFrom >= 16, "EventQueue: radixFrom must be at least 16")
        heap = EventKeyStorage(capacity: capacity, radixFrom: radixFrom)
        slots = EventSlab(capacity: capacity)
    }

    /// Number of entries stored, including cancelled ones not yet popped.
    @inlinable public var storedCount: Int { heap.count &+ (heap.radix?.count ?? 0) &+ heap.laneCount }
    /// Number of live (not cancelled) events.
    @inlinable public var count: Int { storedCount - cancelledCount }
    @inlinable public var isEmpty: Bool { count == 0 }
    /// Seq the next `push` will use (= pushes so far).
    @inlinable public var nextSequenceNumber: UInt64 { nextSeq }

    @inlinable @discardableResult
    public mutating func push(_ payload: consuming Payload, at time: SimTime) -> EventHandle {
        makeHeapUnique()
        return pushUnshared(payload, at: time)
    }

    /// `push` for a queue whose storage no copy shares (a `Simulation` never copies its
    /// queue): skips the copy-on-write check, two runtime calls per event.
    @inlinable
    mutating func pushUnshared(_ payload: consuming Payload, at time: SimTime) -> EventHandle {
        let (key, handle) = storeUnshared(payload, at: time)
        insertUnshared(key)
        return handle
    }

    /// Takes the next seq, stores the payload in a slot, and makes the event's key.
    @inlinable @inline(__always)
    mutating func storeUnshared(_ payload: consuming Payload, at time: SimTime) -> (EventKey, EventHandle) {
        assert(isKnownUniquelyReferenced(&heap), "EventQueue: push on a shared queue")
        let seq = nextSeq
        precondition(seq < Self.maxPushes, "EventQueue: more than 2^40 events scheduled")
        nextSeq &+= 1
        precondition(slots.freeCount > 0 || slots.count < Self.maxPending, "EventQueue: more than \(Self.maxPending) pending events")
        let slot = UInt32(truncatingIfNeeded: slots.store(seq: seq, payload))
        let key = EventKey(time: time.nanoseconds, tag: seq << Self.slotBits | UInt64(slot))
        return (key, EventHandle(seq: seq, slot: slot))
    }

    /// Puts a new key into the heap, or the buckets when there are any.
    @inlinable @inline(__always) mutating func insertUnshared(_ key: EventKey) {
        if heap.radix == nil {
            heap.insert(key)   // forms buckets when the heap is full at radixFrom keys
        } else {
            insertBesideBuckets(key)
        }
    }

    /// Inserts into the buckets, or into the heap beside them when the key is below their
    /// floor. Out of line, like every bucket operation: a small queue's push and pop stay
    /// as short as the heap's own.
    @inlinable @inline(never) mutating func insertBesideBuckets(_ key: EventKey) {
        let radix = heap.radix.unsafelyUnwrapped
        if key.wide >= radix.last { radix.insert(key) } else { heap.insert(key) }
    }

    /// Cancels a pending event. Returns false if it already ran, was cancelled, or was
    /// never scheduled here. O(1) (O(n) for a handle made with `EventHandle(seq:)`).
    @inlinable @discardableResult
    public mutating func cancel(_ handle: EventHandle) -> Bool {
        var slot = Int(handle.slot)
        if handle.slot == .max {
            guard let key = firstKey(where: { $0.tag >> Self.slotBits == handle.seq }) else { return false }
            slot = Int(key.tag & Self.slotMask)
        }
        guard slot < slots.count, slots.state(slot) == handle.seq else { return false }
        makeHeapUnique()
        slots.setState(slot, handle.seq | Self.cancelledBit)
        cancelledCount += 1
        return true
    }

    /// The first stored key (heap, lane, then buckets) that satisfies `predicate`. O(n).
    @usableFromInline func firstKey(where predicate: (EventKey) -> Bool) -> EventKey? {
        if let key = heap.buffer.first(where: predicate) { return key }
        if let key = heap.lane[heap.laneHead...].first(where: predicate) { return key }
        var found: EventKey?
        heap.radix?.forEach { key in if found == nil && predicate(key) { found = key } }
        return found
    }

    /// Every stored key, heap first, then the lane's (for invariant checks).
    var storedKeys: [EventKey] {
        var keys = Array(heap.buffer) + heap.lane[heap.laneHead...]
        heap.radix?.forEach { keys.append($0) }
        return keys
    }

    /// Time of the earliest live event.
    @inlinable public mutating func peekTime() -> SimTime? {
        if cancelledCount > 0 { dropCancelledTop() }
        guard storedCount > 0 else { return nil }
        return SimTime(nanoseconds: minimumKey().time)
    }

    /// The smallest stored key (requires `storedCount > 0`); seals the lane and settles the
    /// buckets. With an empty heap `heap.base[0]` is a sentinel, larger than every key, and so
    /// is an empty lane's `laneFront`.
    @inlinable @inline(__always) mutating func minimumKey() -> EventKey {
        if heap.laneOpen { heap.sealLane() }
        let heapTop = heap.base[0], laneFront = heap.laneFront
        let top = laneFront < heapTop ? laneFront : heapTop
        guard let radix = heap.radix, radix.count > 0 else { return top }
        let m = radix.minimum()
        return m < top ? m : top
    }

    /// Removes and returns the earliest live event, or nil when empty.
    @inlinable public mutating func popMin() -> (time: SimTime, handle: EventHandle, payload: Payload)? {
        makeHeapUnique()
        return popMinUnshared()
    }

    /// `popMin` for a queue whose storage no copy shares (see `pushUnshared`).
    @inlinable
    mutating func popMinUnshared() -> (time: SimTime, handle: EventHandle, payload: Payload)? {
        guard let (time, handle) = popMinKeyUnshared() else { return nil }
        return (time, handle, slots.take(Int(handle.slot)))
    }

    /// Removes the earliest live event's key, leaving its payload in its slot, still held:
    /// `Simulation.step` reads it there (`payloadInPlace`), then frees the slot
    /// (`releaseSlot`) and moves the payload straight into its component's handler, with no
    /// copy on the way. With a `limit`, an earliest live event later than it stays (nil):
    /// `Simulation.run(until:)` pops without a separate peek.
    @inlinable @inline(__always)
    mutating func popMinKeyUnshared() -> (time: SimTime, handle: EventHandle)? {
        popMinKey(limited: false, notAfter: .max)
    }

    @inlinable @inline(__always)
    mutating func popMinKeyUnshared(notAfter limit: Int64) -> (time: SimTime, handle: EventHandle)? {
        popMinKey(limited: true, notAfter: limit)
    }

    /// Both `popMinKeyUnshared`s, each compiled with its own constant `limited`.
    @inlinable @inline(__always)
    mutating func popMinKey(limited: Bool, notAfter limit: Int64) -> (time: SimTime, handle: EventHandle)? {
        assert(isKnownUniquelyReferenced(&heap), "EventQueue: popMinUnshared on a shared queue")
        let biasedLimit = EventKey(time: limit, tag: 0).biasedTime
        while true {
            // Read the top's slot before the descent: with many events pending it is a
            // cache miss, which then overlaps with the descent instead of following it.
            let top = heap.base[0]
            // Buckets, a lane key first, an open lane, or an empty heap (a sentinel top).
            guard heap.radix == nil, top < heap.laneFront else { return popMinOutOfLine(notAfter: biasedLimit) }
            let slot = Int(top.tag & Self.slotMask), seq = top.tag >> Self.slotBits
            let live = slots.state(slot) == seq
            if limited && live && top.biasedTime > biasedLimit { return nil }
            _ = QuaternaryHeap.removeTop(from: heap.buffer, sink: &heap.prefetchSink)
            heap.count &-= 1
            // The new top is most likely the next pop: its slot, a cache miss with a few
            // thousand events pending, loads while this event is handled. (An empty heap's
            // top is a sentinel; prefetching any address is harmless.)
            slots.prefetch(Int(heap.base[0].tag & Self.slotMask))
            if live { return (SimTime(nanoseconds: top.time), EventHandle(seq: seq, slot: UInt32(slot))) }
            slots.discard(slot)
            cancelledCount -= 1
        }
    }

    /// The payload of an event `popMinKeyUnshared` just returned, still in its slot.
    @inlinable @inline(__always) func payloadInPlace(_ handle: EventHandle) -> UnsafeMutablePointer<Payload> {
        slots.payload(Int(handle.slot))
    }

    /// Frees the slot of an event `popMinKeyUnshared` just returned. Its payload stays
    /// initialized there and must be moved out (`payloadInPlace(_:).move()`) before the next
    /// push, which may reuse the slot.
    @inlinable @inline(__always) func releaseSlot(of handle: EventHandle) {
        slots.free(Int(handle.slot))
    }

    /// `popMinKeyUnshared` with radix buckets or a lane: the smallest of the buckets'
    /// minimum, the heap's top (keys pushed below the buckets' floor) and the lane's front.
    /// `biasedLimit` is `popMinKeyUnshared`'s limit as an `EventKey.biasedTime`.
    @inlinable @inline(never)
    mutating func popMinOutOfLine(notAfter biasedLimit: UInt64) -> (time: SimTime, handle: EventHandle)? {
        if heap.laneOpen { heap.sealLane() }
        while true {
            let top: EventKey
            let live: Bool
            var touched: UInt64 = 0
            let laneFront = heap.laneFront
            if let radix = heap.radix, radix.count > 0,
               case let m = radix.minimum(found: { touched = slots.state(Int($0.tag & Self.slotMask)) }),
               m < heap.base[0], m < laneFront {
                // The slot was loaded when the minimum was found, before the other keys of
                // its bucket moved: with many events pending it is a cache miss, which then
                // overlaps with the moves.
                heap.prefetchSink = touched
                top = m
                live = slots.state(Int(top.tag & Self.slotMask)) == top.tag >> Self.slotBits
                if live && top.biasedTime > biasedLimit { return nil }
                radix.removeSettledMinimum()
                // The run's next key is most likely the next pop's: its slot, a cache miss
                // with many events pending, starts loading while this event is handled.
                if let next = radix.runMinimum { slots.prefetch(Int(next.tag & Self.slotMask)) }
                if radix.count &+ heap.count < heap.radixFrom >> 2 { heap.dissolveRadix() }
            } else if heap.base[0] < laneFront {   // so the heap is not empty
                top = heap.base[0]
                live = slots.state(Int(top.tag & Self.slotMask)) == top.tag >> Self.slotBits
                if live && top.biasedTime > biasedLimit { return nil }
                _ = QuaternaryHeap.removeTop(from: heap.buffer, sink: &heap.prefetchSink)
                heap.count &-= 1
            } else if heap.laneCount > 0 {
                top = laneFront
                live = slots.state(Int(top.tag & Self.slotMask)) == top.tag >> Self.slotBits
                if live && top.biasedTime > biasedLimit { return nil }
                heap.advanceLane()
            } else {
                return nil
            }
            let slot = Int(top.tag & Self.slotMask), seq = top.tag >> Self.slotBits
            if live { return (SimTime(nanoseconds: top.time), EventHandle(seq: seq, slot: UInt32(slot))) }
            slots.discard(slot)
            cancelledCount -= 1
        }
    }

    /// Copy-on-write: a copied queue gets its own keys and slots before either copy mutates
    /// them. The two are always replaced together, so the keys' uniqueness stands for both.
    @inlinable @inline(__always) mutating func makeHeapUnique() {
        if !isKnownUniquelyReferenced(&heap) {
            heap = heap.copy()
            slots = slots.copy()
        }
    }

    @inlinable mutating func dropCancelledTop() {
        makeHeapUnique()
        while storedCount > 0 {
            let top = minimumKey()
            let slot = Int(top.tag & Self.slotMask)
            guard slots.state(slot) != top.tag >> Self.slotBits else { return }
            if heap.count > 0 && heap.base[0].wide == top.wide {
                _ = QuaternaryHeap.removeTop(from: heap.buffer, sink: &heap.prefetchSink)
                heap.count &-= 1
            } else if heap.laneCount > 0 && heap.laneFront.wide == top.wide {
                heap.advanceLane()
            } else {
                heap.radix.unsafelyUnwrapped.removeSettledMinimum()
            }
            slots.discard(slot)
            cancelledCount -= 1
        }
    }
}
