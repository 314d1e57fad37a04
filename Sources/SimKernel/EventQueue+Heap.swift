/// The only unsafe code in the kernel: 4-ary min-heap moves on a buffer of `EventKey`.
///
/// Audit notes. Every function takes a buffer whose `count` is the heap size and
/// touches only indices `< count`: parents `(i - 1) / 4 < i`, children `4i + 1 … 4i + 4`
/// are checked against `count` before use. Callers pass
/// `ContiguousArray.withUnsafeMutableBufferPointer`, so the buffer is unique and live.
/// Unchecked access is what makes the heap as fast as a C one (bounds checks cost
/// ~40% here); the invariants are verified by `EventQueue.checkInvariants()` in tests.
@usableFromInline enum QuaternaryHeap {
    /// Moves `key` (already stored at `index`) up to its place.
    @inlinable @inline(__always)
    static func siftUp(_ key: EventKey, from index: Int, in b: UnsafeMutableBufferPointer<EventKey>) {
        let base = b.baseAddress.unsafelyUnwrapped
        var i = index
        while i > 0 {
            let parent = (i &- 1) >> 2
            let p = base[parent]
            guard key < p else { break }
            base[i] = p
            i = parent
        }
        base[i] = key
    }

    /// Returns the root and restores the heap over `0 ..< count - 1`; the caller then
    /// drops the last element. Floyd's variant: walk the hole down along the smallest
    /// children to a leaf, then sift the former last key up from there (fewer
    /// comparisons, since the last key usually belongs near the bottom).
    @inlinable @inline(__always)
    static func removeTop(from b: UnsafeMutableBufferPointer<EventKey>) -> EventKey {
        let base = b.baseAddress.unsafelyUnwrapped
        let top = base[0]
        let n = b.count &- 1
        guard n > 0 else { return top }
        let last = base[n]
        var i = 0
        while true {
            let c = (i &<< 2) &+ 1
            if c &+ 3 < n {
                // Tournament of four: two independent comparisons, then one; selects
                // compile to conditional moves.
                let k0 = base[c], k1 = base[c &+ 1], k2 = base[c &+ 2], k3 = base[c &+ 3]
                let a = k1 < k0, b = k3 < k2
                let ka = a ? k1 : k0, kb = b ? k3 : k2
                let ia = a ? c &+ 1 : c, ib = b ? c &+ 3 : c &+ 2
                let second = kb < ka
                let m = second ? ib : ia
                base[i] = second ? kb : ka
                i = m
            } else {
                if c >= n { break }
                var m = c, j = c &+ 1
                while j < n { if base[j] < base[m] { m = j }; j &+= 1 }
                base[i] = base[m]; i = m
            }
        }
        siftUp(last, from: i, in: b)
        return top
    }
}
