import SimKernel

extension UntrustedServer {
    /// Stores every upload or none: an unknown receiver refuses the whole request.
    /// A re-put of the same `ShareKey` replaces the old share (new id, TTL restarted): under
    /// `.perMessage` any re-put of a message id, under `.perReceiver` only one for the same
    /// receiver (multicast and each unicast receiver are separate slots).
    mutating func put(_ uploads: [ShareUpload], group g: Int, sender u: Int, now: SimTime)
        -> Result<ServerReply, ServerError> {
        var receivers: [Int?] = []
        receivers.reserveCapacity(uploads.count)
        for up in uploads {
            guard let r = up.receiver else { receivers.append(nil); continue }
            guard let idx = users.indices.first(where: { users[$0].group == g && users[$0].node == r }) else {
                return .failure(.unknownReceiver(r))
            }
            receivers.append(idx)
        }
        for (up, r) in zip(uploads, receivers) {
            // One hash-table probe: the key's share id is replaced before the old share is removed.
            let key = shareKey(group: g, messageID: up.messageID, receiver: r)
            if let old = shareIDByMessage.updateValue(nextShareID, forKey: key), let i = position(ofShare: old) {
                removeShare(at: i)
            }
            appendShare(ShareEntity(id: nextShareID, share: up.share, saveAt: now, messageID: up.messageID,
                                    sender: u, senderNode: users[u].node, receiver: r, group: g,
                                    messageNumber: up.messageNumber))
            nextShareID += 1
        }
        return .success(.stored(uploads.count))
    }

    /// Where share `id` is in `shares` (sorted by id): O(1) while no share was removed between
    /// the first and `id` (ids are dense and sweeps remove from the front), else a binary search.
    func position(ofShare id: Int) -> Int? {
        if let first = shares.first?.id, id - first >= 0 && id - first < shares.count && shares[id - first].id == id {
            return id - first
        }
        var lo = 0, hi = shares.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if shares[mid].id < id { lo = mid + 1 } else { hi = mid }
        }
        return lo < shares.count && shares[lo].id == id ? lo : nil
    }

    /// Ids of the shares `u` may download in group `g`, in id (storage) order: not its own
    /// multicasts, unicasts only to it. Reads fields in place: O(shares), no entity copies.
    func visibleShareIDs(group g: Int, user u: Int) -> [Int] {
        var ids: [Int] = []
        for i in shares.indices where shares[i].group == g && shares[i].sender != u
            && (shares[i].receiver == nil || shares[i].receiver == u) {
            ids.append(shares[i].id)
        }
        return ids
    }

    /// The visible shares among `ids`, in the order asked (unknown or invisible ids skipped).
    /// The reply holds each share's download built at its put; one share needs no allocation
    /// (`ShareDownloads`), more are allocated once. Inlined into `handleMember`, which then reads
    /// the shares in place instead of first copying the whole server value for the call.
    @inline(__always)
    func get(_ ids: ShareIDs, group g: Int, user u: Int) -> ShareDownloads {
        var out = ShareDownloads()
        for id in ids {
            guard let i = position(ofShare: id) else { continue }
            guard shares[i].group == g, shares[i].sender != u, shares[i].receiver == nil || shares[i].receiver == u
            else { continue }
            out.append(shares[i].download, expected: ids.count)
        }
        return out
    }

    /// The TTL sweep: deletes every share with saveAt < now − TTL of its group.
    /// Returns the number deleted. Entities are moved in place, not copied.
    @discardableResult
    public mutating func sweep(now: SimTime) -> Int {
        let expired = expiredShares(now: now)
        guard !expired.isEmpty else { return 0 }
        for i in expired {
            // The entity and its key are read before the table's write access begins, so
            // building the key does not copy the server value (every array retained) per share.
            let e = shares[i], key = shareKey(group: e.group, messageID: e.messageID, receiver: e.receiver)
            shareIDByMessage[key] = nil
            listsRemoved(e)
            holdings?.removed(e)
        }
        if expired.count == expired.last! + 1 {  // a prefix: the usual case
            shares.removeFirst(expired.count)
        } else {
            shares.removeAll { $0.saveAt < now - groups[$0.group].ttl }
        }
        return expired.count
    }

    /// Indices of the shares the sweep at `now` deletes, ascending. While save times ascend
    /// and every group has the same TTL they are a prefix, found by reading up to the first
    /// share kept; else every share is read (`expiredSharesByScan`, which the prefix must equal:
    /// `ServerSweepTests`).
    func expiredShares(now: SimTime) -> [Int] {
        guard saveTimesAscend, let ttl = groups.first?.ttl, groups.allSatisfy({ $0.ttl == ttl }) else {
            return expiredSharesByScan(now: now)
        }
        var end = 0
        while end < shares.count && shares[end].saveAt < now - ttl { end += 1 }
        return Array(0..<end)
    }

    /// Indices of the shares expired at `now`, by reading every share.
    func expiredSharesByScan(now: SimTime) -> [Int] {
        var expired: [Int] = []
        for i in shares.indices where shares[i].saveAt < now - groups[shares[i].group].ttl { expired.append(i) }
        return expired
    }

    /// Forgets every stored share (restart without data). Groups and users stay.
    public mutating func dropAllShares() {
        if holdings != nil { for e in shares { holdings!.removed(e) } }
        shares.removeAll()
        shareIDByMessage.removeAll()
        for g in groupLists.indices where groupLists[g].isBuilt {
            groupLists[g].ids.removeAll()
            groupLists[g].head = 0
        }
        for u in hiddenCounts.indices where hiddenCounts[u] > 0 { hiddenCounts[u] = 0 }
    }

    /// Oldest stored share's save time, if any: the first share while save times ascend.
    public var oldestSaveAt: SimTime? {
        if saveTimesAscend { return shares.first?.saveAt }
        return shares.indices.map { shares[$0].saveAt }.min()
    }

    /// Whether any share for this message id is stored (for checkers and tests). O(shares).
    public func holds(messageID: String, groupID: String) -> Bool {
        guard let g = groupByID[groupID] else { return false }
        return shares.contains { $0.group == g && $0.messageID == messageID }
    }

    /// Whether member `node` could fetch a share of this message id here: a multicast share
    /// (not its own) or a unicast share to it. For checkers and tests: O(users + log shares).
    public func holds(messageID: String, groupID: String, visibleTo node: String) -> Bool {
        guard let g = groupByID[groupID],
              let u = users.indices.first(where: { users[$0].group == g && users[$0].node == node }) else { return false }
        let keys = [ShareKey(group: g, messageID: messageID)] + (keying == .perReceiver
            ? [ShareKey(group: g, messageID: messageID, receiver: u)] : [])
        return keys.contains { key in
            guard let id = shareIDByMessage[key], let i = position(ofShare: id) else { return false }
            return shares[i].sender != u && (shares[i].receiver == nil || shares[i].receiver == u)
        }
    }

    func shareKey(group g: Int, messageID: String, receiver: Int?) -> ShareKey {
        ShareKey(group: g, messageID: messageID, receiver: keying == .perReceiver ? receiver : nil)
    }
}
