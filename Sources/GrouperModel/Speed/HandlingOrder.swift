/// The handling order of a round's rebuilt messages (`DeviceNode.handlingOrder`) by one
/// 64-bit integer per normal message and string comparisons only among control messages.
///
/// Thesis order is normal messages by (sender, sequence), then control messages by (send
/// time, message id), ties in rebuild order. A normal message's key is `rank << 48 |
/// sequence << 16 | index`, where `rank` orders senders as `String` order does (equal for
/// equal senders; taken once the batch's senders are all numbered, since a new one moves
/// the others' ranks): a plain sort of unique 64-bit integers, no comparison closure, no
/// strings touched per message. Control messages (a few per round) sort by comparing their
/// send times and ids; as-built order is the message ids' `StringOrder`. A batch whose keys
/// would not fit (more than 2^16 messages or senders, a sequence outside 0...UInt32.max) takes
/// the plain order. `HandlingOrderTests` compares it with the plain `DeviceNode.handlingOrder`.
enum HandlingOrder {
    /// The indices of `ms` in handling order. `senderNumber(m)` numbers normal message `m`'s
    /// sender (equal senders, equal numbers); `ranks()`, asked after every sender of `ms` is
    /// numbered, gives each number's rank in `String` order.
    static func indices(_ ms: [GrouperMessage], asBuilt: Bool, senderNumber: (GrouperMessage) -> UInt32,
                        ranks: () -> [UInt32]) -> [Int] {
        if asBuilt { return StringOrder.sortedIndices(ms.map(\.messageID)) }
        guard ms.count <= 1 << 16 else { return DeviceNode.handlingOrder(ms, asBuilt: false) }
        var keys: [UInt64] = [], controls: [Int] = []
        keys.reserveCapacity(ms.count)
        for i in ms.indices {
            let m = ms[i]
            guard m.type.isNormal else { controls.append(i); continue }
            let sender = senderNumber(m)
            // Decoded messages carry sequences in 0...Int32.max; any other falls back whole.
            guard m.sequence >= 0 && m.sequence <= Int(UInt32.max) && sender < 1 << 16 else {
                return DeviceNode.handlingOrder(ms, asBuilt: false)
            }
            keys.append(UInt64(sender) << 48 | UInt64(UInt32(m.sequence)) << 16 | UInt64(i))
        }
        let rank = ranks(), low: UInt64 = (1 << 48) - 1
        guard rank.count <= 1 << 16 else { return DeviceNode.handlingOrder(ms, asBuilt: false) }
        for j in keys.indices { keys[j] = UInt64(rank[Int(keys[j] >> 48)]) << 48 | keys[j] & low }
        keys.sort()
        var out = keys.map { Int($0 & 0xFFFF) }
        if controls.count > 1 {
            controls.sort { a, b in (ms[a].sendTime, ms[a].messageID, a) < (ms[b].sendTime, ms[b].messageID, b) }
        }
        out.append(contentsOf: controls)
        return out
    }

    /// Ranks of the distinct `strings` in `String` order (equal strings share a rank).
    static func ranks(_ strings: [String]) -> [UInt32] {
        let order = StringOrder.sortedIndices(strings)
        var rank = [UInt32](repeating: 0, count: strings.count), r: UInt32 = 0
        for (n, i) in order.enumerated() {
            if n > 0 && strings[order[n - 1]] != strings[i] { r += 1 }
            rank[i] = r
        }
        return rank
    }
}
