import SimKernel

/// The one notion of "final version" that the convergence checker and the `delivery_ratio`
/// metric share.
extension GrouperSystem {
    /// The newest write per object: what every member must end with (newest version wins).
    func expectedFinal() -> [String: ObjectWrite] {
        var best: [String: ObjectWrite] = [:]
        for w in world.writes where best[w.objectID].map({ $0.version < w.version }) ?? true { best[w.objectID] = w }
        return best
    }

    /// Whether a store entry shows the final state of its object: the final update's version,
    /// or, when the final write is a delete, no live object (no entry, or any tombstone: an
    /// older delete looks the same to the user; a missed message is the delivery checker's).
    static func holdsFinal(_ entry: StoredObject?, _ final: ObjectWrite) -> Bool {
        final.storedContent == nil ? entry?.content == nil : entry?.version == final.version
    }

    /// Fraction of (member, object) pairs holding the object's final state (`holdsFinal`);
    /// nil when nothing was written or there is no member.
    public var deliveryRatio: Double? {
        let expected = expectedFinal()
        let ids = expected.keys.sorted()
        var good = 0, pairs = 0
        for d in world.deviceNodes where d.isMember {
            let entries = d.store.entries
            for id in ids {
                pairs += 1
                if Self.holdsFinal(entries[id], expected[id]!) { good += 1 }
            }
        }
        return pairs == 0 ? nil : Double(good) / Double(pairs)
    }

    /// What destroyed a message's shares: a data-losing restart (naming the servers), the TTL,
    /// or both.
    func lossCause(_ messageID: String) -> String {
        guard let servers = world.restartLosses[messageID], !servers.isEmpty else {
            return "deleted by the servers' TTL"
        }
        let names = servers.sorted().map { "\($0)" }.joined(separator: ", ")
        let restart = "dropped by a data-losing restart of server\(servers.count == 1 ? "" : "s") \(names)"
        return servers.count >= config.servers ? restart : restart + " (and deleted by the TTL elsewhere)"
    }
}
