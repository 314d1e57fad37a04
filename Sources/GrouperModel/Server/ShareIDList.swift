/// The ids a `transfer/list` returns, ascending: a read-only view of the server's list for
/// that user, so answering a list copies nothing (the thesis's endpoint returns every id
/// visible to the caller on every call; building that array took most of a long run).
///
/// The view is the ids of `storage[range]` that `viewer` may list: a server keeps one list per
/// group, each id with its sender and receiver (`ListedShare`), so ~100 members share one array
/// and a member's few hidden ids (its own multicasts, unicasts to others) are told apart by
/// those two fields as they are read. Only their number is kept per member (`hiddenCount`):
/// a list reads no per-member array, on the server nor on the device (`UntrustedServer+Lists`).
///
/// `generation` counts the ids removed from the list anywhere but its front (a re-put
/// replacing a share, a restart without data); TTL sweeps remove from the front and do not
/// count. It is not part of the reply's content (equality ignores it): receivers use it only
/// to skip a full comparison with the ids they fetched before when nothing in the middle went
/// away, or when the few ids that did are in `recentRemovals` (`SeenShareIDs`).
public struct ShareIDList: RandomAccessCollection, Equatable, Sendable, ExpressibleByArrayLiteral {
    private let storage: [ListedShare]
    private let range: Range<Int>
    /// The user index the list is for (`ListedShare.isHidden(from:)`).
    private let viewer: Int32
    /// How many ids of `storage[range]` are hidden from `viewer`.
    private let hiddenCount: Int
    /// nil: not the server's whole list for the user (a misbehaving server's filtered list,
    /// or a list built by hand), so receivers take no shortcut and forget nothing from it.
    public let generation: UInt64?
    /// The last few ids removed from the middle, oldest first (the last `generation` bumps).
    public let recentRemovals: [Int]

    /// Every id of `ids` (ascending), or of `ids[range]`.
    public init(_ ids: [Int], range: Range<Int>? = nil, generation: UInt64? = nil, recentRemovals: [Int] = []) {
        self.init(ids.map { ListedShare(id: $0) }, range: range ?? ids.indices, viewer: ListedShare.everyone,
                  hiddenCount: 0, generation: generation, recentRemovals: recentRemovals)
    }

    /// The ids of `storage[range]` (ascending) that `viewer` may list, `hiddenCount` of them hidden.
    init(_ storage: [ListedShare], range: Range<Int>, viewer: Int32, hiddenCount: Int,
         generation: UInt64?, recentRemovals: [Int]) {
        self.storage = storage
        self.range = range
        self.viewer = viewer
        self.hiddenCount = hiddenCount
        self.generation = generation
        self.recentRemovals = recentRemovals
    }

