import SimPrefetch

/// The payload slots of an `EventQueue`: per slot an 8-byte state word and, while the slot
/// is in use, its payload, side by side in one allocation (one cache line per event at
/// large N), so a payload is moved in on push and moved out on pop: no copy of the event,
/// no retain/release of what it carries. Its memory comes from `QueueMemory` (huge pages
/// when large). Free slots wait on a LIFO stack of indices in an array of their own (the
/// slot freed by a pop is the one the next push reuses): a burst of pushes (a server's
/// notify) takes its slots from one warm array, where a list threaded through the free
/// slots would load each cold slot before it could find the next.
///
/// Audit notes: slot `i`'s state is at `base + i·stride`, its payload at `+ payloadOffset`.
/// A state is a live event's seq (< 2⁴⁰), `seq | cancelledBit`, or `freeTag` for a free
/// slot; `freeSlots[0 ..< freeCount]` are the free slots, the most recently freed last,
/// each once. A payload is
/// initialized exactly while its slot is not free: `fill` initializes it, `take` moves it
/// out and `discard` destroys it as they free the slot. `count ≤ capacity`; slots
/// `count…` are untouched. `copy()` gives `EventQueue` its copy-on-write value semantics;
/// `deinit` destroys the payloads still held. Only `EventQueue` touches this type.
@usableFromInline final class EventSlab<Payload> {
    @exclusivity(unchecked) @usableFromInline var base: UnsafeMutableRawPointer
    @exclusivity(unchecked) @usableFromInline var count: Int = 0
    @exclusivity(unchecked) @usableFromInline var capacity: Int
    /// The free slots, the most recently freed at `freeCount − 1` (room for `capacity`).
    @exclusivity(unchecked) @usableFromInline var freeSlots: UnsafeMutablePointer<Int32>
    @exclusivity(unchecked) @usableFromInline var freeCount: Int = 0

    @inlinable static var freeTag: UInt64 { 1 << 62 }
    @inlinable static var payloadOffset: Int {
        let a = MemoryLayout<Payload>.alignment
        return (MemoryLayout<UInt64>.size + a - 1) / a * a
    }
    @inlinable static var alignment: Int { Swift.max(MemoryLayout<Payload>.alignment, MemoryLayout<UInt64>.alignment) }
    @inlinable static var stride: Int {
        (payloadOffset + MemoryLayout<Payload>.size + alignment - 1) / alignment * alignment
    }

    @usableFromInline init(capacity: Int) {
        self.capacity = Swift.max(capacity, 16)
        base = QueueMemory.allocate(byteCount: self.capacity * Self.stride, alignment: Self.alignment)
        freeSlots = .allocate(capacity: self.capacity)
    }

    deinit {
        for i in 0..<count where !Self.isFree(state(i)) { payload(i).deinitialize(count: 1) }
        base.deallocate()
        freeSlots.deallocate()
    }

    @inlinable @inline(__always) static func isFree(_ state: UInt64) -> Bool { state & freeTag != 0 }

    /// Slot `i`'s state word.
    @inlinable @inline(__always) func state(_ i: Int) -> UInt64 {
        (base + i &* Self.stride).assumingMemoryBound(to: UInt64.self).pointee
    }

    @inlinable @inline(__always) func setState(_ i: Int, _ s: UInt64) {
        (base + i &* Self.stride).assumingMemoryBound(to: UInt64.self).pointee = s
    }

    @inlinable @inline(__always) func payload(_ i: Int) -> UnsafeMutablePointer<Payload> {
        (base + i &* Self.stride + Self.payloadOffset).assumingMemoryBound(to: Payload.self)
    }

    /// Starts loading slot `i`'s cache lines (a hint: it changes no value). `EventQueue` asks
    /// for the slot of the event it will most likely pop next, so that miss overlaps with
    /// the current event's work instead of starting the next pop.
    @inlinable @inline(__always) func prefetch(_ i: Int) {
        let slot = base + i &* Self.stride
        sim_prefetch(slot)
        // A slot wider than a line that starts late in one ends in the next.
        if Self.stride > 64 { sim_prefetch(slot + (Self.stride &- 1)) }
    }

    /// Takes the most recently freed slot, or appends a new one; fills it with `payload`
    /// under state `seq` and returns its index.
    @inlinable @inline(__always) func store(seq: UInt64, _ payload: consuming Payload) -> Int {
        let i: Int
        if freeCount > 0 {
            freeCount &-= 1
            i = Int(truncatingIfNeeded: freeSlots[freeCount])
            setState(i, seq)
            // The slot the next push takes, if it comes first: in a burst of pushes (a
            // server's notify) its cold line loads while this payload is written.
            if freeCount > 0 { prefetch(Int(truncatingIfNeeded: freeSlots[freeCount &- 1])) }
        } else {
            if count == capacity { grow() }
            i = count
            count &+= 1
            (base + i &* Self.stride).initializeMemory(as: UInt64.self, repeating: seq, count: 1)
        }
        (base + i &* Self.stride + Self.payloadOffset).initializeMemory(as: Payload.self, to: payload)
        return i
    }

    /// Frees slot `i` and returns its payload (moved out).
    @inlinable @inline(__always) func take(_ i: Int) -> Payload {
        free(i)
        return payload(i).move()
    }

    /// Frees slot `i` and destroys its payload.
    @inlinable @inline(__always) func discard(_ i: Int) {
        free(i)
        payload(i).deinitialize(count: 1)
    }

    @inlinable @inline(__always) func free(_ i: Int) {
        setState(i, Self.freeTag)
        freeSlots[freeCount] = Int32(truncatingIfNeeded: i)
        freeCount &+= 1
    }

    /// The free slots, most recently freed first.
    var freeList: [Int] { (0 ..< freeCount).reversed().map { Int(freeSlots[$0]) } }

    @usableFromInline func grow() {
        let bigger = QueueMemory.allocate(byteCount: capacity * 2 * Self.stride, alignment: Self.alignment)
        relocate(into: bigger, moving: true)
        base.deallocate()
        base = bigger
        let biggerFree = UnsafeMutablePointer<Int32>.allocate(capacity: capacity * 2)
        biggerFree.initialize(from: freeSlots, count: freeCount)
        freeSlots.deallocate()
        freeSlots = biggerFree
        capacity *= 2
    }

    /// A new slab with the same states and free list and copies of the payloads (for
    /// copy-on-write).
    @usableFromInline func copy() -> EventSlab {
        let c = EventSlab(capacity: capacity)
        relocate(into: c.base, moving: false)
        c.count = count
        c.freeSlots.initialize(from: freeSlots, count: freeCount)
        c.freeCount = freeCount
        return c
    }

    /// Writes every used slot's state and payload into `target` (same layout), moving or
    /// copying the payloads.
    func relocate(into target: UnsafeMutableRawPointer, moving: Bool) {
        for i in 0..<count {
            let s = state(i)
            (target + i * Self.stride).initializeMemory(as: UInt64.self, repeating: s, count: 1)
            guard !Self.isFree(s) else { continue }
            let to = target + i * Self.stride + Self.payloadOffset
            if moving { to.initializeMemory(as: Payload.self, to: payload(i).move()) }
            else { to.initializeMemory(as: Payload.self, to: payload(i).pointee) }
        }
    }
}
