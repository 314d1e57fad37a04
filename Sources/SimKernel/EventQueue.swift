/// Identifies one scheduled event; used to cancel it.
public struct EventHandle: Hashable, Sendable {
    public let seq: UInt64
    @inlinable public init(seq: UInt64) { self.seq = seq }
}

/// A priority queue of events ordered by (time, seq): FIFO among equal times.
///
/// The order is total and owned by the kernel (`seq` is a kernel counter), so it
/// never depends on how the heap breaks ties. Cancellation is lazy: a cancelled
/// handle is skipped when it reaches the top.
///
/// Simple binary heap for now; see docs/performance.md for the tuned layout.
public struct EventQueue<Payload> {
    @usableFromInline struct Entry {
        @usableFromInline var time: Int64
        @usableFromInline var seq: UInt64
        @usableFromInline var payload: Payload
        @inlinable init(time: Int64, seq: UInt64, payload: Payload) {
            self.time = time; self.seq = seq; self.payload = payload
        }
        @inlinable @inline(__always) func before(_ o: Entry) -> Bool {
            time < o.time || (time == o.time && seq < o.seq)
        }
    }

    @usableFromInline var heap: ContiguousArray<Entry> = []
    @usableFromInline var nextSeq: UInt64 = 0
    @usableFromInline var cancelled: Set<UInt64> = []

    public init(reservingCapacity capacity: Int = 1024) { heap.reserveCapacity(capacity) }

    /// Number of entries stored, including cancelled ones not yet popped.
    @inlinable public var storedCount: Int { heap.count }
    /// Number of live (not cancelled) events.
    @inlinable public var count: Int { heap.count - cancelled.count }
    @inlinable public var isEmpty: Bool { count == 0 }

    @inlinable @discardableResult
    public mutating func push(_ payload: Payload, at time: SimTime) -> EventHandle {
        let seq = nextSeq
        nextSeq &+= 1
        heap.append(Entry(time: time.nanoseconds, seq: seq, payload: payload))
        siftUp(heap.count - 1)
        return EventHandle(seq: seq)
    }

    /// Cancels a pending event. Returns false if it already ran or was cancelled.
    /// O(1); the entry is dropped when it reaches the top.
    @inlinable @discardableResult
    public mutating func cancel(_ handle: EventHandle) -> Bool {
        guard handle.seq < nextSeq, isPending(handle) else { return false }
        return cancelled.insert(handle.seq).inserted
    }

    @inlinable func isPending(_ handle: EventHandle) -> Bool {
        // O(n) scan only on the rare cancel path.
        heap.contains { $0.seq == handle.seq } && !cancelled.contains(handle.seq)
    }

    /// Time of the earliest live event.
    @inlinable public mutating func peekTime() -> SimTime? {
        dropCancelledTop()
        return heap.isEmpty ? nil : SimTime(nanoseconds: heap[0].time)
    }

    /// Removes and returns the earliest live event, or nil when empty.
    @inlinable public mutating func popMin() -> (time: SimTime, handle: EventHandle, payload: Payload)? {
        dropCancelledTop()
        guard !heap.isEmpty else { return nil }
        let top = removeTop()
        return (SimTime(nanoseconds: top.time), EventHandle(seq: top.seq), top.payload)
    }

    @inlinable mutating func dropCancelledTop() {
        while !cancelled.isEmpty, let first = heap.first, cancelled.remove(first.seq) != nil {
            _ = removeTop()
        }
    }

    @inlinable mutating func removeTop() -> Entry {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return last }
        let top = heap[0]
        heap[0] = last
        siftDown(0)
        return top
    }

    @inlinable mutating func siftUp(_ index: Int) {
        var i = index
        let e = heap[i]
        while i > 0 {
            let parent = (i - 1) / 2
            guard e.before(heap[parent]) else { break }
            heap[i] = heap[parent]
            i = parent
        }
        heap[i] = e
    }

    @inlinable mutating func siftDown(_ index: Int) {
        var i = index
        let n = heap.count
        let e = heap[i]
        while true {
            var c = 2 * i + 1
            if c >= n { break }
            if c + 1 < n && heap[c + 1].before(heap[c]) { c += 1 }
            guard heap[c].before(e) else { break }
            heap[i] = heap[c]
            i = c
        }
        heap[i] = e
    }
}
