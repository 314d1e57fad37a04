/// A device's partial messages by message id number (`MessageRegistry`), in place of a
/// `[Int32: PartialMessage]`: the messages sit in one dense array (`values`, in no meaningful
/// order: removing one moves the last into its place) and an open-addressing index of a power
/// of two slots, at most half full, finds a number's place by linear probing from its low bits.
/// A lookup hashes no key through `Hasher`, and a new message is built in its place instead of
/// being copied into the table and destroyed. The registry numbers messages in the order they
/// are first seen, so the messages of one round have nearby numbers: their home slots share a
/// few cache lines of the index, which is cold by the time a device's replies arrive (a
/// multiplicative hash would give each number a line of its own).
struct PartialTable: Sendable {
    /// The partial messages; `numbers[i]` is the id number of `values[i]`.
    private(set) var values: [PartialMessage] = []
    private(set) var numbers: [Int32] = []
    /// Slot -> 1 + index into `values`; 0 is empty.
    private var slots: [Int32] = []

    var count: Int { values.count }
    /// Messages the table holds without growing its index or its arrays.
    var capacity: Int { Swift.max(slots.count / 2, values.capacity) }

    init(minimumCapacity: Int = 0) {
        if minimumCapacity > 0 {
            values.reserveCapacity(minimumCapacity)
            numbers.reserveCapacity(minimumCapacity)
            slots = [Int32](repeating: 0, count: Self.slotCount(for: minimumCapacity))
        }
    }

    /// The index in `values` of message number `n`, if the table holds it.
    func index(of n: Int32) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var s = Self.home(n, mask)
        while true {
            let e = Int(slots[s])
            if e == 0 { return nil }
            if numbers[e - 1] == n { return e - 1 }
            s = (s + 1) & mask
        }
    }

    subscript(at i: Int) -> PartialMessage {
        get { values[i] }
        _modify { yield &values[i] }
    }

    /// Adds message number `n` (not in the table) with partial message `p`; returns its index.
    @discardableResult
    mutating func insert(_ n: Int32, _ p: consuming PartialMessage) -> Int {
        if 2 * (values.count + 1) > slots.count { rehash(slots: Self.slotCount(for: values.count + 1)) }
        let mask = slots.count - 1
        var s = Self.home(n, mask)
        while slots[s] != 0 { s = (s + 1) & mask }
        values.append(p)
        numbers.append(n)
        slots[s] = Int32(values.count)
        return values.count - 1
    }

    /// Removes and returns the partial message at index `i`; the last one takes its index.
    @discardableResult
    mutating func remove(at i: Int) -> PartialMessage {
        clearSlot(slot(of: i))
        let last = values.count - 1
        if i != last {
            slots[slot(of: last)] = Int32(i + 1)
            numbers[i] = numbers[last]
        }
        numbers.removeLast()
        // Moves, not copies (`swapAt` copied a partial message through a temporary).
        var p = values.removeLast()
        if i != last { swap(&p, &values[i]) }
        return p
    }

    /// Removes message number `n` if the table holds it.
    mutating func remove(_ n: Int32) {
        if let i = index(of: n) { remove(at: i) }
    }

    /// The same messages in storage sized for them (the index and arrays never shrink).
    func compacted() -> PartialTable {
        var t = PartialTable(minimumCapacity: values.count)
        for i in values.indices { t.insert(numbers[i], values[i]) }
        return t
    }

    /// The slot holding index `i`.
    private func slot(of i: Int) -> Int {
        let mask = slots.count - 1, tag = Int32(i + 1)
        var s = Self.home(numbers[i], mask)
        while slots[s] != tag { s = (s + 1) & mask }
        return s
    }

    /// Empties slot `hole`, moving later entries of its probe run back so every entry stays
    /// reachable from its home slot without passing an empty one.
    private mutating func clearSlot(_ start: Int) {
        let mask = slots.count - 1
        var hole = start, j = (start + 1) & mask
        while slots[j] != 0 {
            let h = Self.home(numbers[Int(slots[j]) - 1], mask)
            // The entry at j may move to the hole unless its home lies cyclically in (hole, j].
            let homeAfterHole = hole <= j ? (h > hole && h <= j) : (h > hole || h <= j)
            if !homeAfterHole {
                slots[hole] = slots[j]
                hole = j
            }
            j = (j + 1) & mask
        }
        slots[hole] = 0
    }

    private mutating func rehash(slots count: Int) {
        slots = [Int32](repeating: 0, count: count)
        let mask = count - 1
        for (i, n) in numbers.enumerated() {
            var s = Self.home(n, mask)
            while slots[s] != 0 { s = (s + 1) & mask }
            slots[s] = Int32(i + 1)
        }
    }

    /// A power of two at least twice `entries` (and at least 16).
    private static func slotCount(for entries: Int) -> Int {
        var c = 16
        while c < 2 * entries { c *= 2 }
        return c
    }

    /// A number's home slot: its low bits.
    private static func home(_ n: Int32, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: UInt32(bitPattern: n)) & mask
    }
}
