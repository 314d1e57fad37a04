/// The normal messages one device holds (received or sent), by sender then sequence, as
/// handles into the run's `MessageRegistry`.
///
/// Almost every device holds the same message under a (sender, sequence): the one the run
/// first held there (`HeldIndex`, one 4-byte handle per message for the whole run). So a
/// device keeps which sequences it holds, and a handle only where it holds a different
/// message (a garbled or replaced one: `exceptions`). Sequences start at 1 and are dense per
/// sender; one far beyond the highest held (only a garbled or hostile message could carry
/// one) goes to a small sorted overflow instead of growing the bits.
///
/// A sender's held sequences are nearly always 1…prefix: messages arrive in order. So each
/// sender slot has one small record (`Sender`: the prefix, the highest held, and whether its
/// cold lists have anything), all in one array, and holding the next sequence of a sender
/// reads and writes only that record. Only while a sender has a hole (a sequence above the
/// prefix held) do its sequences go to bits (`above`), until the hole fills. A device touches
/// its held messages once per round, after the other devices ran: each array header and
/// inner array reached is a cache miss, so the in-order path reaches one.
/// `CompactHistoryTests` compares it with a plain map.
struct HeldMessages: Sendable {
    private struct Sender: Sendable {
        /// Sequences 1…prefix are held densely.
        var prefix = 0
        /// Highest sequence held densely (0: none; `prefix` unless `spilled`).
        var top = 0
        /// A sequence above `prefix` is held: `above[slot]` has a bit per dense sequence.
        var spilled = false
        /// `exceptions[slot]` / `overflow[slot]` are not empty.
        var hasExceptions = false, hasOverflow = false
    }

    /// Per sender slot of the run's `HeldIndex`.
    private var senders: [Sender] = []
    /// Per sender slot with `spilled`: bit q−1 set when sequence q > prefix is held densely
    /// (bits at or below the prefix mean nothing). Only as long as the slots that spilled.
    private var above: [[UInt64]] = []
    /// Densely held sequences whose handle is not the run's first one, sorted by sequence
    /// (only as long as the slots that have any, like `overflow`).
    private var exceptions: [[(sequence: Int, handle: Int32)]] = []
    private var overflow: [[(sequence: Int, handle: Int32)]] = []
    private(set) var count = 0
    static let maxGap = 4096

    /// Holds `handle` as (sender, sequence); a later message with the same pair replaces it.
    mutating func set(sender: String, sequence: Int, handle: Int32, index: HeldIndex) {
        set(slot: index.slot(of: sender), sequence: sequence, handle: handle, index: index)
    }

    /// `set(sender:…)` with the sender's `HeldIndex` slot already looked up.
    mutating func set(slot s: Int, sequence: Int, handle: Int32, index: HeldIndex) {
        while senders.count <= s { senders.append(Sender()) }
        if sequence >= 1 && sequence <= senders[s].top + Self.maxGap {
            if !testAndSet(s, sequence) { count += 1 }
            let first = index.adopt(slot: s, sequence: sequence, handle: handle)
            // Putting nil into an empty list changes nothing: most senders have no exceptions.
            if first != handle || senders[s].hasExceptions {
                Self.grow(&exceptions, to: s)
                Self.put(&exceptions[s], sequence, first == handle ? nil : handle)
                senders[s].hasExceptions = !exceptions[s].isEmpty
            }
            if senders[s].hasOverflow && Self.find(overflow[s], sequence) != nil {  // now in range
                Self.put(&overflow[s], sequence, nil)
                senders[s].hasOverflow = !overflow[s].isEmpty
                count -= 1
            }
            return
        }
        Self.grow(&overflow, to: s)
        if Self.find(overflow[s], sequence) == nil { count += 1 }
        Self.put(&overflow[s], sequence, handle)
        senders[s].hasOverflow = true
    }

    /// Every held handle, senders in ascending order, sequences ascending within a sender.
    func handover(index: HeldIndex) -> [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(count)
        for s in senders.indices.sorted(by: { index.senders[$0] < index.senders[$1] }) {
            let r = senders[s]
            let exceptions = r.hasExceptions ? self.exceptions[s] : []
            var merged: [(sequence: Int, handle: Int32)] = []
            func add(_ q: Int) { merged.append((q, Self.find(exceptions, q) ?? index.first(slot: s, sequence: q))) }
            if r.prefix > 0 { for q in 1...r.prefix { add(q) } }
            if r.spilled {
                for (w, word) in above[s].enumerated() where word != 0 {
                    for b in 0..<64 where word & (1 << UInt64(b)) != 0 && w * 64 + b + 1 > r.prefix { add(w * 64 + b + 1) }
                }
            }
            if r.hasOverflow { merged.append(contentsOf: overflow[s]) }
            merged.sort { $0.sequence < $1.sequence }
            out.append(contentsOf: merged.map(\.handle))
        }
        return out
    }

