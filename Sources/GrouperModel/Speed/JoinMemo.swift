import Foundation

/// The joins of recently rebuilt messages, shared by every device of a run.
///
/// The receivers of a message download the same share bytes from the same servers, and a
/// join is a pure function of the shares it is given, so the first device to join a set of
/// shares computes the secret and later devices with equal shares take it (a tampered, stale
/// or garbled share has other bytes and is joined on its own). Under `first-k` a gf256 join
/// reads only the first k shares after checking every share given, so the check runs on every
/// call and the memo is keyed by the first k; other schemes are keyed by every share given.
/// Direct-mapped on (message number, x of the shares used) with a fixed number of slots, so
/// memory does not grow with the run. Lookups change only speed, never a result or an error.
/// Single-threaded, one per run.
final class JoinMemo {
    private struct Slot {
        var number: Int32 = -1
        var k = 0
        var shares: [[UInt8]] = []
        var secret: [UInt8] = []
        var work = SharingWork()

        /// Takes a new join in place: the first `used` shares overwrite the slot's own array
        /// when it has as many (the slot's last join used as many), so a miss then allocates
        /// and frees no array for them.
        mutating func hold(_ number: Int32, k: Int, shares given: [[UInt8]], used: Int, secret: [UInt8], work: SharingWork) {
            self.number = number
            self.k = k
            if shares.count == used {
                shares.withUnsafeMutableBufferPointer { s in
                    for j in s.indices { s[j] = given[j] }
                }
            } else {
                shares = Array(given.prefix(used))
            }
            self.secret = secret
            self.work = work
        }
    }

    static let slotCount = 1024
    private var slots = [Slot](repeating: Slot(), count: slotCount)
    private(set) var hits = 0
    private(set) var misses = 0

    /// `scheme.join(shares, k: k)` for message number `number`, joined at most once while the
    /// slot holds equal shares. Throws exactly what the join throws.
    func join(_ shares: [[UInt8]], k: Int, number: Int32, scheme: any SecretSharingScheme)
        throws(SharingError) -> (secret: [UInt8], work: SharingWork) {
        let used: Int
        if scheme.kind == .gf256 {
            try GF256Sharing.validateJoin(shares, k: k)   // the same checks `join` starts with
            used = k
        } else {
            used = shares.count
        }
        let i = Self.slotIndex(number, shares, used: used)
        if slots[i].number == number && slots[i].k == k && Self.same(slots[i].shares, shares, count: used) {
            hits += 1
            return (slots[i].secret, slots[i].work)
        }
        misses += 1
        let (secret, work) = try scheme.join(shares, k: k)
        slots[i].hold(number, k: k, shares: shares, used: used, secret: secret, work: work)
        return (secret, work)
    }

    /// The slot of a message number and the first bytes (x) of the shares used, so that the
    /// few share sets of one message (which servers answered) do not evict each other.
    private static func slotIndex(_ number: Int32, _ shares: [[UInt8]], used: Int) -> Int {
        var h = UInt64(UInt32(bitPattern: number)) &* 0x9E37_79B9_7F4A_7C15
        for s in shares.prefix(used) { h = (h ^ UInt64(s.first ?? 0)) &* 0xBF58_476D_1CE4_E5B9 }
        return Int(truncatingIfNeeded: h >> 40) & (slotCount - 1)
    }

    /// The first `count` shares of `b` equal `a` (which holds `count` shares), byte for byte.
    private static func same(_ a: [[UInt8]], _ b: [[UInt8]], count: Int) -> Bool {
        guard a.count == count, b.count >= count else { return false }
        for j in 0..<count where !ByteArrays.equal(a[j], b[j]) { return false }
        return true
    }
}

/// Byte equality of two byte arrays: one pointer test when both share storage, else `memcmp`
/// (the generic array `==` compares element by element).
enum ByteArrays {
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in
                a.isEmpty || pa.baseAddress == pb.baseAddress || memcmp(pa.baseAddress!, pb.baseAddress!, a.count) == 0
            }
        }
    }
}
