/// The ids a `transfer/list` returns, ascending: a read-only view of the server's list for
/// that user, so answering a list copies nothing (the thesis's endpoint returns every id
/// visible to the caller on every call; building that array took most of a long run).
///
/// `generation` counts the ids removed from that user's list anywhere but its front (a
/// re-put replacing a share, a restart without data); TTL sweeps remove from the front and do
/// not count. It is not part of the reply's content (equality ignores it): receivers use it
/// only to skip a full comparison with the ids they fetched before when nothing in the middle
/// went away, or when the few ids that did are in `recentRemovals` (`SeenShareIDs`).
public struct ShareIDList: RandomAccessCollection, Equatable, Sendable, ExpressibleByArrayLiteral {
    private let storage: [Int]
    private let range: Range<Int>
    /// nil: not the server's whole list for the user (a misbehaving server's filtered list,
    /// or a list built by hand), so receivers take no shortcut and forget nothing from it.
    public let generation: UInt64?
    /// The last few ids removed from the middle, oldest first (the last `generation` bumps).
    public let recentRemovals: [Int]

    public init(_ storage: [Int], range: Range<Int>? = nil, generation: UInt64? = nil, recentRemovals: [Int] = []) {
        self.storage = storage
        self.range = range ?? storage.indices
        self.generation = generation
        self.recentRemovals = recentRemovals
    }

    public init(arrayLiteral elements: Int...) { self.init(elements) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { range.count }
    public subscript(i: Int) -> Int { storage[range.lowerBound + i] }

    /// First position whose id is greater than `id`. O(log n); searched from the end by
    /// doubling steps, so an answer near the end (a receiver's newest kept id: only a few ids
    /// were added since) costs a few probes.
    func upperBound(_ id: Int) -> Int {
        var hi = count, step = 1
        while hi - step >= 0 && self[hi - step] > id { hi -= step; step *= 2 }
        var lo = Swift.max(hi - step, 0)
        while lo < hi {
            let mid = (lo + hi) / 2
            if self[mid] <= id { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The ids from position `i` on, as an array (one block copy).
    func ids(from i: Int) -> [Int] { Array(storage[(range.lowerBound + i)..<range.upperBound]) }

    public static func == (a: ShareIDList, b: ShareIDList) -> Bool { a.elementsEqual(b) }
}
