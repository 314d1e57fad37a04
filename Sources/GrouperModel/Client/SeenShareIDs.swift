/// The share ids a device has downloaded from one server, as a sorted array.
///
/// Servers number shares with ever-increasing ids and list them in id order, and which
/// shares a user may see is fixed when a share is stored. So once a list's smallest id is
/// m, no later list holds an id below m: `unseen(in:)` forgets those ids, keeping the
/// array about as long as the server's list. Membership is a merge walk: O(list + kept),
/// no hashing.
struct SeenShareIDs: Sendable {
    private(set) var ids: [Int] = []

    /// The ids of `listed` (ascending) not downloaded yet, in order; forgets seen ids below
    /// `listed.first` (all of them when the list is empty).
    mutating func unseen(in listed: [Int]) -> [Int] {
        guard let first = listed.first else { ids.removeAll(keepingCapacity: true); return [] }
        let drop = lowerBound(first)
        if drop > 0 { ids.removeFirst(drop) }
        var out: [Int] = []
        var s = 0
        for id in listed {
            while s < ids.count && ids[s] < id { s += 1 }
            if s < ids.count && ids[s] == id { s += 1 } else { out.append(id) }
        }
        return out
    }

    /// Records a downloaded id (usually larger than all before it: O(1)).
    mutating func insert(_ id: Int) {
        if let last = ids.last, last >= id {
            let i = lowerBound(id)
            if i < ids.count && ids[i] == id { return }
            ids.insert(id, at: i)
        } else {
            ids.append(id)
        }
    }

    /// Forgets an id, so the next list fetches that share again.
    mutating func remove(_ id: Int) {
        let i = lowerBound(id)
        if i < ids.count && ids[i] == id { ids.remove(at: i) }
    }

    /// First index whose id is ≥ `id`.
    private func lowerBound(_ id: Int) -> Int {
        var lo = 0, hi = ids.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ids[mid] < id { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
