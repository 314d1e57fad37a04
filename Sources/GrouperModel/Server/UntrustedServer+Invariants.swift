extension UntrustedServer {
    /// Checks the store's structural invariants; returns the first violation, nil when all hold.
    /// O(shares + users); for tests and flag-gated debug runs (`GrouperSystem.checksInvariants`).
    ///
    /// - shares are sorted by id, ids unique and below `nextShareID`;
    /// - each share's group, sender and receiver are existing entities;
    /// - the key index names exactly the stored shares, each under its own key;
    /// - the group and user indices point at the entities they name;
    /// - each kept group list holds its group's share ids with their senders and receivers,
    ///   and each kept hidden count is the number of them its user may not see.
    public func _checkInvariants() -> String? {
        for i in shares.indices.dropFirst() where shares[i - 1].id >= shares[i].id {
            return "shares out of id order at \(i)"
        }
        if let last = shares.last, last.id >= nextShareID { return "share id \(last.id) ≥ next id \(nextShareID)" }
        for e in shares {
            guard groups.indices.contains(e.group), users.indices.contains(e.sender),
                  e.receiver.map(users.indices.contains) ?? true else { return "share \(e.id) names a missing entity" }
            guard shareIDByMessage[shareKey(group: e.group, messageID: e.messageID, receiver: e.receiver)] == e.id else {
                return "share \(e.id) is not indexed under its key"
            }
        }
        if shareIDByMessage.count != shares.count {
            return "the key index has \(shareIDByMessage.count) entries for \(shares.count) shares"
        }
        for (id, g) in groupByID.sorted(by: { $0.key < $1.key }) where !groups.indices.contains(g) || groups[g].groupID != id {
            return "group index \(id) → \(g) is stale"
        }
        for (key, u) in userByKey.sorted(by: { $0.key < $1.key }) where !users.indices.contains(u) || users[u].accessKey != key {
            return "user index → \(u) is stale"
        }
        for g in groupLists.indices where groupLists[g].isBuilt {
            let kept = groupLists[g].ids[groupLists[g].head...]
            guard kept.elementsEqual(shares.lazy.filter { $0.group == g }.map(ListedShare.init)) else {
                return "the kept list of group \(g) differs from its shares"
            }
        }
        // Hidden from u: its own multicasts and the unicasts of its group not sent to it by another.
        var ownMulticasts = [Int](repeating: 0, count: users.count), toUser = ownMulticasts
        var unicasts = [Int](repeating: 0, count: groups.count)
        for e in shares {
            if let r = e.receiver {
                unicasts[e.group] += 1
                if r != e.sender { toUser[r] += 1 }
            } else {
                ownMulticasts[e.sender] += 1
            }
        }
        for u in hiddenCounts.indices where hiddenCounts[u] >= 0 {
            guard hiddenCounts[u] == ownMulticasts[u] + unicasts[users[u].group] - toUser[u] else {
                return "user \(u)'s kept hidden count is \(hiddenCounts[u])"
            }
        }
        return nil
    }
}
