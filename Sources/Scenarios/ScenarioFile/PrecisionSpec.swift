import Catalogs

/// `"precision"`: replications per sweep point are not fixed but added in deterministic
/// batches until the 95% interval of every named metric is narrow enough, or a cap is reached.
///
/// The rule is checked after `minReplications`, `minReplications + batch`, … (capped at
/// `maxReplications`) runs: a point meets the target at a count where, for every metric in
/// `metrics`, (high − low) / 2 ≤ relativeCI95 · |mean| over the interval `SampleSummary`
/// reports (Wilson for 0/1 metrics, Student t clipped to the metric's range otherwise).
/// With `stop` `.together` (the default) every point stops at the first checkpoint where
/// every point meets it (or the cap), so all points have the same replications and
/// replication r pairs them (common random numbers); with `.perPoint` each point stops at its
/// own first checkpoint. Either way the counts are a pure function of the records in
/// replication order, and run seeds depend only on (seed, replication), so they are the same
/// for every `--jobs` and every resumed run (and, per point, every shard layout).
public struct PrecisionSpec: Equatable, Sendable {
    /// Metrics (a subset of the scenario's `metrics`) whose interval must be narrow enough.
    public var metrics: [MetricName]
    /// Target: half-width of the 95% interval over |mean|, in (0, 1).
    public var relativeCI95: Double
    public var minReplications: Int
    public var maxReplications: Int
    /// Whether the points stop together (the same count at every point) or each on its own.
    public var stop: Stop

    /// `"stop"` of a precision block.
    public enum Stop: String, Equatable, Sendable, CaseIterable {
        /// Every point runs the next batch until every point meets the target (or the cap).
        case together
        /// Each point stops at its own first checkpoint that meets the target.
        case perPoint = "per-point"
    }

    public static let defaultMin = 5
    public static let defaultMax = 500

    public init(metrics: [MetricName], relativeCI95: Double, minReplications: Int = PrecisionSpec.defaultMin,
                maxReplications: Int = PrecisionSpec.defaultMax, stop: Stop = .together) {
        self.metrics = metrics; self.relativeCI95 = relativeCI95; self.stop = stop
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
