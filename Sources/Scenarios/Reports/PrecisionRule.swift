import Catalogs
import ScenarioFile
import Plan
/// The stopping rule of a `precision` target (see `PrecisionSpec`): a pure function of a
/// point's records in replication order.
public enum PrecisionRule {
    /// Whether `records` (one point, replications 0..<count in order) meet the target.
    public static func isMet(_ records: ArraySlice<RunRecord>, spec: ScenarioSpec, precision: PrecisionSpec) -> Bool {
        precision.metrics.allSatisfy { name in
            guard let m = spec.metrics.firstIndex(of: name) else { return false }
            return summary(records, metric: m, spec: spec).meets(relative: precision.relativeCI95)
        }
    }

    static func summary(_ records: ArraySlice<RunRecord>, metric m: Int, spec: ScenarioSpec) -> SampleSummary {
        SampleSummary(records.map { $0.metrics[m] }, range: MetricRange.of(unit: ResultSet.unit(spec.metrics[m])))
    }

    /// The replication count at which a point with these records (at least that many, in
    /// replication order) stops: the first checkpoint that meets the target, else the cap.
    /// Nil when the records end before the rule decides.
    public static func stopCount(_ records: ArraySlice<RunRecord>, spec: ScenarioSpec, precision: PrecisionSpec) -> Int? {
        for c in precision.checkpoints {
            guard c <= records.count else { return nil }
            let head = records.prefix(c)
            if c == precision.maxReplications || isMet(head, spec: spec, precision: precision) { return c }
        }
        return nil
    }

    /// The replication count at which points stopping together stop: the first checkpoint at
    /// which every point's records (replication order) meet the target, else the cap. Nil when
    /// some point's records end before the rule decides. `specs[i]` is point i's scenario.
    public static func togetherStopCount(_ perPoint: [ArraySlice<RunRecord>], specs: [ScenarioSpec], precision: PrecisionSpec) -> Int? {
        for c in precision.checkpoints {
            guard perPoint.allSatisfy({ c <= $0.count }) else { return nil }
            if c == precision.maxReplications { return c }
            if zip(perPoint, specs).allSatisfy({ isMet($0.prefix(c), spec: $1, precision: precision) }) { return c }
        }
        return nil
    }
}

extension SampleSummary {
    /// Half of the reported 95% interval (Wilson for 0/1 metrics, Student t clipped to the
    /// metric's range otherwise); NaN without an interval.
    public var intervalHalfWidth: Double { low.isNaN || high.isNaN ? .nan : (high - low) / 2 }

    /// `intervalHalfWidth / |mean|`: NaN without an interval, +inf for a zero mean with a
    /// non-zero width, 0 when both are zero.
    public var relativeHalfWidth: Double {
        let h = intervalHalfWidth
        guard !h.isNaN, !mean.isNaN else { return .nan }
        if h == 0 { return 0 }
        return mean == 0 ? .infinity : h / abs(mean)
    }

    /// The interval's half-width is at most `relative` of |mean| (with 1e-12 slack, as the
    /// equations' estimator uses); never true without an interval.
    public func meets(relative: Double) -> Bool {
        let h = intervalHalfWidth
        return !h.isNaN && !mean.isNaN && h <= relative * abs(mean) + 1e-12
    }
}
