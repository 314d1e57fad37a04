/// A group's share ids on a server, ascending, kept up to date as shares are stored and
/// removed, so `transfer/list` costs O(1) instead of a pass over every stored share. Every
/// member's list is this one without the ids hidden from the member, told apart by each id's
/// sender and receiver (`ListedShare`); per member only their number is kept
/// (`UntrustedServer.hiddenCounts`).
///
/// Which shares a user sees is fixed when a share is stored (group, sender, receiver), so an
/// id joins the list once and leaves it once. Ids removed from the front (TTL sweeps: within
/// a group, save times grow with ids) advance `head`; any other removal bumps `generation`
/// (see `ShareIDList`).
struct GroupShareList: Sendable {
    /// False until a member's first list builds it (until then `ids` is empty and not kept up to date).
    var isBuilt = false
    var ids: [ListedShare] = []
    var head = 0
    var generation: UInt64 = 0
    /// The last `recentLimit` ids removed from the middle, oldest first.
    var recentRemovals: [Int] = []
    static let recentLimit = 32

    /// The list as user `viewer` sees it, `hidden` being the number of its ids hidden from that user.
    func list(for viewer: Int, hidden: Int) -> ShareIDList {
        ShareIDList(ids, range: head..<ids.count, viewer: Int32(viewer), hiddenCount: hidden,
                    generation: generation, recentRemovals: recentRemovals)
    }

    /// Appends a newly stored id (capacity kept near the live ids: `append(_:liveFrom:)`).
    mutating func append(_ e: ListedShare) { ids.append(e, liveFrom: &head) }

    mutating func remove(_ id: Int) {
        guard let removedAtFront = ids.removeSorted(id, head: &head), !removedAtFront else { return }
        generation += 1
        recentRemovals.append(id)
        if recentRemovals.count > Self.recentLimit { recentRemovals.removeFirst() }
    }
}

extension Array where Element == ListedShare {
    /// Removes `id` from the ascending ids `self[head...]`: at the front by advancing `head`
    /// (dropping the dead front once it is half the array), elsewhere by a binary search.
    /// Returns whether it was at the front, or nil if absent.
    mutating func removeSorted(_ id: Int, head: inout Int) -> Bool? {
        if head < count && self[head].id == id {
            head += 1
            if head >= 64 && head * 2 >= count { removeFirst(head); head = 0 }
            return true
        }
        var lo = head, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if self[mid].id < id { lo = mid + 1 } else { hi = mid }
        }
        guard lo < count && self[lo].id == id else { return nil }
        remove(at: lo)
        return false
    }
}

extension UntrustedServer {
    /// Whether user `u` may list and get share `e`: its group, not its own multicast, a unicast
    /// only to it.
    func canSee(_ e: ShareEntity, user u: Int) -> Bool {
        e.group == users[u].group && e.sender != u && (e.receiver == nil || e.receiver == u)
    }

    /// `transfer/list` for user `u` of group `g`: the group's kept list as `u` sees it (the list
    /// and `u`'s count of hidden ids built on the first call), or a pass over the shares when
    /// `incrementalLists` is off.
    mutating func listShareIDs(group g: Int, user u: Int) -> ShareIDList {
        guard incrementalLists else { return ShareIDList(visibleShareIDs(group: g, user: u)) }
        if g >= groupLists.count { groupLists.append(contentsOf: repeatElement(GroupShareList(), count: g + 1 - groupLists.count)) }
        if u >= hiddenCounts.count { hiddenCounts.append(contentsOf: repeatElement(-1, count: u + 1 - hiddenCounts.count)) }
        if !groupLists[g].isBuilt {
            groupLists[g] = GroupShareList(isBuilt: true, ids: shares.filter { $0.group == g }.map(ListedShare.init))
        }
        if hiddenCounts[u] < 0 { hiddenCounts[u] = shares.reduce(0) { $0 + ($1.group == g && !canSee($1, user: u) ? 1 : 0) } }
        return groupLists[g].list(for: u, hidden: hiddenCounts[u])
    }

    /// Appends a stored share to its group's kept list and counts it for every member with a
    /// kept count who may not see it.
    mutating func listsStored(_ e: ShareEntity) {
        if e.group < groupLists.count && groupLists[e.group].isBuilt { groupLists[e.group].append(ListedShare(e)) }
        countHidden(e, 1)
    }

    /// Removes a deleted or replaced share from its group's kept list and the hidden counts.
    mutating func listsRemoved(_ e: ShareEntity) {
        if e.group < groupLists.count && groupLists[e.group].isBuilt { groupLists[e.group].remove(e.id) }
        countHidden(e, -1)
    }

    /// Adds `delta` to the kept hidden count of every member who may not see `e`: a multicast
    /// is hidden from its sender alone (a member of its group), a unicast from every member of
    /// the group but its receiver.
    private mutating func countHidden(_ e: ShareEntity, _ delta: Int) {
        guard e.receiver != nil else {
            if e.sender < hiddenCounts.count && hiddenCounts[e.sender] >= 0 { hiddenCounts[e.sender] += delta }
            return
        }
        for u in hiddenCounts.indices where hiddenCounts[u] >= 0 && users[u].group == e.group && !canSee(e, user: u) {
            hiddenCounts[u] += delta
        }
    }

    /// Ids in the kept lists, a member's hidden ids counted once more for it (`LiveState`),
    /// and their bytes as allocated (`RetainedState`).
    var keptListIDs: Int {
        groupLists.reduce(0) { $0 + ($1.ids.count - $1.head) } + hiddenCounts.reduce(0) { $0 + Swift.max($1, 0) }
    }
    var keptListBytes: Int {
        groupLists.reduce(0) { $0 + $1.ids.capacity * MemoryLayout<ListedShare>.stride + $1.recentRemovals.capacity * 8 }
            + hiddenCounts.capacity * 8
    }

    /// Appends a share entity (ids only grow) and updates the kept lists.
    mutating func appendShare(_ e: ShareEntity) {
        if let last = shares.last, e.saveAt < last.saveAt { saveTimesAscend = false }
        shares.append(e)
        listsStored(e)
        holdings?.stored(e)
    }

    /// Removes the share at index `i` and updates the kept lists.
    mutating func removeShare(at i: Int) {
        let e = shares.remove(at: i)
        listsRemoved(e)
        holdings?.removed(e)
    }
}
