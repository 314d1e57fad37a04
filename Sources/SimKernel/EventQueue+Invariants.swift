extension EventQueue {
    /// Checks every structural invariant; returns a description of the first violation.
    /// O(n); meant for tests and debugging (flag-gated use in models), never the hot path.
    ///
    /// - heap order: no key is smaller than its parent;
    /// - every heap key points at a slot that holds its seq (live or cancelled);
    /// - slots are either in the heap (exactly once) or on the free list (exactly once);
    /// - `cancelledCount` equals the number of cancelled slots;
    /// - the `EventKeyStorage.sentinels` keys behind the last one are sentinels;
    /// - radix buckets, if any, hold their keys in the right buckets
    ///   (`RadixKeyBuckets.checkInvariants()`), and every heap key beside them is below
    ///   their floor;
    /// - the heap holds at most `radixFrom` keys while there are no buckets;
    /// - a sealed lane is sorted from `laneHead` on and `laneFront` is its first key (the
    ///   sentinel when it is empty); an open lane with keys has the smallest key as its front.
    public func checkInvariants() -> String? {
        let laneKeys = heap.lane[heap.laneHead...]
        if heap.laneOpen {
            if heap.laneHead != 0 { return "an open lane has popped keys" }
            if heap.laneFront.wide != (laneKeys.isEmpty ? EventKey.sentinel.wide : 0) { return "an open lane's front is wrong" }
        } else {
            if zip(laneKeys, laneKeys.dropFirst()).contains(where: { !($0 < $1) }) { return "the lane is not sorted" }
            if heap.laneFront.wide != (laneKeys.first ?? .sentinel).wide { return "laneFront is not the lane's first key" }
        }
        let heapKeys = heap.buffer
        for i in heapKeys.indices.dropFirst() where heapKeys[i] < heapKeys[(i - 1) / 4] {
            return "heap order broken at index \(i)"
        }
        for i in heapKeys.count..<(heapKeys.count + EventKeyStorage.sentinels) where heap.base[i].wide != EventKey.sentinel.wide {
            return "no sentinel at index \(i) behind the last key"
        }
        if let radix = heap.radix {
            if let problem = radix.checkInvariants() { return problem }
            if heapKeys.contains(where: { $0.wide >= radix.last }) { return "a heap key is not below the radix buckets' floor" }
        } else if heapKeys.count > heap.radixFrom {
            return "the heap holds \(heapKeys.count) keys, more than radixFrom \(heap.radixFrom), without radix buckets"
        }
        let keys = storedKeys
        var seen = [Bool](repeating: false, count: slots.count)
        var cancelled = 0
        for key in keys {
            let slot = Int(key.tag & Self.slotMask), seq = key.tag >> Self.slotBits
            guard slot < slots.count, !seen[slot] else { return "slot \(slot) missing or used twice" }
            seen[slot] = true
            let state = slots.state(slot)
            if state == seq | Self.cancelledBit { cancelled += 1 } else if state != seq {
                return "slot \(slot) holds seq \(state), heap expects \(seq)"
            }
        }
        for slot in slots.freeList {
            guard slot < slots.count, !seen[slot], EventSlab<Payload>.isFree(slots.state(slot)) else {
                return "free slot \(slot) is in use or listed twice"
            }
            seen[slot] = true
        }
        if seen.contains(false) { return "a slot is neither pending nor free (leak)" }
        if cancelled != cancelledCount { return "cancelledCount \(cancelledCount) but \(cancelled) cancelled slots" }
        return nil
    }
}
