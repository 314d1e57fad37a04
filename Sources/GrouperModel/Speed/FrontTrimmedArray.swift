/// An array whose front is removed in O(1) amortised: a server's shares, which the TTL sweep
/// removes from the front (the oldest) while puts append at the back. `Array.removeFirst(k)`
/// moves every remaining element; here the removed slots are emptied (their shares released at
/// once) and the live ones are moved down only once the empty front is a quarter of the storage
/// (a third of what is left: each element moved at most three times per element removed, and the
/// storage at most a third longer than an array's).
/// Indices run from 0 like an array's. `FrontTrimmedArrayTests` runs it against `Array`.
public struct FrontTrimmedArray<Element>: RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
    /// `storage[head...]` are the elements; `storage[..<head]` are nil.
    private var storage: [Element?] = []
    private var head = 0

    public init() {}

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.count - head }

    public subscript(i: Int) -> Element {
        get {
            precondition(i >= 0 && i < endIndex, "index out of range")
            return storage[head + i]!
        }
        set {
            precondition(i >= 0 && i < endIndex, "index out of range")
            storage[head + i] = newValue
        }
    }

    public mutating func append(_ e: Element) { storage.append(e) }

    public mutating func replaceSubrange<C: Collection>(_ r: Range<Int>, with new: C) where C.Element == Element {
        precondition(r.lowerBound >= 0 && r.upperBound <= endIndex, "range out of bounds")
        storage.replaceSubrange((head + r.lowerBound)..<(head + r.upperBound), with: new.lazy.map { Optional($0) })
    }

    /// Removes the first `k` elements without moving the others (until the empty front is a
    /// quarter of the storage).
    public mutating func removeFirst(_ k: Int) {
        precondition(k >= 0 && k <= count, "can't remove more elements than the array holds")
        for i in head..<(head + k) { storage[i] = nil }
        head += k
        if head * 4 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
    }

    public mutating func removeAll(keepingCapacity keep: Bool = false) {
        storage.removeAll(keepingCapacity: keep)
        head = 0
    }
}

extension FrontTrimmedArray: Equatable where Element: Equatable {
    public static func == (a: Self, b: Self) -> Bool { a.elementsEqual(b) }
}

extension FrontTrimmedArray: Sendable where Element: Sendable {}
