/// The ids a `transfer/list` returns, ascending: a read-only view of the server's list for
/// that user, so answering a list copies nothing (the thesis's endpoint returns every id
/// visible to the caller on every call; building that array took most of a long run).
///
/// The view is `storage[range]` without the ids of `excluded[excludedRange]` (ascending, each
/// one of `storage[range]`): a server keeps one list per group and, per user, the few ids of
/// that group the user may not see (its own multicasts, unicasts to others), so ~100 members
/// share one array instead of each keeping a near-identical copy (`UntrustedServer+Lists`).
///
/// `generation` counts the ids removed from the list anywhere but its front (a re-put
/// replacing a share, a restart without data); TTL sweeps remove from the front and do not
/// count. It is not part of the reply's content (equality ignores it): receivers use it only
/// to skip a full comparison with the ids they fetched before when nothing in the middle went
/// away, or when the few ids that did are in `recentRemovals` (`SeenShareIDs`).
public struct ShareIDList: RandomAccessCollection, Equatable, Sendable, ExpressibleByArrayLiteral {
    private let storage: [Int]
    private let range: Range<Int>
    private let excluded: [Int]
    private let excludedRange: Range<Int>
    /// nil: not the server's whole list for the user (a misbehaving server's filtered list,
    /// or a list built by hand), so receivers take no shortcut and forget nothing from it.
    public let generation: UInt64?
    /// The last few ids removed from the middle, oldest first (the last `generation` bumps).
    public let recentRemovals: [Int]

    public init(_ storage: [Int], range: Range<Int>? = nil, generation: UInt64? = nil, recentRemovals: [Int] = []) {
        self.init(storage, range: range ?? storage.indices, excluding: [], excludedRange: 0..<0,
                  generation: generation, recentRemovals: recentRemovals)
    }

    /// `storage[range]` without `excluded[excludedRange]` (ascending ids, all in `storage[range]`).
    init(_ storage: [Int], range: Range<Int>, excluding excluded: [Int], excludedRange: Range<Int>,
         generation: UInt64?, recentRemovals: [Int]) {
        self.storage = storage
        self.range = range
        self.excluded = excluded
        self.excludedRange = excludedRange
        self.generation = generation
        self.recentRemovals = recentRemovals
    }

    public init(arrayLiteral elements: Int...) { self.init(elements) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { range.count - excludedRange.count }

    /// The `i`-th visible id: the first storage position with i + 1 visible ids up to it
    /// (a binary search; sequential reads go through the iterator instead).
    public subscript(i: Int) -> Int {
        if excludedRange.isEmpty { return storage[range.lowerBound + i] }
        var lo = range.lowerBound + i, hi = range.upperBound - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if visibleCount(through: storage[mid]) < i + 1 { lo = mid + 1 } else { hi = mid }
        }
        return storage[lo]
    }

    public struct Iterator: IteratorProtocol {
        let list: ShareIDList
        var p: Int, e: Int
        public mutating func next() -> Int? {
            while p < list.range.upperBound {
                let id = list.storage[p]
                p += 1
                if e < list.excludedRange.upperBound && list.excluded[e] == id { e += 1; continue }
                return id
            }
            return nil
        }
    }

    public func makeIterator() -> Iterator { Iterator(list: self, p: range.lowerBound, e: excludedRange.lowerBound) }

    /// The iterator's first id, without copying the list into an iterator.
    public var first: Int? {
        var e = excludedRange.lowerBound
        for p in range {
            let id = storage[p]
            if e < excludedRange.upperBound && excluded[e] == id { e += 1; continue }
            return id
        }
        return nil
    }

    /// Visible ids ≤ `id`.
    func visibleCount(through id: Int) -> Int {
        Self.upperBound(id, in: storage, range) - range.lowerBound
            - (Self.upperBound(id, in: excluded, excludedRange) - excludedRange.lowerBound)
    }

    /// First position whose id is greater than `id`. O(log n); searched from the end by
    /// doubling steps, so an answer near the end (a receiver's newest kept id: only a few ids
    /// were added since) costs a few probes.
    func upperBound(_ id: Int) -> Int { visibleCount(through: id) }

    /// First position in `a[r]` (ascending) whose value is greater than `id`, galloping from the end.
    static func upperBound(_ id: Int, in a: [Int], _ r: Range<Int>) -> Int {
        var hi = r.upperBound, step = 1
        while hi - step >= r.lowerBound && a[hi - step] > id { hi -= step; step *= 2 }
        var lo = Swift.max(hi - step, r.lowerBound)
        while lo < hi {
            let mid = (lo + hi) / 2
            if a[mid] <= id { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The ids greater than `id` (a request's ids: no allocation while they are consecutive).
    func ids(after id: Int) -> ShareIDs {
        ids(from: Self.upperBound(id, in: storage, range), Self.upperBound(id, in: excluded, excludedRange))
    }

    /// The ids greater than `id` if exactly `n` visible ids are ≤ `id` (`upperBound(id) == n`),
    /// else nil: one pair of searches for both.
    func ids(after id: Int, ifVisibleThrough n: Int) -> ShareIDs? {
        let p = Self.upperBound(id, in: storage, range), e = Self.upperBound(id, in: excluded, excludedRange)
        guard p - range.lowerBound - (e - excludedRange.lowerBound) == n else { return nil }
        return ids(from: p, e)
    }

    /// The visible ids from storage position `p` on, `e` the first excluded position not before
    /// it. Reads the arrays in place (an `Iterator` copied the list: three retains).
    private func ids(from p: Int, _ e: Int) -> ShareIDs {
        var out = ShareIDs(), e = e
        for q in p..<range.upperBound {
            let id = storage[q]
            if e < excludedRange.upperBound && excluded[e] == id { e += 1; continue }
            out.append(id)
        }
        return out
    }

    public static func == (a: ShareIDList, b: ShareIDList) -> Bool { a.elementsEqual(b) }
}
