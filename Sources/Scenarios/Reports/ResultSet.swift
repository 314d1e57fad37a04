import SimKernel
import Catalogs
import ScenarioFile
import Plan
import GrouperBinding

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
    /// The model identities (`ModelIdentity`) of the builds that ran the records, sorted;
    /// one unless `--allow-model-mix` combined runs of several builds.
    public var models: [String]

    /// Where each point's records start in `records` (plus the end), from the records' points.
    let pointStarts: [Int]

    /// `records` in run order, point-major: `replications` per point, or with a precision
    /// target as many as each point's rule ran.
    public init(scenario: LoadedScenario, records: [RunRecord], engine: Engine = .grouper,
                models: [String] = [ModelIdentity.current]) {
        self.scenario = scenario; self.records = records; self.engine = engine; self.models = models
        var starts = [0], i = 0
        for p in scenario.points.indices {
            while i < records.count && records[i].point == p { i += 1 }
            starts.append(i)
        }
        pointStarts = starts
        precondition(i == records.count, "records must be in run order, point-major")
    }

    public var spec: ScenarioSpec { scenario.base }
    public var sweptPaths: [String] { spec.sweep.flatMap { $0.parameters.map(\.path) } }
    public var failedRuns: [RunRecord] { records.filter { !$0.failedCheckers.isEmpty } }

    /// Records of sweep point `p` (replications in order). O(1).
    public func records(point p: Int) -> ArraySlice<RunRecord> {
        precondition(spec.precision != nil || records.count == scenario.points.count * spec.replications, "records must cover the whole plan")
        return records[pointStarts[p]..<pointStarts[p + 1]]
    }

    /// Summary of metric `m` (index into spec.metrics) at point `p`.
    public func summary(point p: Int, metric m: Int) -> SampleSummary {
        SampleSummary(records(point: p).map { $0.metrics[m] }, range: MetricRange.of(unit: Self.unit(spec.metrics[m])))
    }

    /// Fingerprint of the whole result: FNV-1a over run fingerprints in order.
    public var fingerprint: RunFingerprint {
        var bytes: [UInt8] = []
        for r in records { withUnsafeBytes(of: r.fingerprint.value.littleEndian) { bytes.append(contentsOf: $0) } }
        return RunFingerprint(value: StableHash.fnv1a64(bytes: bytes))
    }
}
