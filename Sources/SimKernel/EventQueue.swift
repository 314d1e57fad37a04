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
/// not kept alive by its old slot.
///
/// Complexity: push O(log₄ n), popMin O(log₄ n) amortised (plus cancelled keys
/// skipped), cancel O(1) for handles returned by `push`. Memory O(pending + cancelled
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

    public init(reservingCapacity capacity: Int = 1024) {
        heap = EventKeyStorage(capacity: capacity)
        slots = EventSlab(capacity: capacity)
    }

    /// Number of entries stored, including cancelled ones not yet popped.
    @inlinable public var storedCount: Int { heap.count }
    /// Number of live (not cancelled) events.
    @inlinable public var count: Int { heap.count - cancelledCount }
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
        assert(isKnownUniquelyReferenced(&heap), "EventQueue: pushUnshared on a shared queue")
        let seq = nextSeq
        precondition(seq < Self.maxPushes, "EventQueue: more than 2^40 events scheduled")
        nextSeq &+= 1
        precondition(slots.freeHead >= 0 || slots.count < Self.maxPending, "EventQueue: more than \(Self.maxPending) pending events")
        let slot = UInt32(truncatingIfNeeded: slots.store(seq: seq, payload))
        let key = EventKey(time: time.nanoseconds, tag: seq << Self.slotBits | UInt64(slot))
        heap.insert(key)
        return EventHandle(seq: seq, slot: slot)
    }

    /// Cancels a pending event. Returns false if it already ran, was cancelled, or was
    /// never scheduled here. O(1) (O(n) for a handle made with `EventHandle(seq:)`).
    @inlinable @discardableResult
    public mutating func cancel(_ handle: EventHandle) -> Bool {
        var slot = Int(handle.slot)
        if handle.slot == .max {
            guard let key = heap.buffer.first(where: { $0.tag >> Self.slotBits == handle.seq }) else { return false }
            slot = Int(key.tag & Self.slotMask)
        }
        guard slot < slots.count, slots.state(slot) == handle.seq else { return false }
        makeHeapUnique()
        slots.setState(slot, handle.seq | Self.cancelledBit)
        cancelledCount += 1
        return true
    }

    /// Time of the earliest live event.
    @inlinable public mutating func peekTime() -> SimTime? {
        if cancelledCount > 0 { dropCancelledTop() }
        return heap.count == 0 ? nil : SimTime(nanoseconds: heap.base[0].time)
    }

    /// Removes and returns the earliest live event, or nil when empty.
    @inlinable public mutating func popMin() -> (time: SimTime, handle: EventHandle, payload: Payload)? {
        makeHeapUnique()
        return popMinUnshared()
    }

    /// `popMin` for a queue whose storage no copy shares (see `pushUnshared`).
    @inlinable
    mutating func popMinUnshared() -> (time: SimTime, handle: EventHandle, payload: Payload)? {
        assert(isKnownUniquelyReferenced(&heap), "EventQueue: popMinUnshared on a shared queue")
        while heap.count > 0 {
            // Read the top's slot before the descent: with many events pending it is a
            // cache miss, which then overlaps with the descent instead of following it.
            let top = heap.base[0]
            let slot = Int(top.tag & Self.slotMask), seq = top.tag >> Self.slotBits
            let live = slots.state(slot) == seq
            _ = QuaternaryHeap.removeTop(from: heap.buffer, sink: &heap.prefetchSink)
            heap.count &-= 1
            if live {
                return (SimTime(nanoseconds: top.time), EventHandle(seq: seq, slot: UInt32(slot)), slots.take(slot))
            }
            slots.discard(slot)
            cancelledCount -= 1
        }
        return nil
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
        while heap.count > 0, case let top = heap.base[0],
              slots.state(Int(top.tag & Self.slotMask)) != top.tag >> Self.slotBits {
            _ = QuaternaryHeap.removeTop(from: heap.buffer, sink: &heap.prefetchSink)
            heap.count &-= 1
            let slot = Int(top.tag & Self.slotMask)
            slots.discard(slot)
            cancelledCount -= 1
        }
    }
}
