/// A two-sided confidence interval `mean ± halfWidth` for a mean across replications.
///
/// With fewer than two observations the spread is unknown: `halfWidth` is
/// `+infinity` and `isDefined` is false (callers that write JSON should check it,
/// since JSON has no infinity).
public struct ConfidenceInterval: Hashable, Sendable, CustomStringConvertible {
    public var mean: Double
    public var halfWidth: Double
    /// Confidence level, e.g. 0.95.
    public var level: Double
    /// Number of replications the interval is based on.
    public var count: Int

    public init(mean: Double, halfWidth: Double, level: Double, count: Int) {
        self.mean = mean; self.halfWidth = halfWidth; self.level = level; self.count = count
    }

    public var lower: Double { mean - halfWidth }
    public var upper: Double { mean + halfWidth }
    /// False when `count < 2` (half-width unknown).
    public var isDefined: Bool { halfWidth.isFinite }
    /// True when `value` lies in `[lower, upper]`.
    public func contains(_ value: Double) -> Bool { value >= lower && value <= upper }

    /// Student-t 95% interval: `mean ± t(0.975, n−1) · s / sqrt(n)`.
    public static func studentT95(_ tally: Tally) -> ConfidenceInterval {
        guard tally.count >= 2 else {
            return ConfidenceInterval(mean: tally.mean, halfWidth: .infinity, level: 0.95, count: tally.count)
        }
        let t = StudentT.quantile975(degreesOfFreedom: tally.count - 1)
        return ConfidenceInterval(mean: tally.mean, halfWidth: t * tally.standardError,
                                  level: 0.95, count: tally.count)
    }

    /// Student-t 95% interval of the given replication results.
    public static func studentT95<S: Sequence>(_ values: S) -> ConfidenceInterval where S.Element == Double {
        studentT95(Tally(values))
    }

    public var description: String { "\(mean) ± \(halfWidth) (\(Int(level * 100))%, n=\(count))" }
}

/// Quantiles of Student's t distribution, computed without any library.
public enum StudentT {
    /// t(0.975, df) for df = 1…30, to 9 decimals (reference values from scipy.stats.t.ppf).
    static let table975: [Double] = [
        12.706204736, 4.302652730, 3.182446305, 2.776445105, 2.570581836,
        2.446911851, 2.364624252, 2.306004135, 2.262157163, 2.228138852,
        2.200985160, 2.178812830, 2.160368656, 2.144786688, 2.131449546,
        2.119905299, 2.109815578, 2.100922040, 2.093024054, 2.085963447,
        2.079613845, 2.073873068, 2.068657610, 2.063898562, 2.059538553,
        2.055529439, 2.051830516, 2.048407142, 2.045229642, 2.042272456,
    ]

    /// The 0.975 quantile of Student's t with `df` degrees of freedom (the multiplier of a
    /// two-sided 95% interval). Exact table for df ≤ 30; above, the Cornish–Fisher
    /// expansion around the normal quantile (error < 1e-7 for df > 30); df = Int.max → z.
    public static func quantile975(degreesOfFreedom df: Int) -> Double {
        precondition(df >= 1, "Student-t needs at least 1 degree of freedom, got \(df)")
        if df <= table975.count { return table975[df - 1] }
        let z = 1.959963984540054
        let n = Double(df)
        let z2 = z * z, z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2, z9 = z7 * z2
        let g1 = (z3 + z) / 4
        let g2 = (5 * z5 + 16 * z3 + 3 * z) / 96
        let g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384
        let g4 = (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / 92160
        return z + g1 / n + g2 / (n * n) + g3 / (n * n * n) + g4 / (n * n * n * n)
    }
}
