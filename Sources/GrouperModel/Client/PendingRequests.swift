/// A device's requests waiting for an outcome, with what each was for.
///
/// Request ids come from one counter of the run (`DeviceContext.takeRequestID`), so a device's ids
/// arrive in increasing order and the entries stay sorted by id in an array: no hashing per
/// request, a binary search to find an outcome's request. Closing a request leaves a hole
/// (its purpose becomes nil) instead of shifting the entries after it: holes at the front are
/// skipped at once, the entries start over (in place) when nothing is open, and they are
/// compacted when holes fill three quarters of them. A device has few requests open at a time
/// (one per server per step of a round or upload), so the entries stay few.
struct PendingRequests: Sendable {
    private struct Entry {
        var id: Int
        var purpose: RequestPurpose?
    }

    /// `entries[head..<end]` are in use, ids increasing; later ones are spare storage.
    private var entries: [Entry] = []
    private var head = 0, end = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }
    /// The open request ids, in increasing order.
    var sortedIDs: [Int] { entries[head..<end].compactMap { $0.purpose == nil ? nil : $0.id } }

    /// Opens request `id`, which must be above every open one.
    mutating func insert(_ id: Int, _ purpose: RequestPurpose) {
        precondition(end == head || entries[end - 1].id < id, "request ids must increase")
        if end < entries.count {
            entries[end] = Entry(id: id, purpose: purpose)
        } else {
            entries.append(Entry(id: id, purpose: purpose))
        }
        end += 1
        count += 1
    }

    /// Closes request `id`: its purpose, or nil when it is not open (late or duplicate). The
    /// oldest open request (at `head`, never a hole) is tried first: answers mostly come back
    /// in request order.
    mutating func remove(_ id: Int) -> RequestPurpose? {
        var lo = head
        if lo < end && entries[lo].id != id {
            var hi = end
            while lo < hi {
                let mid = (lo + hi) / 2
                if entries[mid].id < id { lo = mid + 1 } else { hi = mid }
            }
        }
        guard lo < end && entries[lo].id == id, let purpose = entries[lo].purpose else { return nil }
        entries[lo].purpose = nil
        count -= 1
        if count == 0 {
            head = 0
            end = 0
        } else {
            while entries[head].purpose == nil { head += 1 }
            if end - head >= 32 && count * 4 <= end - head { compact() }
        }
        return purpose
    }

    /// Moves the open entries to the front, in order.
    private mutating func compact() {
        var n = 0
        for i in head..<end where entries[i].purpose != nil {
            entries[n] = entries[i]
            n += 1
        }
        head = 0
        end = n
    }
}
