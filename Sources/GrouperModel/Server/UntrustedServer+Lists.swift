/// A group's share ids on a server, ascending, kept up to date as shares are stored and
/// removed, so `transfer/list` costs O(1) instead of a pass over every stored share. Every
/// member's list is this one without the member's few hidden ids (`HiddenShareIDs`).
///
/// Which shares a user sees is fixed when a share is stored (group, sender, receiver), so an
/// id joins the list once and leaves it once. Ids removed from the front (TTL sweeps: within
/// a group, save times grow with ids) advance `head`; any other removal bumps `generation`
/// (see `ShareIDList`).
struct GroupShareList: Sendable {
    /// False until a member's first list builds it (until then `ids` is empty and not kept up to date).
    var isBuilt = false
    var ids: [Int] = []
    var head = 0
    var generation: UInt64 = 0
    /// The last `recentLimit` ids removed from the middle, oldest first.
    var recentRemovals: [Int] = []
    static let recentLimit = 32

    /// The list as member `hidden`'s owner sees it (everything when `hidden` is nil).
    func list(hiding hidden: HiddenShareIDs? = nil) -> ShareIDList {
        // A branch, so the hidden ids are retained as an array, not copied through the
        // optional's generic value witness.
        guard let hidden else {
            return ShareIDList(ids, range: head..<ids.count, excluding: [], excludedRange: 0..<0,
                               generation: generation, recentRemovals: recentRemovals)
        }
        return ShareIDList(ids, range: head..<ids.count, excluding: hidden.ids, excludedRange: hidden.head..<hidden.ids.count,
                           generation: generation, recentRemovals: recentRemovals)
    }

    /// Appends a newly stored id (capacity kept near the live ids: `append(_:liveFrom:)`).
    mutating func append(_ id: Int) { ids.append(id, liveFrom: &head) }

    mutating func remove(_ id: Int) {
        guard let removedAtFront = ids.removeSorted(id, head: &head), !removedAtFront else { return }
        generation += 1
        recentRemovals.append(id)
        if recentRemovals.count > Self.recentLimit { recentRemovals.removeFirst() }
    }
}

/// The ids of a group's list that one member may not list (its own multicasts, unicasts to
/// other members), ascending: a few per member where a full per-member list held ~all of them.
struct HiddenShareIDs: Sendable {
    var ids: [Int] = []
    var head = 0

    mutating func append(_ id: Int) { ids.append(id, liveFrom: &head) }
    mutating func remove(_ id: Int) { _ = ids.removeSorted(id, head: &head) }
}

extension Array where Element == Int {
    /// Removes `id` from the ascending ids `self[head...]`: at the front by advancing `head`
    /// (dropping the dead front once it is half the array), elsewhere by a binary search.
    /// Returns whether it was at the front, or nil if absent.
    mutating func removeSorted(_ id: Int, head: inout Int) -> Bool? {
        if head < count && self[head] == id {
            head += 1
            if head >= 64 && head * 2 >= count { removeFirst(head); head = 0 }
            return true
        }
        var lo = head, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if self[mid] < id { lo = mid + 1 } else { hi = mid }
        }
        guard lo < count && self[lo] == id else { return nil }
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

    /// `transfer/list` for user `u` of group `g`: the group's kept list without the user's
    /// hidden ids (both built on the first call), or a pass over the shares when
    /// `incrementalLists` is off.
    mutating func listShareIDs(group g: Int, user u: Int) -> ShareIDList {
        guard incrementalLists else { return ShareIDList(visibleShareIDs(group: g, user: u)) }
        if g >= groupLists.count { groupLists.append(contentsOf: repeatElement(GroupShareList(), count: g + 1 - groupLists.count)) }
        if u >= hiddenLists.count { hiddenLists.append(contentsOf: repeatElement(nil, count: u + 1 - hiddenLists.count)) }
        if !groupLists[g].isBuilt { groupLists[g] = GroupShareList(isBuilt: true, ids: shares.filter { $0.group == g }.map(\.id)) }
        if hiddenLists[u] == nil {
            hiddenLists[u] = HiddenShareIDs(ids: shares.filter { $0.group == g && !canSee($0, user: u) }.map(\.id))
        }
        return groupLists[g].list(hiding: hiddenLists[u])   // read in place (an optional was copied out first)
    }

    /// Appends a stored share to its group's kept list, and to the hidden ids of every member
    /// with a kept list who may not see it.
    mutating func listsStored(_ e: ShareEntity) {
        if e.group < groupLists.count && groupLists[e.group].isBuilt { groupLists[e.group].append(e.id) }
        for u in hiddenLists.indices where hiddenLists[u] != nil && users[u].group == e.group && !canSee(e, user: u) {
            hiddenLists[u]!.append(e.id)
        }
    }

    /// Removes a deleted or replaced share from its group's kept list and the hidden ids.
    mutating func listsRemoved(_ e: ShareEntity) {
        if e.group < groupLists.count && groupLists[e.group].isBuilt { groupLists[e.group].remove(e.id) }
        for u in hiddenLists.indices where hiddenLists[u] != nil && users[u].group == e.group && !canSee(e, user: u) {
            hiddenLists[u]!.remove(e.id)
        }
    }

    /// Ids in the kept lists (`LiveState`) and their bytes as allocated (`RetainedState`).
    var keptListIDs: Int {
        groupLists.reduce(0) { $0 + ($1.ids.count - $1.head) }
            + hiddenLists.reduce(0) { $0 + ($1.map { $0.ids.count - $0.head } ?? 0) }
    }
    var keptListBytes: Int {
        groupLists.reduce(0) { $0 + $1.ids.capacity * 8 + $1.recentRemovals.capacity * 8 }
            + hiddenLists.reduce(0) { $0 + ($1.map { $0.ids.capacity * 8 } ?? 0) }
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
