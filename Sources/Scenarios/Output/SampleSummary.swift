/// Mean and Student-t 95% confidence interval of replication values.
///
/// NaN values (a metric undefined in a run, e.g. a mean over no messages) are
/// left out and `n` counts only the defined ones. With n < 2 there is no interval.
public struct SampleSummary: Equatable, Sendable {
    public var n: Int
    public var mean: Double
    public var stddev: Double
    /// Half-width of the 95% CI (t_{0.975, n−1} · s / √n); NaN when n < 2.
    public var ci95HalfWidth: Double

    public init(_ values: [Double]) {
        let xs = values.filter { !$0.isNaN }
        n = xs.count
        guard n > 0 else { mean = .nan; stddev = .nan; ci95HalfWidth = .nan; return }
        // Summation in run order: the order is fixed, so the result is reproducible.
        mean = xs.reduce(0, +) / Double(n)
        guard n > 1 else { stddev = .nan; ci95HalfWidth = .nan; return }
        let m = mean
        let ss = xs.reduce(0) { $0 + ($1 - m) * ($1 - m) }
        stddev = (ss / Double(n - 1)).squareRoot()
        ci95HalfWidth = Self.t975(df: n - 1) * stddev / Double(n).squareRoot()
    }

    /// Two-sided 95% Student-t quantile: exact table for df ≤ 30, then
    /// interpolation in 1/df between 40, 60, 120 and ∞ (error < 0.001).
    public static func t975(df: Int) -> Double {
        precondition(df >= 1, "degrees of freedom must be positive")
        let table: [Double] = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                               2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                               2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]
        if df <= 30 { return table[df - 1] }
        let knots: [(df: Double, t: Double)] = [(30, 2.042), (40, 2.021), (60, 2.000), (120, 1.980), (.infinity, 1.960)]
        let x = 1 / Double(df)
        for j in 1..<knots.count where Double(df) <= knots[j].df {
            let x0 = 1 / knots[j - 1].df, x1 = 1 / knots[j].df
            return knots[j - 1].t + (knots[j].t - knots[j - 1].t) * (x - x0) / (x1 - x0)
        }
        return 1.960
    }
}
