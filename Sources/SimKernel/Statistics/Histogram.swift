import Foundation

/// Bucketed distribution of observations with approximate quantiles.
///
/// Buckets are fixed at creation: `linear` (equal widths over [lower, upper)) or
/// `logarithmic` (equal ratios over [lower, upper), lower > 0 — right for latencies
/// spanning decades). Values below `lower` go to `underflow`, values ≥ `upper` to
/// `overflow`. An exact `Tally` rides along, so mean/min/max are exact; quantiles are
/// interpolated linearly inside a bucket and clamped to the observed [min, max].
/// O(buckets) memory; `add` is O(1); `quantile` is O(buckets).
public struct Histogram: Hashable, Codable, Sendable {
    /// How bucket edges are spaced.
    public enum Layout: Hashable, Codable, Sendable {
        case linear(lower: Double, upper: Double, buckets: Int)
        case logarithmic(lower: Double, upper: Double, buckets: Int)
    }

    public let layout: Layout
    /// Observations per bucket, `counts[i]` covers `bucketBounds(i)`.
    public private(set) var counts: [Int64]
    /// Observations below the first edge / at or above the last edge.
    public private(set) var underflow: Int64 = 0
    public private(set) var overflow: Int64 = 0
    /// Exact running summary of every observation.
    public private(set) var tally = Tally()

    /// Equal-width buckets over [lower, upper).
    public init(linearFrom lower: Double, to upper: Double, buckets: Int) {
        precondition(lower.isFinite && upper.isFinite && lower < upper, "Histogram: need finite lower < upper")
        precondition(buckets >= 1, "Histogram: need at least one bucket")
        layout = .linear(lower: lower, upper: upper, buckets: buckets)
        counts = Array(repeating: 0, count: buckets)
    }

    /// Equal-ratio buckets over [lower, upper), 0 < lower < upper.
    public init(logarithmicFrom lower: Double, to upper: Double, buckets: Int) {
        precondition(lower > 0 && upper.isFinite && lower < upper, "Histogram: need finite 0 < lower < upper")
        precondition(buckets >= 1, "Histogram: need at least one bucket")
        layout = .logarithmic(lower: lower, upper: upper, buckets: buckets)
        counts = Array(repeating: 0, count: buckets)
    }

    /// Total observations, including under- and overflow.
    public var count: Int { tally.count }

    /// Records one observation (NaN is a programmer error).
    public mutating func add(_ x: Double) {
        tally.add(x)
        switch bucketIndex(x) {
        case nil where x < lowerEdge: underflow += 1
        case nil: overflow += 1
        case let i?: counts[i] += 1
        }
    }

    /// Adds another histogram with the same layout (precondition).
    public mutating func merge(_ other: Histogram) {
        precondition(layout == other.layout, "Histogram.merge: layouts differ")
        for i in counts.indices { counts[i] += other.counts[i] }
        underflow += other.underflow
        overflow += other.overflow
        tally.merge(other.tally)
    }

    /// [lower, upper) of bucket `i`.
    public func bucketBounds(_ i: Int) -> (lower: Double, upper: Double) {
        precondition(counts.indices.contains(i), "Histogram: bucket \(i) out of range")
        return (edge(i), edge(i + 1))
    }

    /// Approximate `p`-quantile, 0 ≤ p ≤ 1; NaN when empty. p = 0 / 1 give the exact min / max.
    public func quantile(_ p: Double) -> Double {
        precondition(p >= 0 && p <= 1, "Histogram.quantile: p must be in [0, 1], got \(p)")
        guard count > 0 else { return .nan }
        if p == 0 { return tally.min }
        if p == 1 { return tally.max }
        let rank = p * Double(count)
        var seen = Double(underflow)
        if rank <= seen { return tally.min }
        for i in counts.indices where counts[i] > 0 {
            let c = Double(counts[i])
            if rank <= seen + c {
                let (lo, hi) = bucketBounds(i)
                let v = lo + (hi - lo) * ((rank - seen) / c)
                return Swift.min(Swift.max(v, tally.min), tally.max)
            }
            seen += c
        }
        return tally.max
    }

    var lowerEdge: Double {
        switch layout { case .linear(let l, _, _), .logarithmic(let l, _, _): return l }
    }

    func edge(_ i: Int) -> Double {
        switch layout {
        case let .linear(l, u, n):
            return i == n ? u : l + (u - l) * (Double(i) / Double(n))
        case let .logarithmic(l, u, n):
            return i == n ? u : l * Foundation.exp(Foundation.log(u / l) * (Double(i) / Double(n)))
        }
    }

    /// Bucket of `x`, or nil when outside [lower, upper). Consistent with `edge(_:)`.
    func bucketIndex(_ x: Double) -> Int? {
        let n = counts.count
        let guess: Double
        switch layout {
        case let .linear(l, u, _):
            guard x >= l && x < u else { return nil }
            guess = (x - l) / (u - l) * Double(n)
        case let .logarithmic(l, u, _):
            guard x >= l && x < u else { return nil }
            guess = Foundation.log(x / l) / Foundation.log(u / l) * Double(n)
        }
        // Rounding can put x one bucket off its edges; nudge so edge(i) <= x < edge(i+1).
        var i = Swift.min(Swift.max(Int(guess), 0), n - 1)
        while i > 0 && x < edge(i) { i -= 1 }
        while i < n - 1 && x >= edge(i + 1) { i += 1 }
        return i
    }
}
