import SimKernel
import GrouperModel
import Format
import Catalogs

/// Mean and 95% confidence interval of replication values, kept inside the metric's range.
///
/// NaN values (a metric undefined in a run, e.g. a mean over no messages) are left out and
/// `n` counts only the defined ones. A 0/1 metric gets the Wilson score interval of
/// `successes` of `n` (defined for n ≥ 1); other metrics the Student-t interval
/// (SimKernel's `Tally` and `ConfidenceInterval`, n ≥ 2), clipped to the metric's range.
public struct SampleSummary: Equatable, Sendable {
    public enum Method: String, Sendable { case studentT = "student-t", clipped = "student-t-clipped", wilson }
    public var n: Int
    public var mean: Double
    public var stddev: Double
    /// Half-width of the Student-t 95% CI (t_{0.975, n−1} · s / √n) before clipping; NaN when
    /// n < 2 or for a Wilson interval.
    public var ci95HalfWidth: Double
    /// The interval's bounds, inside the metric's range; NaN when there is no interval.
    public var low: Double, high: Double
    public var method: Method
    /// For a 0/1 metric: the runs with value 1.
    public var successes: Int?

    /// Values are added in the given (run) order, so the result is reproducible.
    public init(_ values: [Double], range: MetricRange = .unbounded) {
        let defined = values.filter { !$0.isNaN }
        let tally = Tally(defined)
        n = tally.count
        mean = n > 0 ? tally.mean : .nan
        stddev = n > 1 ? tally.stdDev : .nan
        let ci = tally.confidenceInterval95
        ci95HalfWidth = n > 1 && ci.isDefined ? ci.halfWidth : .nan
        low = .nan; high = .nan; method = .studentT
        if range == .binary && n > 0 && defined.allSatisfy({ $0 == 0 || $0 == 1 }) {
            let k = defined.filter { $0 == 1 }.count
            successes = k
            (low, high) = Self.wilson(k, of: n)
            ci95HalfWidth = .nan
            method = .wilson
        } else if !ci95HalfWidth.isNaN {
            let (lo, hi) = range.bounds
            low = max(lo, mean - ci95HalfWidth); high = min(hi, mean + ci95HalfWidth)
            if low != mean - ci95HalfWidth || high != mean + ci95HalfWidth { method = .clipped }
        }
    }

    /// The Wilson score 95% interval of k successes in n trials (n ≥ 1); always inside [0, 1].
    public static func wilson(_ k: Int, of n: Int) -> (low: Double, high: Double) {
        let z = 1.959963984540054, nn = Double(n), p = Double(k) / nn
        let denom = 1 + z * z / nn
        let center = (p + z * z / (2 * nn)) / denom
        let half = z / denom * (p * (1 - p) / nn + z * z / (4 * nn * nn)).squareRoot()
        return (max(0, center - half), min(1, center + half))
    }

    /// A table cell: "k of n runs" for 0/1 metrics, "mean ± half-width" for a symmetric
    /// interval, "mean [low, high]" for a clipped one, the mean alone without an interval; each
    /// number with `digits` significant digits (`NumberFormat.significant`: integers without
    /// decimals) but the half-width, which ends at the mean's last decimal
    /// (`NumberFormat.plusMinus`), after multiplying by `scale` (1000 for a time column shown in ms).
    public func cell(digits: Int = 4, scale: Double = 1) -> String {
        let num = { NumberFormat.significant($0 * scale, digits: digits) }
        if let k = successes { return "\(k) of \(Wording.count(n, "run"))" }
        guard !low.isNaN else { return num(mean) }
        return method == .clipped ? "\(num(mean)) [\(num(low)), \(num(high))]"
            : NumberFormat.plusMinus(mean * scale, ci95HalfWidth * scale, digits: digits)
    }
}
