import SimKernel

/// Everything the output files are made of: the scenario and every run's record.
///
/// The files are a pure function of this value, so a single run, any `--jobs`
/// and a merge of shards write the same bytes.
public struct ResultSet: Sendable {
    public var scenario: LoadedScenario
    /// One record per run of the plan, in run order.
    public var records: [RunRecord]
    /// What ran the runs: the protocol model, or the synthetic stand-in whose numbers mean
    /// nothing (labelled in the manifest, summary and plots).
    public var engine: Engine

    public init(scenario: LoadedScenario, records: [RunRecord], engine: Engine = .grouper) {
        self.scenario = scenario; self.records = records; self.engine = engine
    }

    public var spec: ScenarioSpec { scenario.base }
    public var sweptPaths: [String] { spec.sweep.flatMap { $0.parameters.map(\.path) } }
    public var failedRuns: [RunRecord] { records.filter { !$0.failedCheckers.isEmpty } }

    /// Records of sweep point `p` (replications in order). O(1): records are in
    /// run order, point-major, one per (point, replication).
    public func records(point p: Int) -> ArraySlice<RunRecord> {
        precondition(records.count == scenario.points.count * spec.replications, "records must cover the whole plan")
        return records[(p * spec.replications)..<((p + 1) * spec.replications)]
    }

    /// Summary of metric `m` (index into spec.metrics) at point `p`.
    public func summary(point p: Int, metric m: Int) -> SampleSummary {
        SampleSummary(records(point: p).map { $0.metrics[m] }, range: MetricRange.of(unit: Self.unit(spec.metrics[m])))
    }

    /// Fingerprint of the whole result: FNV-1a over run fingerprints in order.
    public var fingerprint: UInt64 {
        var bytes: [UInt8] = []
        for r in records { withUnsafeBytes(of: r.fingerprint.littleEndian) { bytes.append(contentsOf: $0) } }
        return StableHash.fnv1a64(bytes: bytes)
    }
}
