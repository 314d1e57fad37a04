/// Running summary of observations: count, mean, variance, min, max (Welford).
///
/// Numerically stable one-pass update (Welford 1962); `merge` uses the pairwise
/// formula of Chan, Golub and LeVeque, so per-replication tallies can be combined in
/// any grouping with the same result up to rounding. O(1) memory, O(1) per `add`.
///
/// Invariants: `count >= 0`; when `count == 0`, `mean == 0`, `min == +inf`,
/// `max == -inf`; otherwise `min <= mean <= max` (up to rounding).
public struct Tally: Hashable, Sendable {
    /// Number of observations.
    public private(set) var count: Int = 0
    /// Arithmetic mean (0 when empty).
    public private(set) var mean: Double = 0
    /// Sum of squared deviations from the mean (Welford's M2).
    public private(set) var sumOfSquaredDeviations: Double = 0
    /// Smallest observation (+infinity when empty).
    public private(set) var min: Double = .infinity
    /// Largest observation (−infinity when empty).
    public private(set) var max: Double = -.infinity

    public init() {}

    /// A tally of `values`, in order.
    public init<S: Sequence>(_ values: S) where S.Element == Double {
        for v in values { add(v) }
    }

    /// Records one observation. NaN is a programmer error (it would poison every statistic).
    public mutating func add(_ x: Double) {
        precondition(!x.isNaN, "Tally.add: NaN observation")
        count += 1
        let delta = x - mean
        mean += delta / Double(count)
        sumOfSquaredDeviations += delta * (x - mean)
        if x < min { min = x }
        if x > max { max = x }
    }

    /// Combines another tally into this one, as if its observations had been added here.
    public mutating func merge(_ other: Tally) {
        guard other.count > 0 else { return }
        guard count > 0 else { self = other; return }
        let n1 = Double(count), n2 = Double(other.count), n = n1 + n2
        let delta = other.mean - mean
        mean += delta * (n2 / n)
        sumOfSquaredDeviations += other.sumOfSquaredDeviations + delta * delta * (n1 * n2 / n)
        count += other.count
        min = Swift.min(min, other.min)
        max = Swift.max(max, other.max)
    }

    /// `self` merged with `other`.
    public func merged(with other: Tally) -> Tally {
        var copy = self
        copy.merge(other)
        return copy
    }

    /// Sum of the observations (`mean * count`).
    public var sum: Double { mean * Double(count) }
    /// Unbiased sample variance (divides by `count - 1`); 0 when `count < 2`.
    public var variance: Double { count < 2 ? 0 : sumOfSquaredDeviations / Double(count - 1) }
    /// Population variance (divides by `count`); 0 when empty.
    public var populationVariance: Double { count < 1 ? 0 : sumOfSquaredDeviations / Double(count) }
    /// Sample standard deviation, `sqrt(variance)`.
    public var stdDev: Double { variance.squareRoot() }
    /// Standard error of the mean, `stdDev / sqrt(count)`; 0 when `count < 2`.
    public var standardError: Double { count < 2 ? 0 : stdDev / Double(count).squareRoot() }

    /// Student-t 95% confidence interval for the mean, treating each observation as
    /// one independent replication. See `ConfidenceInterval`.
    public var confidenceInterval95: ConfidenceInterval { ConfidenceInterval.studentT95(self) }
}
