/// A set of sequence numbers kept as sorted runs of consecutive numbers: what Algorithm 1
/// (`DeliveryState`) holds of a sender above its contiguous prefix.
///
/// A receiver that missed one message of a sender gets the sender's later ones in order, so
/// the numbers above the gap are nearly always one or a few runs. Questions about a range —
/// its lowest and highest missing number, its holes — are then a binary search and a walk
/// over the runs inside the range, where a `Set<Int>` hashes every number of the range (each
/// message after a gap asked about the whole gap: quadratic in its length). Runs are maximal:
/// never empty, ascending, and separated by at least one missing number.
/// `SequenceRunsTests` compares every operation with a plain `Set<Int>`.
struct SequenceRuns: Sendable, Equatable {
    private(set) var runs: [IDRun] = []

    init() {}

    init(_ numbers: Set<Int>) {
        for x in numbers.sorted() { insert(x) }
    }

    var isEmpty: Bool { runs.isEmpty }

    /// The numbers, as a set.
    var set: Set<Int> { Set(runs.lazy.flatMap { $0.lo...$0.hi }) }

    /// The first run whose last number is ≥ `x` (`runs.count` if none).
    private func firstRun(endingAtOrAfter x: Int) -> Int {
        var lo = 0, hi = runs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if runs[mid].hi < x { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    func contains(_ x: Int) -> Bool {
        let r = firstRun(endingAtOrAfter: x)
        return r < runs.count && runs[r].lo <= x
    }

    mutating func insert(_ x: Int) {
        if let last = runs.last, last.hi < x {   // the usual case: above everything
            if last.hi == x - 1 { runs[runs.count - 1].hi = x } else { runs.append(IDRun(lo: x, hi: x)) }
            return
        }
        let r = firstRun(endingAtOrAfter: x)
        if r < runs.count && runs[r].lo <= x { return }
        let joinsBefore = r > 0 && runs[r - 1].hi == x - 1, joinsAfter = r < runs.count && runs[r].lo == x + 1
        switch (joinsBefore, joinsAfter) {
        case (true, true): runs[r - 1].hi = runs[r].hi; runs.remove(at: r)
        case (true, false): runs[r - 1].hi = x
        case (false, true): runs[r].lo = x
        case (false, false): runs.insert(IDRun(lo: x, hi: x), at: r)
        }
    }

    /// Removes `x`, `x + 1`, … while they are in the set and returns the last one removed, or
    /// nil (nothing removed) when `x` is not in it.
    mutating func removeConsecutive(from x: Int) -> Int? {
        let r = firstRun(endingAtOrAfter: x)
        guard r < runs.count && runs[r].lo <= x else { return nil }
        let hi = runs[r].hi
        if runs[r].lo == x { runs.remove(at: r) } else { runs[r].hi = x - 1 }
        return hi
    }

    /// The lowest and the highest number of `lo...hi` not in the set, or nil if it holds them all.
    func missingSpan(_ lo: Int, _ hi: Int) -> ClosedRange<Int>? {
        guard lo <= hi else { return nil }
        var first = lo
        let r = firstRun(endingAtOrAfter: lo)
        if r < runs.count && runs[r].lo <= lo { first = runs[r].hi + 1 }   // the next run starts past a missing one
        guard first <= hi else { return nil }
        var last = hi
        let s = firstRun(endingAtOrAfter: hi)
        if s < runs.count && runs[s].lo <= hi { last = runs[s].lo - 1 }
        return first...last
    }

    /// The maximal ranges of `range` not in the set, ascending.
    func holes(in range: ClosedRange<Int>) -> [ClosedRange<Int>] {
        var out: [ClosedRange<Int>] = [], next = range.lowerBound
        var r = firstRun(endingAtOrAfter: range.lowerBound)
        while r < runs.count && runs[r].lo <= range.upperBound && next <= range.upperBound {
            if runs[r].lo > next { out.append(next...(runs[r].lo - 1)) }
            next = max(next, runs[r].hi + 1)
            r += 1
        }
        if next <= range.upperBound { out.append(next...range.upperBound) }
        return out
    }
}
