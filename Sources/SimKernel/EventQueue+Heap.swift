/// Unsafe code of the kernel (with `EventKeyStorage`, `RadixKeyBuckets`, `EventSlab` and
/// `ComponentEntry`, see docs/kernel.md): 4-ary min-heap moves on a buffer of `EventKey`.
///
/// Audit notes. Every function takes a buffer whose `count` is the heap size and which
/// is followed by at least `EventKeyStorage.sentinels` (3) readable keys equal to
/// `EventKey.sentinel` (the storage keeps them there). Parents `(i - 1) / 4 < i`;
/// children `4i + 1 … 4i + 4` are read only when the first, `4i + 1`, is `< count`,
/// so the other three are at most `count + 2`: real keys or sentinels, which are
/// larger than every real key and never chosen. The loads ahead in `removeTop` read
/// `g, g + 4, g + 8, g + 12` only when `g + 12` is below the new count. Unchecked access is what makes the
/// heap as fast as a C one (bounds checks cost ~40% here); the invariants are verified
/// by `EventQueue.checkInvariants()` in tests.
@usableFromInline enum QuaternaryHeap {
    /// Moves `key` up from the hole at `index` (whatever is stored there is overwritten)
    /// to its place.
    @inlinable @inline(__always)
    static func siftUp(_ key: EventKey, from index: Int, base: UnsafeMutablePointer<EventKey>) {
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

    /// Returns the root and restores the heap over `0 ..< count - 1`, leaving a sentinel
    /// at `count - 1`; the caller then drops the last element. Floyd's variant: walk the
    /// hole down along the smallest children to a leaf, then sift the former last key up
    /// from there (fewer comparisons, since the last key usually belongs near the bottom).
    /// Thanks to the sentinels every level is a full tournament of four.
    ///
    /// Deep in a large heap each level's cache line is a miss, and each depends on the
    /// previous level's compares. So from `prefetchFromChild` on a level also loads one
    /// word of each of the four lines the next level may read (the grandchildren
    /// `4c + 1 … 4c + 16` of the hole, 256 contiguous bytes), starting those misses
    /// while this level's compares run; the words go into `sink` so the loads are kept.
    @inlinable @inline(__always)
    static func removeTop(from b: UnsafeMutableBufferPointer<EventKey>, sink: inout UInt64) -> EventKey {
        let base = b.baseAddress.unsafelyUnwrapped
        let top = base[0]
        let n = b.count &- 1
        let last = base[n]
        base[n] = .sentinel
        guard n > 0 else { return top }
        var i = 0
        var c = 1
        let shallow = Swift.min(n, prefetchFromChild)
        while c < shallow {
            base[i] = smallestOfFour(at: base + c, index: &i, first: c)
            c = (i &<< 2) &+ 1
        }
        var touched: UInt64 = 0
        while c < n {
            let g = (c &<< 2) &+ 1
            if g &+ 12 < n {
                touched &+= base[g].tag &+ base[g &+ 4].tag &+ base[g &+ 8].tag &+ base[g &+ 12].tag
            }
            base[i] = smallestOfFour(at: base + c, index: &i, first: c)
            c = (i &<< 2) &+ 1
        }
        siftUp(last, from: i, base: base)
        sink = touched
        return top
    }

    /// Levels whose first child is below this do not load ahead in `removeTop`: their
    /// grandchildren (the 1,365 keys of levels 0–5, 21 KB) stay in a 32 KB L1 cache,
    /// where loading ahead only costs instructions.
    @inlinable static var prefetchFromChild: Int { 256 }

    /// The smallest of the four keys at `p[0…3]` (children `first…first + 3`); sets
    /// `index` to its position. A tournament: two independent 128-bit compares, then
    /// one; each is `cmp`/`sbb` and the selects are conditional moves, because random
    /// keys would make branches unpredictable.
    @inlinable @inline(__always)
    static func smallestOfFour(at p: UnsafeMutablePointer<EventKey>, index: inout Int, first: Int) -> EventKey {
        let k0 = p[0].wide, k1 = p[1].wide, k2 = p[2].wide, k3 = p[3].wide
        let a = k1 < k0, b = k3 < k2
        let ka = a ? k1 : k0, kb = b ? k3 : k2
        let oa = a ? 1 : 0, ob = b ? 3 : 2
        let second = kb < ka
        index = first &+ (second ? ob : oa)
        return EventKey(wide: second ? kb : ka)
    }
}
