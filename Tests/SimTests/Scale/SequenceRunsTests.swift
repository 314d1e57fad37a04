import Testing
import SimKernel
@testable import GrouperModel

/// `SequenceRuns` (what `DeliveryState` keeps above a sender's contiguous prefix) against a
/// plain `Set<Int>` with the scans Algorithm 1 made over it: random inserts (in order, into
/// gaps, joining two runs, repeated), removals of consecutive numbers from inside and from the
/// start of a run, and every question about random ranges.
@Suite struct SequenceRunsTests {
    /// The scan `DeliveryState.ask` made: the lowest and highest number of lo...hi not in `set`.
    static func missingSpan(_ set: Set<Int>, _ lo: Int, _ hi: Int) -> ClosedRange<Int>? {
        guard lo <= hi, let first = (lo...hi).first(where: { !set.contains($0) }),
              let last = (lo...hi).reversed().first(where: { !set.contains($0) }) else { return nil }
        return first...last
    }

    /// The scan `DeliveryState.ask` made for `.holes`.
    static func holes(_ set: Set<Int>, _ range: ClosedRange<Int>) -> [ClosedRange<Int>] {
        var holes: [ClosedRange<Int>] = [], start: Int? = nil
        for x in range {
            if set.contains(x) {
                if let a = start { holes.append(a...(x - 1)); start = nil }
            } else if start == nil {
                start = x
            }
        }
        if let a = start { holes.append(a...range.upperBound) }
        return holes
    }

    static func check(_ runs: SequenceRuns, _ set: Set<Int>, _ rng: inout Xoshiro256StarStar) -> Bool {
        guard runs.set == set, runs.isEmpty == set.isEmpty else { Issue.record("\(runs.runs) against \(set.sorted())"); return false }
        for (a, b) in zip(runs.runs, runs.runs.dropFirst()) where a.hi + 1 >= b.lo || a.lo > a.hi {
            Issue.record("runs not maximal: \(runs.runs)"); return false
        }
        for _ in 0..<6 {
            let lo = rng.nextInt(below: 90) - 5, hi = lo + rng.nextInt(below: 40) - 3
            guard runs.contains(lo) == set.contains(lo) else { Issue.record("contains \(lo) in \(set.sorted())"); return false }
            let span = runs.missingSpan(lo, hi)
            guard span == missingSpan(set, lo, hi) else {
                Issue.record("missingSpan(\(lo), \(hi)) = \(String(describing: span)) in \(set.sorted())"); return false
            }
            if lo <= hi, runs.holes(in: lo...hi) != holes(set, lo...hi) {
                Issue.record("holes(\(lo)...\(hi)) = \(runs.holes(in: lo...hi)) in \(set.sorted())"); return false
            }
        }
        return true
    }

    @Test func behavesLikeASetWithItsScans() {
        var rng = Xoshiro256StarStar(seed: 3232)
        var removals = 0, spans = 0
        for round in 0..<300 {
            var set = Set((0..<rng.nextInt(below: 12)).map { _ in rng.nextInt(below: 60) })
            var runs = round % 2 == 0 ? SequenceRuns(set) : SequenceRuns()
            if round % 2 == 1 { for x in set.shuffled(using: &rng) { runs.insert(x) } }
            guard Self.check(runs, set, &rng) else { return }
            for _ in 0..<60 {
                switch rng.nextInt(below: 4) {
                case 0, 1:
                    let x = rng.nextInt(below: 80)
                    runs.insert(x)
                    set.insert(x)
                default:
                    let x = rng.nextInt(below: 4) == 0 ? (set.randomElement(using: &rng) ?? 0) : rng.nextInt(below: 80)
                    var last: Int? = nil, c = x
                    while set.remove(c) != nil { last = c; c += 1 }
                    let got = runs.removeConsecutive(from: x)
                    guard got == last else { Issue.record("removeConsecutive(from: \(x)) = \(String(describing: got)), expected \(String(describing: last))"); return }
                    if last != nil { removals += 1 }
                }
                guard Self.check(runs, set, &rng) else { return }
                if runs.missingSpan(0, 80) != nil { spans += 1 }
            }
        }
        #expect(removals > 1_000 && spans > 1_000, "\(removals) removals, \(spans) spans")
    }
}