    public init(arrayLiteral elements: Int...) { self.init(elements) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { range.count - hiddenCount }

    @inline(__always)
    private func isVisible(_ p: Int) -> Bool { !storage[p].isHidden(from: viewer) }

    /// The `i`-th visible id (a walk past the hidden ids; sequential reads go through the iterator).
    public subscript(i: Int) -> Int {
        precondition(i >= 0 && i < endIndex, "ShareIDList: index \(i) out of range")
        if hiddenCount == 0 { return storage[range.lowerBound + i].id }
        var left = i
        for p in range where isVisible(p) {
            if left == 0 { return storage[p].id }
            left -= 1
        }
        preconditionFailure("ShareIDList: hidden count out of step with the ids")
    }

    public struct Iterator: IteratorProtocol {
        let list: ShareIDList
        var p: Int
        public mutating func next() -> Int? {
            while p < list.range.upperBound {
                let q = p
                p += 1
                if list.isVisible(q) { return list.storage[q].id }
            }
            return nil
        }
    }

    public func makeIterator() -> Iterator { Iterator(list: self, p: range.lowerBound) }

    /// The iterator's first id, without copying the list into an iterator.
    public var first: Int? {
        for p in range where isVisible(p) { return storage[p].id }
        return nil
    }

    /// Hidden ids among `storage[r]`.
    private func hidden(in r: Range<Int>) -> Int {
        var n = 0
        for p in r where !isVisible(p) { n += 1 }
        return n
    }

    /// Visible ids before storage position `p`: counted on the shorter side of `p` (the
    /// usual `p` is near the end: a receiver's newest kept id), none when nothing is hidden.
    private func visibleBefore(_ p: Int) -> Int {
        guard hiddenCount > 0 else { return p - range.lowerBound }
        if p - range.lowerBound <= range.upperBound - p { return p - range.lowerBound - hidden(in: range.lowerBound..<p) }
        return p - range.lowerBound - (hiddenCount - hidden(in: p..<range.upperBound))
    }

    /// Visible ids ≤ `id`.
    func visibleCount(through id: Int) -> Int { visibleBefore(Self.upperBound(id, in: storage, range)) }

    /// First position whose id is greater than `id`. O(log n) to find it, then a count of the
    /// hidden ids on its shorter side; searched from the end by doubling steps, so an answer
    /// near the end (a receiver's newest kept id: only a few ids were added since) costs a few probes.
    func upperBound(_ id: Int) -> Int { visibleCount(through: id) }

    /// First position in `a[r]` (ascending ids) whose id is greater than `id`, galloping from the end.
    static func upperBound(_ id: Int, in a: [ListedShare], _ r: Range<Int>) -> Int {
        var hi = r.upperBound, step = 1
        while hi - step >= r.lowerBound && a[hi - step].id > id { hi -= step; step *= 2 }
        var lo = Swift.max(hi - step, r.lowerBound)
        while lo < hi {
            let mid = (lo + hi) / 2
            if a[mid].id <= id { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The ids greater than `id` (a request's ids: no allocation while they are consecutive).
    func ids(after id: Int) -> ShareIDs { ids(from: Self.upperBound(id, in: storage, range)).ids }

    /// The ids greater than `id` if exactly `n` visible ids are ≤ `id` (`upperBound(id) == n`),
    /// else nil: one search and one pass over the ids after `id` for both.
    func ids(after id: Int, ifVisibleThrough n: Int) -> ShareIDs? {
        let p = Self.upperBound(id, in: storage, range)
        let (out, hiddenAfter) = ids(from: p)
        guard p - range.lowerBound - (hiddenCount - hiddenAfter) == n else { return nil }
        return out
    }

    /// The visible ids from storage position `p` on, and how many hidden ones were passed.
    /// Reads the array in place (an `Iterator` copied the list: a retain).
    private func ids(from p: Int) -> (ids: ShareIDs, hidden: Int) {
        var out = ShareIDs(), hidden = 0
        for q in p..<range.upperBound {
            if isVisible(q) { out.append(storage[q].id) } else { hidden += 1 }
        }
        return (out, hidden)
    }

    public static func == (a: ShareIDList, b: ShareIDList) -> Bool { a.elementsEqual(b) }
}

/// One id of a group's kept list, with what decides which members may list it (fixed when the
/// share is stored): 16 bytes, so the hidden ids of every member are read beside the ids.
struct ListedShare: Sendable, Equatable {
    var id: Int
    /// User index of the sender (`nobody`: an id listed to everyone).
    var sender: Int32
    /// User index of the receiver of a unicast; −1: a multicast.
    var receiver: Int32

    /// A sender that is no user, and a viewer that is no user (sees every multicast).
    static let nobody: Int32 = -2
    static let everyone: Int32 = -1

    init(id: Int, sender: Int32 = nobody, receiver: Int32 = -1) {
        self.id = id; self.sender = sender; self.receiver = receiver
    }

    /// The listed form of stored share `e`.
    init(_ e: ShareEntity) {
        self.init(id: e.id, sender: Int32(e.sender), receiver: e.receiver.map { Int32($0) } ?? -1)
    }

    /// Whether user `u` may not list it: its own, or a unicast to another member
    /// (`UntrustedServer.canSee`, negated).
    @inline(__always)
    func isHidden(from u: Int32) -> Bool { sender == u || (receiver >= 0 && receiver != u) }
}
