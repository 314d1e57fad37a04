/// The share ids a device has downloaded from one server, as sorted runs of consecutive ids.
///
/// Servers number shares with ever-increasing ids and list them in id order, and which
/// shares a user may see is fixed when a share is stored. So once a list's smallest id is
/// m, no later list holds an id below m: `unseen(in:)` forgets those ids, keeping the
/// ids about as many as the server's list. Membership is a merge walk: O(list + runs), no
/// hashing. Consecutive ids are kept as one run (a plain set of the same ids, 16 bytes per
/// run instead of 8 per id: most ids a member downloads are consecutive).
///
/// The memoised pipeline (`ReceivePipeline.listsByGeneration`) adds a shortcut for lists that are the server's
/// whole list for the user (`ShareIDList.generation` set). A full walk of such a list also
/// forgets seen ids missing from it (they were deleted, and deleted ids never come back), so
/// after it every kept id is in the server's list. Until the list's `generation` changes, ids leave
/// that list only from its front, so the kept ids (those not below the list's first) are
/// still all in it; if as many listed ids are ≤ the largest kept id as there are kept ids,
/// they are exactly the kept ids and the unseen ids are the list's tail: O(log list + new).
struct SeenShareIDs: Sendable {
    /// The kept ids as maximal runs of consecutive ids, ascending: `runs[head...]` (forgetting
    /// a front costs O(1), compacted lazily). A server numbers all its shares consecutively and
    /// a member sees nearly all of them, so a few runs hold thousands of ids.
    private var runs: [IDRun] = []
    private var head = 0
    private(set) var count = 0
    /// Generation of the list the kept ids were last checked against (nil: never).
    private var checked: UInt64?
    /// The first and last kept id (`Int.max` / `Int.min`: none), beside `count`: a device lists
    /// once per round, long after its runs left the cache, and the shortcut for a list that
    /// only added ids needs no more, so it reads no run. `firstID` is the first run's start and
    /// `lastID` the last run's end: a list whose front moves inside the first run moves only
    /// `firstID`, an id that extends the last run moves only `lastID`, and `settle` writes both
    /// into the runs before anything else reads them.
    private var firstID = Int.max, lastID = Int.min
    /// The first run's end while it is not also the last run (`Int.max` while it is: its end is
    /// then `lastID`), so a moving front finds whether it stays inside that run without
    /// reading it.
    private var firstRunEnd = Int.max

    /// The kept ids, ascending.
    var ids: [Int] {
        var live = Array(runs[head...])
        if !live.isEmpty {
            live[0].lo = firstID
            live[live.count - 1].hi = lastID
        }
        return live.flatMap { Array($0.lo...$0.hi) }
    }
    /// Bytes of storage, dead front and spare capacity included (`RetainedState`).
    var capacityBytes: Int { runs.capacity * MemoryLayout<IDRun>.stride }
    /// Runs kept now (for tests).
    var runCount: Int { runs.count - head }

