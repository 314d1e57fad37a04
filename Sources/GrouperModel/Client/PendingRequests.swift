/// A device's requests waiting for an outcome, with what each was for.
///
/// Request ids come from one counter of the run (`DeviceContext.takeRequestID`), so a device's ids
/// arrive in increasing order and the open entries stay sorted by id, packed, with no hashing per
/// request. A device has few requests open at a time (one per server per step of a round or
/// upload), so the oldest `inlineCount` entries sit inline, in the device's own storage: an
/// outcome finds its request without loading a separate array's storage (a cache miss per
/// outcome, the device being cold by the time a reply arrives). Entries beyond them wait in
/// `overflow`, every one newer than every inline one; closing an inline entry shifts the newer
/// inline ones down and takes the oldest overflow entry in. Outcomes mostly come back in
/// request order, so the entry closed is mostly the first.
struct PendingRequests: Sendable {
    private struct Entry {
        var id: Int
        var purpose: RequestPurpose
    }

    static let inlineCount = 4
    private var e0: Entry?, e1: Entry?, e2: Entry?, e3: Entry?
    /// Open entries newer than the inline ones, ids increasing; `overflow[overflowHead...]` are in use.
    private var overflow: [Entry] = []
    private var overflowHead = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }
    private var inlineUsed: Int { min(count, Self.inlineCount) }

    /// The open request ids, in increasing order.
    var sortedIDs: [Int] {
        var ids: [Int] = []
        for i in 0..<inlineUsed { ids.append(self[inline: i].id) }
        for i in overflowHead..<overflow.count { ids.append(overflow[i].id) }
        return ids
    }

    /// Opens request `id`, which must be above every open one.
    mutating func insert(_ id: Int, _ purpose: RequestPurpose) {
        precondition(count == 0 || newestID < id, "request ids must increase")
        if count < Self.inlineCount {
            self[inline: count] = Entry(id: id, purpose: purpose)
        } else {
            overflow.append(Entry(id: id, purpose: purpose))
        }
        count += 1
    }

    /// Closes request `id`: its purpose, or nil when it is not open (late or duplicate).
    mutating func remove(_ id: Int) -> RequestPurpose? {
        let used = inlineUsed
        for i in 0..<used {
            let e = self[inline: i]
            if e.id == id { return removeInline(at: i, used: used) }
            if e.id > id { return nil }
        }
        return removeOverflow(id)
    }

    /// Closes inline entry `i` of the `used` ones: the newer ones shift down, the oldest overflow
    /// entry (if any) fills the last inline place.
    private mutating func removeInline(at i: Int, used: Int) -> RequestPurpose {
        let purpose = self[inline: i].purpose
        for k in i..<(used - 1) { self[inline: k] = self[inline: k + 1] }
        if overflowHead < overflow.count {
            self[inline: used - 1] = overflow[overflowHead]
            overflowHead += 1
            dropOverflowFront()
        } else {
            put(nil, at: used - 1)
        }
        count -= 1
        return purpose
    }

    /// Closes overflow entry `id` (a binary search), or nil when it is not open.
    private mutating func removeOverflow(_ id: Int) -> RequestPurpose? {
        var lo = overflowHead, hi = overflow.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if overflow[mid].id < id { lo = mid + 1 } else { hi = mid }
        }
        guard lo < overflow.count && overflow[lo].id == id else { return nil }
        count -= 1
        let purpose = overflow.remove(at: lo).purpose
        dropOverflowFront()
        return purpose
    }

    /// Forgets the overflow's taken front once it is all of it, or half of it and at least 32.
    private mutating func dropOverflowFront() {
        if overflowHead == overflow.count {
            overflow.removeAll(keepingCapacity: true)
            overflowHead = 0
        } else if overflowHead >= 32 && overflowHead * 2 >= overflow.count {
            overflow.removeFirst(overflowHead)
            overflowHead = 0
        }
    }

    private var newestID: Int {
        overflowHead < overflow.count ? overflow[overflow.count - 1].id : self[inline: inlineUsed - 1].id
    }

    private subscript(inline i: Int) -> Entry {
        get {
            switch i {
            case 0: return e0.unsafelyUnwrapped
            case 1: return e1.unsafelyUnwrapped
            case 2: return e2.unsafelyUnwrapped
            default: return e3.unsafelyUnwrapped
            }
        }
        set { put(newValue, at: i) }
    }

    /// Sets inline place `i` (nil: unused).
    private mutating func put(_ e: Entry?, at i: Int) {
        switch i {
        case 0: e0 = e
        case 1: e1 = e
        case 2: e2 = e
        default: e3 = e
        }
    }
}
