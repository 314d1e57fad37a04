/// The `first-k` rebuilds of recently rebuilt messages — the decoded message, the secret's
/// length and the join's work — shared by every device of a run.
///
/// The receivers of a message download the very same share buffers from the servers (a
/// download hands out the stored bytes, not a copy), and a join followed by a decode is a pure
/// function of the shares given. So when a device has, for a message, exactly the buffers a
/// device rebuilt it from before (same storage, same order), the outcome is that device's; the
/// memo skips building the share list, the join's checks and memo, and the decode cache's byte
/// comparison. Any other share set (a tampered, stale or garbled share is another buffer, and
/// so is a share a server sent again) misses and is rebuilt on its own. Only rebuilds that
/// joined and decoded are kept. An entry keeps its buffers alive, so a buffer's address is
/// never reused while an entry names it.
///
/// Direct-mapped on the message's dense id number with a fixed number of slots, so memory does
/// not grow with the run. Lookups change only speed, never a result. Single-threaded, one per run.
final class RebuildMemo {
    /// What a rebuild gave: the message, the rebuilt secret's length, the join's work. A value
    /// whose one reference is the message's box: handing one around retains that box alone
    /// (a class would add its own reference count, taken and dropped per rebuilt message).
    struct Outcome: Sendable {
        let message: GrouperMessage
        let secretCount: Int
        let work: SharingWork
    }

    private struct Slot {
        var number: Int32 = -1
        var k = 0
        /// The buffers joined, which the slot keeps alive, and their addresses (`ShareBuffers.address`).
        var shares: [[UInt8]] = []
        var addresses: [UInt] = []
        var outcome: Outcome?

        /// Takes a new rebuild in place: the addresses overwrite the slot's own array when it
        /// has as many (the slot's last rebuild had as many shares), so recording then
        /// allocates and frees nothing.
        mutating func hold(_ number: Int32, k: Int, shares: [[UInt8]], _ outcome: Outcome) {
            self.number = number
            self.k = k
            self.shares = shares
            self.outcome = outcome
            guard addresses.count == shares.count else { addresses = shares.map(ShareBuffers.address); return }
            addresses.withUnsafeMutableBufferPointer { a in
                for j in a.indices { a[j] = ShareBuffers.address(shares[j]) }
            }
        }
    }

    static let slotCount = 1024
    private var slots = [Slot](repeating: Slot(), count: slotCount)
    private(set) var hits = 0
    private(set) var misses = 0

    /// The outcome recorded for message `number` rebuilt with threshold `k` from exactly the
    /// share buffers of `p` (in server order), or nil.
    func outcome(_ number: Int32, k: Int, _ p: PartialMessage) -> Outcome? {
        let i = Int(number) & (Self.slotCount - 1)
        guard slots[i].number == number, slots[i].k == k, let o = slots[i].outcome,
              p.hasExactly(addresses: slots[i].addresses) else {
            misses += 1
            return nil
        }
        hits += 1
        return o
    }

    /// Records that `shares` (in server order) of message `number` rebuilt to `outcome`.
    func record(_ number: Int32, k: Int, shares: [[UInt8]], _ outcome: Outcome) {
        slots[Int(number) & (Self.slotCount - 1)].hold(number, k: k, shares: shares, outcome)
    }
}

/// Whether two byte arrays are the very same buffer (then they hold the same bytes).
enum ShareBuffers {
    static func identical(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in pa.baseAddress == pb.baseAddress } }
    }

    /// The address of `a`'s elements (0 when empty): while both arrays are alive, equal
    /// addresses of non-empty arrays mean the very same buffer (`identical`); two empty arrays
    /// have equal addresses.
    static func address(_ a: [UInt8]) -> UInt {
        a.isEmpty ? 0 : a.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }
}

extension PartialMessage {
    /// Whether the collected shares, in server order, are the buffers `shares`.
    func hasExactly(_ shares: [[UInt8]]) -> Bool {
        guard count == shares.count else { return false }
        var i = 0
        for j in slots.indices {
            guard let slot = slots[j] else { continue }
            if !ShareBuffers.identical(slot.share, shares[i]) { return false }
            i += 1
        }
        return true
    }

    /// `hasExactly` given the addresses (`ShareBuffers.address`) of buffers kept alive: compares
    /// the addresses each slot keeps, loading neither the shares' boxes nor their buffers.
    func hasExactly(addresses: [UInt]) -> Bool {
        guard count == addresses.count else { return false }
        var i = 0
        for j in slots.indices {
            guard let slot = slots[j] else { continue }
            if slot.address != addresses[i] { return false }
            i += 1
        }
        return true
    }
}
