/// A device's requests waiting for an outcome, with what each was for.
///
/// Request ids come from one counter of the run (`World.takeRequestID`), so a device's ids
/// arrive in increasing order and the entries stay sorted by id in an array: no hashing per
/// request, a binary search to find an outcome's request. A device has few requests open
/// at a time (one per server per step of a round or upload), so removal's shift is short.
struct PendingRequests: Sendable {
    private var ids: [Int] = []
    private var purposes: [RequestPurpose] = []

    var count: Int { ids.count }
    var isEmpty: Bool { ids.isEmpty }
    /// The open request ids, in increasing order.
    var sortedIDs: [Int] { ids }

    /// Opens request `id`, which must be above every open one.
    mutating func insert(_ id: Int, _ purpose: RequestPurpose) {
        precondition(ids.last.map { $0 < id } ?? true, "request ids must increase")
        ids.append(id)
        purposes.append(purpose)
    }

    /// Closes request `id`: its purpose, or nil when it is not open (late or duplicate).
    mutating func remove(_ id: Int) -> RequestPurpose? {
        var lo = 0, hi = ids.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ids[mid] < id { lo = mid + 1 } else { hi = mid }
        }
        guard lo < ids.count && ids[lo] == id else { return nil }
        ids.remove(at: lo)
        return purposes.remove(at: lo)
    }
}
