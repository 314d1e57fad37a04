import Catalogs

/// `"precision"`: replications per sweep point are not fixed but added in deterministic
/// batches until the 95% interval of every named metric is narrow enough, or a cap is reached.
///
/// The rule is a pure function of a point's records in replication order: after
/// `minReplications`, `minReplications + batch`, … (capped at `maxReplications`) runs, the
/// point stops at the first count where, for every metric in `metrics`,
/// (high − low) / 2 ≤ relativeCI95 · |mean| over the interval `SampleSummary` reports
/// (Wilson for 0/1 metrics, Student t clipped to the metric's range otherwise). Because run
/// seeds depend only on (seed, replication), that count is the same for every `--jobs`,
/// every shard layout and every resumed or extended run.
public struct PrecisionSpec: Equatable, Sendable {
    /// Metrics (a subset of the scenario's `metrics`) whose interval must be narrow enough.
    public var metrics: [MetricName]
    /// Target: half-width of the 95% interval over |mean|, in (0, 1).
    public var relativeCI95: Double
    public var minReplications: Int
    public var maxReplications: Int

    public static let defaultMin = 5
    public static let defaultMax = 500

    public init(metrics: [MetricName], relativeCI95: Double, minReplications: Int = PrecisionSpec.defaultMin,
                maxReplications: Int = PrecisionSpec.defaultMax) {
        self.metrics = metrics; self.relativeCI95 = relativeCI95
        self.minReplications = minReplications; self.maxReplications = maxReplications
    }

    /// Runs added after each check: as many as the first batch.
    public var batch: Int { minReplications }

    /// The counts at which the rule is checked: min, min + batch, …, max.
    public var checkpoints: [Int] {
        var out: [Int] = [], c = min(minReplications, maxReplications)
        while true {
            out.append(c)
            if c >= maxReplications { return out }
            c = min(c + batch, maxReplications)
        }
    }
}