    /// The ids of `listed` (ascending) not downloaded yet, in order; forgets seen ids below
    /// `listed.first` (all of them when the list is empty).
    mutating func unseen(in listed: ShareIDList, compact: Bool = false) -> ShareIDs {
        let exact = compact && listed.generation != nil  // the server's whole list for this user
        guard let first = listed.first else {
            runs.removeAll(keepingCapacity: true)
            head = 0
            count = 0
            refreshEnds()
            checked = exact ? listed.generation : nil
            return ShareIDs()
        }
        dropFront(below: first)
        if exact, let c = checked, catchUp(from: c, to: listed) {
            guard count > 0 else { return ShareIDs(listed) }
            if let tail = listed.ids(after: lastID, ifVisibleThrough: count) { return tail }
        }
        settle()
        var out = ShareIDs(), kept = SeenShareIDs()
        var r = head
        for id in listed {
            while r < runs.count && runs[r].hi < id { r += 1 }
            if r < runs.count && runs[r].lo <= id { if exact { kept.append(id) } } else { out.append(id) }
        }
        if exact {
            kept.settle()
            runs = kept.runs
            head = 0
            count = kept.count
            refreshEnds()
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

    /// Forgets the ids below `first`. Nothing lies below it when the first kept id does not (the
    /// usual list starts where the last one did): one comparison instead of a search. A front
    /// that stays inside the first run (the usual TTL sweep) moves `firstID` only: no run is read.
    @inline(__always)
    private mutating func dropFront(below first: Int) {
        guard firstID < first else { return }
        if first <= (firstRunEnd == .max ? lastID : firstRunEnd) {
            count -= first - firstID
            firstID = first
            return
        }
        settle()
        let r = firstRun(endingAtOrAfter: first, gallopFrom: head)
        for i in head..<r { count -= runs[i].count }
        head = r
        if head < runs.count && runs[head].lo < first {
            count -= first - runs[head].lo
            runs[head].lo = first
        }
        if head >= 64 && head * 2 >= runs.count {
            runs.removeFirst(head)
            head = 0
        }
        refreshEnds()
    }

    /// Appends an id larger than all kept ones.
    private mutating func append(_ id: Int) {
        count += 1
        if lastID != .min && lastID == id - 1 {   // extends the last run: its end is `lastID`
            lastID = id
            return
        }
        settle()
        runs.append(IDRun(lo: id, hi: id), liveFrom: &head)
        refreshEnds()
    }

    /// Writes `firstID` into the first run and `lastID` into the last (a moving front may have
    /// moved only `firstID`, an append only `lastID`).
    private mutating func settle() {
        guard lastID != .min else { return }
        if runs[head].lo != firstID { runs[head].lo = firstID }
        if runs[runs.count - 1].hi != lastID { runs[runs.count - 1].hi = lastID }
    }

    /// Sets `firstID`, `lastID` and `firstRunEnd` from the runs (after each change to them).
    private mutating func refreshEnds() {
        if head < runs.count {
            firstID = runs[head].lo
            lastID = runs[runs.count - 1].hi
            firstRunEnd = head < runs.count - 1 ? runs[head].hi : .max
        } else {
            firstID = .max
            lastID = .min
            firstRunEnd = .max
        }
    }

    /// Records a downloaded id (usually larger than all before it: O(1)).
    mutating func insert(_ id: Int) {
        guard lastID >= id else { append(id); return }
        settle()
        let r = firstRun(endingAtOrAfter: id)
        if runs[r].lo <= id { return }
        count += 1
        let joinsBefore = r > head && runs[r - 1].hi == id - 1, joinsAfter = runs[r].lo == id + 1
        switch (joinsBefore, joinsAfter) {
        case (true, true): runs[r - 1].hi = runs[r].hi; runs.remove(at: r)
        case (true, false): runs[r - 1].hi = id
        case (false, true): runs[r].lo = id
        case (false, false): runs.insert(IDRun(lo: id, hi: id), at: r)
        }
        refreshEnds()
    }

    /// Forgets an id, so the next list fetches that share again.
    mutating func remove(_ id: Int) {
        settle()
        let r = firstRun(endingAtOrAfter: id)
        guard r < runs.count && runs[r].lo <= id else { return }
        count -= 1
        let run = runs[r]
        switch (run.lo == id, run.hi == id) {
        case (true, true): runs.remove(at: r)
        case (true, false): runs[r].lo = id + 1
        case (false, true): runs[r].hi = id - 1
        case (false, false):
            runs[r].hi = id - 1
            runs.insert(IDRun(lo: id + 1, hi: run.hi), at: r + 1)
        }
        refreshEnds()
    }

    /// First run index (≥ head) whose last id is ≥ `id`. With `gallopFrom` (≤ the answer) the
    /// search starts there with doubling steps, so an answer near it (a list whose front barely
    /// moved since the last round) costs a few probes instead of a binary search.
    private func firstRun(endingAtOrAfter id: Int, gallopFrom start: Int? = nil) -> Int {
        var lo = start ?? head, hi = runs.count
        if start != nil {
            var step = 1
            while lo + step <= runs.count && runs[lo + step - 1].hi < id { lo += step; step *= 2 }
            hi = min(lo + step, runs.count)
        }
        while lo < hi {
            let mid = (lo + hi) / 2
            if runs[mid].hi < id { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}

/// The ids lo...hi.
struct IDRun: Sendable, Equatable {
    var lo: Int, hi: Int
    var count: Int { hi - lo + 1 }
}
