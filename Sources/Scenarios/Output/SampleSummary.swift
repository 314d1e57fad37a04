import SimKernel

/// Mean and Student-t 95% confidence interval of replication values, from
/// SimKernel's `Tally` and `ConfidenceInterval`.
///
/// NaN values (a metric undefined in a run, e.g. a mean over no messages) are
/// left out and `n` counts only the defined ones. With n < 2 there is no interval.
public struct SampleSummary: Equatable, Sendable {
    public var n: Int
    public var mean: Double
    public var stddev: Double
    /// Half-width of the 95% CI (t_{0.975, n−1} · s / √n); NaN when n < 2.
    public var ci95HalfWidth: Double

    /// Values are added in the given (run) order, so the result is reproducible.
    public init(_ values: [Double]) {
        let tally = Tally(values.filter { !$0.isNaN })
        n = tally.count
        mean = n > 0 ? tally.mean : .nan
        stddev = n > 1 ? tally.stdDev : .nan
        let ci = tally.confidenceInterval95
        ci95HalfWidth = n > 1 && ci.isDefined ? ci.halfWidth : .nan
    }
}
