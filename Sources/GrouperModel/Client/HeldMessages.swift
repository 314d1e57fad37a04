/// The normal messages one device holds (received or sent), by sender then sequence, as
/// handles into the run's `MessageRegistry`.
///
/// Almost every device holds the same message under a (sender, sequence): the one the run
/// first held there (`HeldIndex`, one 4-byte handle per message for the whole run). So a
/// device keeps one bit per held sequence, and a handle only where it holds a different
/// message (a garbled or replaced one: `exceptions`). Sequences start at 1 and are dense per
/// sender; one far beyond the highest held (only a garbled or hostile message could carry
/// one) goes to a small sorted overflow instead of growing the bits.
struct HeldMessages: Sendable {
    /// Per sender slot of the run's `HeldIndex`: bit q−1 set when sequence q is held densely.
    private var bits: [[UInt64]] = []
    /// Highest sequence held densely per sender slot (0: none).
    private var top: [Int] = []
    /// Densely held sequences whose handle is not the run's first one, sorted by sequence.
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
        grow(to: s)
        if sequence >= 1 && sequence <= top[s] + Self.maxGap {
            if !testAndSet(s, sequence) { count += 1 }
            top[s] = max(top[s], sequence)
            let first = index.adopt(slot: s, sequence: sequence, handle: handle)
            // Putting nil into an empty list changes nothing: most senders have no exceptions.
            if first != handle || !exceptions[s].isEmpty { Self.put(&exceptions[s], sequence, first == handle ? nil : handle) }
            if !overflow[s].isEmpty && Self.find(overflow[s], sequence) != nil {  // now in range
                Self.put(&overflow[s], sequence, nil)
                count -= 1
            }
            return
        }
        if Self.find(overflow[s], sequence) == nil { count += 1 }
        Self.put(&overflow[s], sequence, handle)
    }

    /// Every held handle, senders in ascending order, sequences ascending within a sender.
    func handover(index: HeldIndex) -> [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(count)
        for s in bits.indices.sorted(by: { index.senders[$0] < index.senders[$1] }) {
            var merged: [(sequence: Int, handle: Int32)] = []
            for (w, word) in bits[s].enumerated() where word != 0 {
                for b in 0..<64 where word & (1 << UInt64(b)) != 0 {
                    let q = w * 64 + b + 1
                    merged.append((q, Self.find(exceptions[s], q) ?? index.first(slot: s, sequence: q)))
                }
            }
            merged.append(contentsOf: overflow[s])
            merged.sort { $0.sequence < $1.sequence }
            out.append(contentsOf: merged.map(\.handle))
        }
        return out
    }

    /// Bytes of the per-device storage (for `RetainedState`): bits, exceptions, overflow.
    var retainedBytes: Int {
        bits.reduce(0) { $0 + $1.capacity * 8 } + top.count * 8
            + (exceptions + overflow).reduce(0) { $0 + $1.capacity * 16 }
    }

    private mutating func grow(to s: Int) {
        while bits.count <= s {
            bits.append([])
            top.append(0)
            exceptions.append([])
            overflow.append([])
        }
    }

    /// Sets the bit of (slot, sequence); returns whether it was set before.
    private mutating func testAndSet(_ s: Int, _ sequence: Int) -> Bool {
        let w = (sequence - 1) >> 6, mask = UInt64(1) << UInt64((sequence - 1) & 63)
        if w >= bits[s].count { bits[s].append(contentsOf: repeatElement(0, count: w + 1 - bits[s].count)) }
        defer { bits[s][w] |= mask }
        return bits[s][w] & mask != 0
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
