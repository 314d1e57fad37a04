/// The share ids a device has downloaded from one server, as a sorted array.
///
/// Servers number shares with ever-increasing ids and list them in id order, and which
/// shares a user may see is fixed when a share is stored. So once a list's smallest id is
/// m, no later list holds an id below m: `unseen(in:)` forgets those ids, keeping the
/// array about as long as the server's list. Membership is a merge walk: O(list + kept),
/// no hashing.
///
/// Compact mode (`SystemConfig.compactState`) adds a shortcut for lists that are the server's
/// whole list for the user (`ShareIDList.generation` set). A full walk of such a list also
/// forgets seen ids missing from it (they were deleted, and deleted ids never come back), so
/// after it every kept id is in the server's list. Until the list's `generation` changes, ids leave
/// that list only from its front, so the kept ids (those not below the list's first) are
/// still all in it; if as many listed ids are ≤ the largest kept id as there are kept ids,
/// they are exactly the kept ids and the unseen ids are the list's tail: O(log list + new).
struct SeenShareIDs: Sendable {
    /// The kept ids are `store[head...]` (forgetting a front costs O(1), compacted lazily).
    private var store: [Int] = []
    private var head = 0
    /// Generation of the list the kept ids were last checked against (nil: never).
    private var checked: UInt64?

    /// The kept ids, ascending.
    var ids: [Int] { Array(store[head...]) }
    var count: Int { store.count - head }
    /// Bytes of storage, dead front and spare capacity included (`RetainedState`).
    var capacityBytes: Int { store.capacity * 8 }

    /// The ids of `listed` (ascending) not downloaded yet, in order; forgets seen ids below
    /// `listed.first` (all of them when the list is empty).
    mutating func unseen(in listed: ShareIDList, compact: Bool = false) -> [Int] {
        let exact = compact && listed.generation != nil  // the server's whole list for this user
        guard let first = listed.first else {
            store.removeAll(keepingCapacity: true)
            head = 0
            checked = exact ? listed.generation : nil
            return []
        }
        dropFront(below: first)
        if exact, let c = checked, catchUp(from: c, to: listed) {
            let tail = store.last.map { listed.upperBound($0) } ?? 0
            if tail == count { return listed.ids(from: tail) }
        }
        var out: [Int] = [], kept: [Int] = []
        var s = head
        for id in listed {
            while s < store.count && store[s] < id { s += 1 }
            if s < store.count && store[s] == id { s += 1; if exact { kept.append(id) } } else { out.append(id) }
        }
        if exact {
            store = kept
            head = 0
        }
        checked = exact ? listed.generation : nil
        return out
    }

    /// Forgets the ids the server removed from the middle of the list since generation `c`
    /// (the list carries the latest few); false if they are not all known.
    private mutating func catchUp(from c: UInt64, to listed: ShareIDList) -> Bool {
        guard let g = listed.generation, g >= c else { return false }
        let missed = g - c
        guard missed > 0 else { return true }
        guard missed <= UInt64(listed.recentRemovals.count) else { return false }
        for id in listed.recentRemovals.suffix(Int(missed)) { remove(id) }
        checked = g
        return true
    }

    private mutating func dropFront(below first: Int) {
        head = lowerBound(first, gallopFrom: head)
        if head >= 64 && head * 2 >= store.count {
            store.removeFirst(head)
            head = 0
        }
    }

    /// Records a downloaded id (usually larger than all before it: O(1)).
    mutating func insert(_ id: Int) {
        if let last = store.last, count > 0, last >= id {
            let i = lowerBound(id)
            if i < store.count && store[i] == id { return }
            store.insert(id, at: i)
        } else {
            store.append(id, liveFrom: &head)
        }
    }

    /// Forgets an id, so the next list fetches that share again.
    mutating func remove(_ id: Int) {
        let i = lowerBound(id)
        if i < store.count && store[i] == id { store.remove(at: i) }
    }

    /// First index (≥ head) whose id is ≥ `id`. With `gallopFrom` (≤ the answer) the search
    /// starts there with doubling steps, so an answer near it (a list whose front barely moved
    /// since the last round) costs a few probes instead of a binary search of the whole array.
    private func lowerBound(_ id: Int, gallopFrom start: Int? = nil) -> Int {
        var lo = start ?? head, hi = store.count
        if start != nil {
            var step = 1
            while lo + step <= store.count && store[lo + step - 1] < id { lo += step; step *= 2 }
            hi = min(lo + step, store.count)
        }
        while lo < hi {
            let mid = (lo + hi) / 2
            if store[mid] < id { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
