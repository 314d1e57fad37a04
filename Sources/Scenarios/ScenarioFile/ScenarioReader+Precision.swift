import Catalogs

extension ScenarioReader {
    static let precisionKeys = ["metrics", "relative_ci95", "min_replications", "max_replications", "stop"]

    /// `"precision": {"metrics": [...], "relative_ci95": 0.05, "min_replications": 5,
    /// "max_replications": 500, "stop": "together"}`; absent: fixed replications (`.some(nil)`). `metrics` are the
    /// scenario's metrics (nil when they had problems: then names are not checked against them).
    func readPrecision(_ n: Node?, metrics: [MetricName]?, replicationsGiven: Bool) -> PrecisionSpec?? {
        guard let n else { return .some(nil) }
        guard let o = ObjectReader(n, allowed: Self.precisionKeys) else { return nil }
        let before = sink.count
        if replicationsGiven {
            sink.add("replications", "is set together with \"precision\", expected one of them: with \"precision\" each sweep point "
                + "runs between min_replications and max_replications replications, as many as its target needs")
        }
        let names = o.required("metrics", "a non-empty list of the scenario's metrics").flatMap { readPrecisionMetrics($0, metrics) }
        let target = o.required("relative_ci95", "a number between 0 and 1 (exclusive), e.g. 0.05").flatMap { t -> Double? in
            guard case .number(let v, _) = t.value, v > 0, v < 1 else {
                t.fail("a number between 0 and 1 (exclusive), e.g. 0.05 for a half-width of 5% of the mean"); return nil
            }
            return v
        }
        let lo = o.optional("min_replications").map { $0.int(in: 2...100_000) } ?? PrecisionSpec.defaultMin
        let hi = o.optional("max_replications").map { $0.int(in: 2...100_000) } ?? PrecisionSpec.defaultMax
        let stop = o.optional("stop").map { $0.choice(PrecisionSpec.Stop.self) } ?? .together
        if let lo, let hi, lo > hi {
            sink.add(n.key("min_replications"), "got \(lo), expected at most max_replications (\(hi))")
        }
        guard sink.count == before, let names, let target, let lo, let hi, let stop else { return nil }
        return .some(PrecisionSpec(metrics: names, relativeCI95: target, minReplications: lo, maxReplications: hi, stop: stop))
    }

    func readPrecisionMetrics(_ n: Node, _ metrics: [MetricName]?) -> [MetricName]? {
        guard let names = readNames(n, MetricName.self) else { return nil }
        guard let metrics else { return names }
        var ok = true
        for (i, name) in names.enumerated() where !metrics.contains(name) {
            sink.add(n.index(i), "got \"\(name)\", expected one of the scenario's metrics (\(metrics.map(\.rawValue).joined(separator: ", "))): "
                + "add it to \"metrics\" to measure it")
            ok = false
        }
        return ok ? names : nil
    }
}
