/// One user's visible share ids on a server, ascending, kept up to date as shares are stored
/// and removed, so `transfer/list` costs O(1) instead of a pass over every stored share.
///
/// Which shares a user sees is fixed when a share is stored (group, sender, receiver), so an
/// id joins the lists of its viewers once and leaves them once. Ids removed from the front
/// (TTL sweeps: within a group, save times grow with ids) advance `head`; any other removal
/// bumps `generation` (see `ShareIDList`).
struct UserShareList: Sendable {
    var ids: [Int] = []
    var head = 0
    var generation: UInt64 = 0
    /// The last `recentLimit` ids removed from the middle, oldest first.
    var recentRemovals: [Int] = []
    static let recentLimit = 32

    var list: ShareIDList {
        ShareIDList(ids, range: head..<ids.count, generation: generation, recentRemovals: recentRemovals)
    }

    /// Appends a newly stored id (capacity kept near the live ids: `append(_:liveFrom:)`).
    mutating func append(_ id: Int) { ids.append(id, liveFrom: &head) }

    mutating func remove(_ id: Int) {
        if head < ids.count && ids[head] == id {
            head += 1
            if head >= 64 && head * 2 >= ids.count { ids.removeFirst(head); head = 0 }
            return
        }
        var lo = head, hi = ids.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ids[mid] < id { lo = mid + 1 } else { hi = mid }
        }
        guard lo < ids.count && ids[lo] == id else { return }
        ids.remove(at: lo)
        generation += 1
        recentRemovals.append(id)
        if recentRemovals.count > Self.recentLimit { recentRemovals.removeFirst() }
    }
}

extension UntrustedServer {
    /// Whether user `u` may list and get share `e`: its group, not its own multicast, a unicast
    /// only to it.
    func canSee(_ e: ShareEntity, user u: Int) -> Bool {
        e.group == users[u].group && e.sender != u && (e.receiver == nil || e.receiver == u)
    }

    /// `transfer/list` for user `u` of group `g`: from the user's kept list (built on its first
    /// call), or by a pass over the shares when `incrementalLists` is off.
    mutating func listShareIDs(group g: Int, user u: Int) -> ShareIDList {
        guard incrementalLists else { return ShareIDList(visibleShareIDs(group: g, user: u)) }
        if u >= userLists.count { userLists.append(contentsOf: repeatElement(nil, count: u + 1 - userLists.count)) }
        if userLists[u] == nil { userLists[u] = UserShareList(ids: visibleShareIDs(group: g, user: u)) }
        return userLists[u]!.list
    }

    /// Appends a stored share to the kept list of every user who can see it.
    mutating func listsStored(_ e: ShareEntity) {
        for u in userLists.indices where userLists[u] != nil && canSee(e, user: u) { userLists[u]!.append(e.id) }
    }

    /// Removes a deleted or replaced share from the kept lists of its viewers.
    mutating func listsRemoved(_ e: ShareEntity) {
        for u in userLists.indices where userLists[u] != nil && canSee(e, user: u) { userLists[u]!.remove(e.id) }
    }

    /// Appends a share entity (ids only grow) and updates the kept lists.
    mutating func appendShare(_ e: ShareEntity) {
        if let last = shares.last, e.saveAt < last.saveAt { saveTimesAscend = false }
        shares.append(e)
        listsStored(e)
    }

    /// Removes the share at index `i` and updates the kept lists.
    mutating func removeShare(at i: Int) {
        let e = shares.remove(at: i)
        listsRemoved(e)
    }
}
