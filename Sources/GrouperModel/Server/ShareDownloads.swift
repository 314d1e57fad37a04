/// The shares of a `transfer/get` reply, in the order asked.
///
/// A receive round usually asks a server for the one or two ids that are new since the last
/// round, so the first share is kept inline and only the others in an array: a one-share reply
/// allocates nothing (an array would be one allocation per get, freed by the receiver).
/// Behaves as the array it replaces: same elements, order and equality.
public struct ShareDownloads: RandomAccessCollection, Equatable, Sendable, ExpressibleByArrayLiteral {
    /// The first share; nil only when there is none.
    private var head: ShareDownload?
    /// The shares after the first.
    private var tail: [ShareDownload] = []

    public init() {}

    public init<S: Sequence>(_ shares: S) where S.Element == ShareDownload {
        for s in shares { append(s) }
    }

    public init(arrayLiteral elements: ShareDownload...) { self.init(elements) }

    /// Adds `s` at the end (moved in: a server's get passes the copy it just read, so the
    /// reply takes that reference instead of another); `expected` is how many shares the
    /// reply may hold in all (room for them is made when the second arrives).
    public mutating func append(_ s: consuming ShareDownload, expected: Int = 0) {
        guard head != nil else { head = s; return }
        if tail.isEmpty && expected > 2 { tail.reserveCapacity(expected - 1) }
        tail.append(s)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { head == nil ? 0 : 1 + tail.count }

    public subscript(i: Int) -> ShareDownload {
        precondition(i >= 0 && i < endIndex, "ShareDownloads: index \(i) out of range")
        return i == 0 ? head.unsafelyUnwrapped : tail[i - 1]
    }

    public static func == (a: ShareDownloads, b: ShareDownloads) -> Bool { a.elementsEqual(b) }

    /// Hands the shares to `body` in order, each moved out of the reply: when the reply is
    /// its only holder, no reference count is taken or dropped per share (iterating copies
    /// each share, then the reply's end drops it).
    consuming func drain(_ body: (consuming ShareDownload) -> Void) {
        guard let first = head.take() else { return }
        body(first)
        guard !tail.isEmpty else { return }
        tail.withUnsafeMutableBufferPointer { $0.reverse() }   // moves (`Array.reverse` copies through `swapAt`)
        while let s = tail.popLast() { body(s) }
    }
}
