/// A device's partial messages by message id number (`MessageRegistry`), in place of a
/// `[Int32: PartialMessage]`: the messages sit in one dense array (`values`, in no meaningful
/// order: removing one moves the last into its place). The numbers of the first four are kept
/// inline, beside `count`: between two rounds a device mostly waits for one message or two,
/// and a lookup among them reads no array (the device's arrays are cold by the time its
/// replies arrive, and each one reached is a cache miss). The others are found through an
/// open-addressing index of a power of two slots, at most half full, by a multiplicative hash
/// and linear probing (a number's low bits alone would put a run of consecutive numbers in one
/// probe run, which each removal walks to its end). A lookup hashes no key through `Hasher`,
/// and a new message is built in its place instead of being copied into the table and destroyed.
struct PartialTable: Sendable {
    static let inlineCount = 4
    /// The partial messages; `number(at: i)` is the id number of `values[i]`.
    private(set) var values: [PartialMessage] = []
    /// `values.count`, beside the inline numbers.
    private(set) var count = 0
    /// The numbers of `values[0..<4]` (those below `count`).
    private var n0: Int32 = 0, n1: Int32 = 0, n2: Int32 = 0, n3: Int32 = 0
    /// The numbers of `values[4...]`.
    private var rest: [Int32] = []
    /// Slot -> 1 + index into `values` of a message at index 4 or above; 0 is empty.
    private var slots: [Int32] = []

    /// The id numbers of `values`, in the same order.
    var numbers: [Int32] { (0..<Swift.min(count, Self.inlineCount)).map(number(at:)) + rest }
    /// Messages the table holds without growing its index or its arrays.
    var capacity: Int { Swift.max(slots.count / 2 + Self.inlineCount, values.capacity) }

    init(minimumCapacity: Int = 0) {
        if minimumCapacity > 0 { values.reserveCapacity(minimumCapacity) }
        if minimumCapacity > Self.inlineCount {
            rest.reserveCapacity(minimumCapacity - Self.inlineCount)
            slots = [Int32](repeating: 0, count: Self.slotCount(for: minimumCapacity - Self.inlineCount))
        }
    }

    /// The id number of `values[i]`.
    @inline(__always)
    func number(at i: Int) -> Int32 {
        switch i {
        case 0: return n0
        case 1: return n1
        case 2: return n2
        case 3: return n3
        default: return rest[i - Self.inlineCount]
        }
    }

    @inline(__always)
    private mutating func setNumber(_ n: Int32, at i: Int) {
        switch i {
        case 0: n0 = n
        case 1: n1 = n
        case 2: n2 = n
        case 3: n3 = n
        default: rest[i - Self.inlineCount] = n
        }
    }

    /// The index in `values` of message number `n`, if the table holds it.
    func index(of n: Int32) -> Int? {
        if count > 0 && n0 == n { return 0 }
        if count > 1 && n1 == n { return 1 }
        if count > 2 && n2 == n { return 2 }
        if count > 3 && n3 == n { return 3 }
        guard count > Self.inlineCount else { return nil }
        let mask = slots.count - 1
        var s = Self.home(n, mask)
        while true {
            let e = Int(slots[s])
            if e == 0 { return nil }
            if rest[e - 1 - Self.inlineCount] == n { return e - 1 }
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
        let i = count
        values.append(p)
        count += 1
        guard i >= Self.inlineCount else {
            setNumber(n, at: i)
            return i
        }
        rest.append(n)
        let entries = count - Self.inlineCount
        if 2 * entries > slots.count {
            rehash(slots: Self.slotCount(for: entries))   // places `n` too
        } else {
            let mask = slots.count - 1
            var s = Self.home(n, mask)
            while slots[s] != 0 { s = (s + 1) & mask }
            slots[s] = Int32(i + 1)
        }
        return i
    }

    /// Removes and returns the partial message at index `i`; the last one takes its index.
    @discardableResult
    mutating func remove(at i: Int) -> PartialMessage {
        let last = count - 1
        if i >= Self.inlineCount { clearSlot(slot(of: i)) }
        if i != last {
            let moved = number(at: last)
            if last >= Self.inlineCount {
                let s = slot(of: last)
                if i >= Self.inlineCount { slots[s] = Int32(i + 1) } else { clearSlot(s) }
            }
            setNumber(moved, at: i)
        }
        if last >= Self.inlineCount { rest.removeLast() }
        count -= 1
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
        var t = PartialTable(minimumCapacity: count)
        for i in values.indices { t.insert(number(at: i), values[i]) }
        return t
    }

    /// The slot holding index `i` (≥ 4).
    private func slot(of i: Int) -> Int {
        let mask = slots.count - 1, tag = Int32(i + 1)
        var s = Self.home(number(at: i), mask)
        while slots[s] != tag { s = (s + 1) & mask }
        return s
    }

    /// Empties slot `hole`, moving later entries of its probe run back so every entry stays
    /// reachable from its home slot without passing an empty one.
    private mutating func clearSlot(_ start: Int) {
        let mask = slots.count - 1
        var hole = start, j = (start + 1) & mask
        while slots[j] != 0 {
            let h = Self.home(number(at: Int(slots[j]) - 1), mask)
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
        for (k, n) in rest.enumerated() {
            var s = Self.home(n, mask)
            while slots[s] != 0 { s = (s + 1) & mask }
            slots[s] = Int32(k + Self.inlineCount + 1)
        }
    }

    /// A power of two at least twice `entries` (and at least 16).
    private static func slotCount(for entries: Int) -> Int {
        var c = 16
        while c < 2 * entries { c *= 2 }
        return c
    }

    private static func home(_ n: Int32, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(UInt32(bitPattern: n)) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }
}
