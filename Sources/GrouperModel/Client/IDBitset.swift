/// A set of dense non-negative numbers (message id numbers from `MessageRegistry`) as bits:
/// one bit per message id of the run, so a device's "already rebuilt" set stays a few KB
/// where a set of id strings took about 100 bytes per rebuilt message.
struct IDBitset: Sendable {
    private var words: [UInt64] = []

    func contains(_ n: Int32) -> Bool {
        let w = Int(n) >> 6
        return w < words.count && words[w] & (1 << UInt64(n & 63)) != 0
    }

    mutating func insert(_ n: Int32) {
        let w = Int(n) >> 6
        if w >= words.count { words.append(contentsOf: repeatElement(0, count: w + 1 - words.count)) }
        words[w] |= 1 << UInt64(n & 63)
    }

    /// Bytes of storage (for `RetainedState`).
    var retainedBytes: Int { words.capacity * 8 }

    /// Members (for tests and live-state counts).
    var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }
}
