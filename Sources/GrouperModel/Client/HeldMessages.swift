/// The normal messages one device holds (received or sent), by sender then sequence, as
/// handles into the run's `MessageRegistry`: 4 bytes per message instead of a private copy.
///
/// Sequences start at 1 and are dense per sender, so each sender has an array indexed by
/// sequence − 1 (−1 = not held). A sequence far beyond the array (only a garbled or hostile
/// message could carry one) goes to a small sorted overflow instead of growing the array.
struct HeldMessages: Sendable {
    private var senders: [String] = []
    private var slotBySender: [String: Int] = [:]
    private var dense: [[Int32]] = []
    private var overflow: [[(sequence: Int, handle: Int32)]] = []
    private(set) var count = 0
    static let maxGap = 4096

    /// Holds `handle` as (sender, sequence); a later message with the same pair replaces it.
    mutating func set(sender: String, sequence: Int, handle: Int32) {
        let s = slot(of: sender)
        if sequence >= 1 && sequence <= dense[s].count + Self.maxGap {
            while dense[s].count < sequence { dense[s].append(-1) }
            if dense[s][sequence - 1] < 0 { count += 1 }
            dense[s][sequence - 1] = handle
            if let i = overflow[s].firstIndex(where: { $0.sequence == sequence }) {  // now in range
                overflow[s].remove(at: i)
                count -= 1
            }
            return
        }
        if let i = overflow[s].firstIndex(where: { $0.sequence == sequence }) {
            overflow[s][i].handle = handle
            return
        }
        overflow[s].append((sequence, handle))
        overflow[s].sort { $0.sequence < $1.sequence }
        count += 1
    }

    /// Every held handle, senders in ascending order, sequences ascending within a sender.
    func handover() -> [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(count)
        for s in senders.indices.sorted(by: { senders[$0] < senders[$1] }) {
            var merged: [(sequence: Int, handle: Int32)] = []
            for (i, h) in dense[s].enumerated() where h >= 0 { merged.append((i + 1, h)) }
            merged.append(contentsOf: overflow[s])
            merged.sort { $0.sequence < $1.sequence }
            out.append(contentsOf: merged.map(\.handle))
        }
        return out
    }

    private mutating func slot(of sender: String) -> Int {
        if let i = slotBySender[sender] { return i }
        slotBySender[sender] = senders.count
        senders.append(sender)
        dense.append([])
        overflow.append([])
        return senders.count - 1
    }
}

extension DeviceNode {
    /// Holds a normal message for later invitees (one shared copy per run: `MessageRegistry`).
    func hold(_ m: GrouperMessage) {
        held.set(sender: m.sender, sequence: m.sequence, handle: world.registry.intern(m))
    }
}