    /// Bytes of the per-device storage (for `RetainedState`): records, bits, exceptions, overflow.
    var retainedBytes: Int {
        senders.capacity * MemoryLayout<Sender>.stride + above.reduce(0) { $0 + $1.capacity * 8 }
            + (exceptions + overflow).reduce(0) { $0 + $1.capacity * 16 }
    }

    /// Makes `lists[s]` exist.
    private static func grow<T>(_ lists: inout [[T]], to s: Int) {
        while lists.count <= s { lists.append([]) }
    }

    /// Holds dense sequence q of slot s; returns whether it was held before. In order (the
    /// next after the prefix, no hole) it changes only the slot's record.
    private mutating func testAndSet(_ s: Int, _ q: Int) -> Bool {
        var r = senders[s]
        if q <= r.prefix { return true }
        if q == r.prefix + 1 && !r.spilled {
            r.prefix = q
            r.top = q
            senders[s] = r
            return false
        }
        if !r.spilled {
            Self.grow(&above, to: s)
            r.spilled = true
        }
        let w = (q - 1) >> 6, mask = UInt64(1) << UInt64((q - 1) & 63)
        if w >= above[s].count { above[s].append(contentsOf: repeatElement(0, count: w + 1 - above[s].count)) }
        let was = above[s][w] & mask != 0
        above[s][w] |= mask
        r.top = max(r.top, q)
        while r.prefix < r.top && above[s][r.prefix >> 6] & (UInt64(1) << UInt64(r.prefix & 63)) != 0 { r.prefix += 1 }
        if r.prefix == r.top {   // the hole filled: back to the record alone
            r.spilled = false
            above[s].removeAll(keepingCapacity: true)
        }
        senders[s] = r
        return was
    }

    private static func find(_ list: [(sequence: Int, handle: Int32)], _ q: Int) -> Int32? {
        list.first { $0.sequence == q }?.handle
    }

    /// Sets (q → handle) in a list sorted by sequence, or removes q when `handle` is nil.
    private static func put(_ list: inout [(sequence: Int, handle: Int32)], _ q: Int, _ handle: Int32?) {
        if let i = list.firstIndex(where: { $0.sequence == q }) {
            if let handle { list[i].handle = handle } else { list.remove(at: i) }
            return
        }
        guard let handle else { return }
        list.append((q, handle))
        list.sort { $0.sequence < $1.sequence }
    }
}

/// Run-wide part of `HeldMessages`: a dense slot per sender, and per (sender, sequence) the
/// first handle any device held there. Single-threaded, one per run.
final class HeldIndex {
    private var slotBySender = StringNumbering()
    /// Sender of each slot.
    var senders: [String] { slotBySender.strings }
    private var firsts: [[Int32]] = []

    func slot(of sender: String) -> Int {
        let s = Int(slotBySender.number(of: sender))
        if s == firsts.count { firsts.append([]) }
        return s
    }

    /// The first handle held under (slot, sequence), recording `handle` if there is none.
    func adopt(slot s: Int, sequence q: Int, handle: Int32) -> Int32 {
        if firsts[s].count < q { firsts[s].append(contentsOf: repeatElement(-1, count: q - firsts[s].count)) }
        if firsts[s][q - 1] < 0 { firsts[s][q - 1] = handle }
        return firsts[s][q - 1]
    }

    /// The first handle held under (slot, sequence); only for pairs some device holds.
    func first(slot s: Int, sequence q: Int) -> Int32 { firsts[s][q - 1] }

    /// Bytes of the run-wide storage (for `RetainedState`).
    var retainedBytes: Int { firsts.reduce(0) { $0 + $1.capacity * 4 } + slotBySender.retainedBytes }
}

extension DeviceNode {
    /// Holds a normal message for later invitees (one shared copy per run: `MessageRegistry`);
    /// returns its handle there.
    @discardableResult
    func hold(_ m: GrouperMessage) -> Int32 {
        stores.pipeline.hold(m, in: &held)
    }
}
