/// The share ids of a `transfer/get` request, in the order asked.
///
/// A receive round asks a server for the ids listed since its last round: the tail of the
/// server's list, which is nearly always a run of consecutive ids (a server numbers its shares
/// one after another). So the ids are kept as a leading run of consecutive ids (its first id
/// and length) and only the ids after it in an array: asking for a run allocates nothing
/// (an array would be one allocation per get, copied into the request and freed by the receiver).
/// Behaves as the array it replaces: same elements, order and equality (`ServerReplyPartsTests`).
public struct ShareIDs: RandomAccessCollection, Equatable, Sendable, ExpressibleByArrayLiteral {
    /// The first `runCount` ids are `runStart, runStart + 1, …`.
    private var runStart = 0
    private var runCount = 0
    /// The ids after the run; the first of them does not continue it.
    private var rest: [Int] = []

    public init() {}

    public init<S: Sequence>(_ ids: S) where S.Element == Int {
        for id in ids { append(id) }
    }

    public init(arrayLiteral elements: Int...) { self.init(elements) }

    /// The consecutive ids `ids` (no allocation).
    init(run ids: ClosedRange<Int>) {
        runStart = ids.lowerBound
        runCount = ids.count
    }

    /// Adds `id` at the end.
    public mutating func append(_ id: Int) {
        if runCount == 0 {
            runStart = id
            runCount = 1
        } else if rest.isEmpty && id > runStart && id == runStart &+ runCount {   // no overflow: id > runStart
            runCount += 1
        } else {
            rest.append(id)
        }
    }

    /// Keeps the first `n` ids (0 ≤ n ≤ count).
    public mutating func keepFirst(_ n: Int) {
        precondition(n >= 0 && n <= count, "ShareIDs: cannot keep \(n) of \(count) ids")
        if n <= runCount {
            runCount = n
            rest = []
        } else {
            rest.removeLast(count - n)
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { runCount + rest.count }

    public subscript(i: Int) -> Int {
        precondition(i >= 0 && i < endIndex, "ShareIDs: index \(i) out of range")
        return i < runCount ? runStart &+ i : rest[i - runCount]
    }

    public static func == (a: ShareIDs, b: ShareIDs) -> Bool { a.elementsEqual(b) }
}
