import Format
import Catalogs
import ScenarioFile
/// What a `precision` target adds to the results: per point, how many replications ran and
/// whether the target was met (summary.csv, summary.md, manifest.json).
extension ResultSet {
    /// Whether point `p` met its target (nil without a target). False means the cap stopped it.
    public func targetMet(point p: Int) -> Bool? {
        guard let precision = scenario.pointSpecs[p].precision else { return nil }
        return PrecisionRule.isMet(records(point: p), spec: scenario.pointSpecs[p], precision: precision)
    }

    /// Extra summary.csv columns with a target: replications, relative_ci95 (achieved
    /// half-width over |mean|), target_met (yes/no for the target's metrics, else empty).
    static let precisionColumns = ["replications", "relative_ci95", "target_met"]

    func precisionCells(point p: Int, metric m: Int, _ s: SampleSummary) -> [String] {
        guard let precision = spec.precision else { return [] }
        let rel = s.relativeHalfWidth
        let met = precision.metrics.contains(spec.metrics[m]) ? (s.meets(relative: precision.relativeCI95) ? "yes" : "no") : ""
        return [String(records(point: p).count), rel.isNaN ? "" : NumberFormat.fixed(rel), met]
    }

    /// The summary.md sentence on replications.
    var replicationSentence: String {
        guard let precision = spec.precision else {
            return "\(scenario.points.count) sweep point(s) × \(spec.replications) replication(s), seed \(spec.seed). "
        }
        let met = scenario.points.indices.filter { targetMet(point: $0) == true }.count
        return "\(scenario.points.count) sweep point(s), seed \(spec.seed); replications per point until the 95% interval of "
            + "\(precision.metrics.map(\.rawValue).joined(separator: ", ")) is within ±\(NumberFormat.shortest(precision.relativeCI95 * 100))% of the mean "
            + "(batches of \(precision.batch), at least \(precision.minReplications), at most \(precision.maxReplications), "
            + (precision.stop == .together ? "the points stopping together" : "each point stopping on its own") + "): "
            + "target met at \(met) of \(scenario.points.count) point(s), \(records.count) runs in all. "
    }

    /// summary.md columns after the swept values: replications and whether the target was met.
    var precisionHeader: [String] { spec.precision == nil ? [] : ["replications", "target met"] }

    func precisionRow(point p: Int) -> [String] {
        guard let met = targetMet(point: p) else { return [] }
        return [String(records(point: p).count), met ? "yes" : "no (cap)"]
    }

    /// manifest.json: the target, and per point its replications and verdict.
    func manifestPrecision(_ point: Int) -> [(String, JSONValue)] {
        guard let met = targetMet(point: point) else { return [] }
        return [("replications", ScenarioSpec.int(records(point: point).count)), ("target_met", .bool(met))]
    }
}

extension PrecisionSpec {
    /// The block as a scenario file writes it (resolved.json, manifest.json).
    public var json: JSONValue {
        .object([("metrics", .array(metrics.map { .string($0.rawValue) })), ("relative_ci95", ScenarioSpec.number(relativeCI95)),
                 ("min_replications", ScenarioSpec.int(minReplications)), ("max_replications", ScenarioSpec.int(maxReplications)),
                 ("stop", .string(stop.rawValue))])
    }
}

extension PrecisionSpec {
    /// A JSON list of metric names (shard and partial-run files); nil when it is not one.
    static func names(_ v: JSONValue) -> [MetricName]? {
        guard case .array(let items) = v else { return nil }
        var list: [MetricName] = []
        for n in items { guard case .string(let s) = n, let m = MetricName(rawValue: s) else { return nil }; list.append(m) }
        return list
    }
}

extension PrecisionSpec.Stop {
    /// `"together"` or `"per-point"` (shard and partial-run files); nil otherwise.
    init?(json v: JSONValue) {
        guard case .string(let s) = v else { return nil }
        self.init(rawValue: s)
    }
}
