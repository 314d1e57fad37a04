/// A device's requests waiting for an outcome, with what each was for.
///
/// Request ids come from one counter of the run (`DeviceContext.takeRequestID`), so a device's ids
/// arrive in increasing order and the entries stay sorted by id, with no hashing per request. A
/// device has few requests open at a time (one per server per step of a round or upload), so
/// the oldest entries sit inline, in the device's own storage, in a ring of `inlineCount` places:
/// an outcome finds its request without loading a separate array (a cache miss per outcome, as
/// the device is cold by the time a reply arrives). Closing a request leaves a hole (nil) that
/// the ring's front skips; entries that find the ring full wait in `overflow`, every one newer
/// than every inline one, and move in as the front frees places. Outcomes mostly come back in
/// request order, so the entry closed is mostly the ring's first.
struct PendingRequests: Sendable {
    private struct Entry {
        var id: Int
        var purpose: RequestPurpose
    }

    static let inlineCount = 4
    // The counts first, then the ring: a lookup reads the first few lines of this value.
    /// The ring's oldest place and how many places from it are in use (holes included).
    private var first = 0, span = 0
    private(set) var count = 0
    /// Entries waiting for an inline place, ids increasing: `overflow[overflowHead...]`, `overflowCount` of them.
    private var overflowHead = 0, overflowCount = 0
    /// The newest id inserted (ids must increase).
    private var newestID = Int.min
    private var overflow: [Entry] = []
    /// The ring's places; nil: a hole or unused.
    private var p0: Entry?, p1: Entry?, p2: Entry?, p3: Entry?

    var isEmpty: Bool { count == 0 }

    /// The open request ids, in increasing order.
    var sortedIDs: [Int] {
        var ids: [Int] = []
        for k in 0..<span { if let e = place((first + k) & 3) { ids.append(e.id) } }
        if overflowCount > 0 { for i in overflowHead..<overflow.count { ids.append(overflow[i].id) } }
        return ids
    }

    /// Opens request `id`, which must be above every open one.
    mutating func insert(_ id: Int, _ purpose: RequestPurpose) {
        precondition(count == 0 || newestID < id, "request ids must increase")
        newestID = id
        count += 1
        if overflowCount == 0 && span < Self.inlineCount {
            set(Entry(id: id, purpose: purpose), at: (first + span) & 3)
            span += 1
        } else {
            overflow.append(Entry(id: id, purpose: purpose))
            overflowCount += 1
        }
    }

    /// Closes request `id`: its purpose, or nil when it is not open (late or duplicate).
    mutating func remove(_ id: Int) -> RequestPurpose? {
        for k in 0..<span {
            let p = (first + k) & 3
            guard let e = place(p) else { continue }
            if e.id == id { return removeInline(at: p, front: k == 0, e.purpose) }
            if e.id > id { return nil }
        }
        return overflowCount > 0 ? removeOverflow(id) : nil
    }

    /// Closes the entry at ring place `p` (`front`: the first place): the front skips holes,
    /// and the oldest waiting entries move into the places it frees.
    private mutating func removeInline(at p: Int, front: Bool, _ purpose: RequestPurpose) -> RequestPurpose {
        set(nil, at: p)
        count -= 1
        if front {
            while span > 0 && place(first) == nil {
                first = (first + 1) & 3
                span -= 1
            }
            guard overflowCount > 0 else { return purpose }
            while span < Self.inlineCount && overflowCount > 0 {
                set(overflow[overflowHead], at: (first + span) & 3)
                span += 1
                overflowHead += 1
                overflowCount -= 1
            }
            dropOverflowFront()
        }
        return purpose
    }

    /// Closes waiting entry `id` (a binary search), or nil when it is not open.
    private mutating func removeOverflow(_ id: Int) -> RequestPurpose? {
        var lo = overflowHead, hi = overflow.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if overflow[mid].id < id { lo = mid + 1 } else { hi = mid }
        }
        guard lo < overflow.count && overflow[lo].id == id else { return nil }
        count -= 1
        overflowCount -= 1
        let purpose = overflow.remove(at: lo).purpose
        dropOverflowFront()
        return purpose
    }

    /// Forgets the overflow's front once all of it moved in, or half of it and at least 32.
    private mutating func dropOverflowFront() {
        if overflowCount == 0 {
            overflow = []
            overflowHead = 0
        } else if overflowHead >= 32 && overflowHead * 2 >= overflow.count {
            overflow.removeFirst(overflowHead)
            overflowHead = 0
        }
    }

    private func place(_ p: Int) -> Entry? {
        switch p {
        case 0: return p0
        case 1: return p1
        case 2: return p2
        default: return p3
        }
    }

    private mutating func set(_ e: Entry?, at p: Int) {
        switch p {
        case 0: p0 = e
        case 1: p1 = e
        case 2: p2 = e
        default: p3 = e
        }
    }
}
