/// The lane: keys of events a model schedules ahead, from a plan it makes before the run (a
/// workload, churn, faults), kept sorted beside the heap instead of in it.
///
/// A plan of a month holds hundreds of thousands of events for most of the run. In the heap
/// (or the radix buckets it turns into beyond `radixFrom` keys) every other event would pay
/// for them on each push and pop; in a sorted array they cost one compare per pop, with the
/// lane's smallest key (`laneFront`). The keys are the ones `push` makes (same seq, same
/// slot), and a pop takes the smallest of the heap's, the buckets' and the lane's minimum, so
/// the events come out in the same order either way.
///
/// The lane is open until the queue's minimum is first looked at (a pop or a peek): pushes
/// append in any order, and the first look sorts them (`sealLane`), once. A sealed lane still
/// takes a key at or after its last one; any other key pushed ahead goes into the heap. A
/// sealed lane stays sealed, so a key is never sorted twice.
extension EventKeyStorage {
    /// Keys in the lane, not yet popped.
    @inlinable @inline(__always) var laneCount: Int { lane.count &- laneHead }

    /// Adds a key pushed ahead: to the lane when it is open, or sealed and the key is not
    /// before its last; else to the heap (false).
    @inlinable func appendToLane(_ key: EventKey) -> Bool {
        if laneOpen {
            lane.append(key)
            laneFront = EventKey(wide: 0)   // the next pop sorts the lane first
            return true
        }
        if laneCount == 0 {
            lane.removeAll(keepingCapacity: true)
            laneHead = 0
            lane.append(key)
            laneFront = key
            return true
        }
        guard lane[lane.count &- 1] < key else { return false }
        lane.append(key)
        return true
    }

    /// Sorts an open lane's keys and seals it.
    @usableFromInline @inline(never) func sealLane() {
        laneOpen = false
        lane.sort { $0 < $1 }
        laneFront = lane.first ?? .sentinel
    }

    /// Drops the lane's minimum (after it was taken or found cancelled).
    @inlinable func advanceLane() {
        laneHead &+= 1
        if laneHead < lane.count {
            laneFront = lane[laneHead]
        } else {
            lane.removeAll()
            laneHead = 0
            laneFront = .sentinel
        }
    }
}

extension EventQueue {
    /// Schedules like `push` (same seq, same order of events), keeping the key in the lane
    /// (see `EventKeyStorage.appendToLane`): for events a model plans before its run.
    @inlinable @discardableResult
    public mutating func pushAhead(_ payload: consuming Payload, at time: SimTime) -> EventHandle {
        makeHeapUnique()
        return pushAheadUnshared(payload, at: time)
    }

    /// `pushAhead` for a queue whose storage no copy shares (see `pushUnshared`).
    @inlinable
    mutating func pushAheadUnshared(_ payload: consuming Payload, at time: SimTime) -> EventHandle {
        let (key, handle) = storeUnshared(payload, at: time)
        if !heap.appendToLane(key) { insertUnshared(key) }
        return handle
    }
}
