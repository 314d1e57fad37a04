import SimKernel
import Format
import ScenarioFile
import Catalogs

/// One run to execute: a sweep point's spec, a replication and its seed.
public struct ResolvedRun: Sendable {
    /// Position in the full plan: `point * replications + replication`.
    public var index: Int
    public var point: Int
    public var replication: Int
    /// The run's own seed (see `RunPlan.runSeed`); the only randomness of the run.
    public var seed: UInt64
    public var spec: ScenarioSpec
    public var assignments: [(path: String, value: JSONValue)]
    /// Where to write the protocol log, if asked (`--trace`).
    public var tracePath: String?
    /// Where to write the kernel's event trace, if asked (`--events`).
    public var events: EventTraceRequest? = nil
    /// At most this many events (Grouper runs; `explore`), else `EventBudgetExceeded`.
    public var eventBudget: UInt64? = nil
    /// Called now and then with the fraction of the run's virtual time done (for progress
    /// bars; from the run's thread). An observation: it changes nothing in the run.
    public var onProgress: (@Sendable (Double) -> Void)? = nil
    /// Asked now and then (as often as `onProgress` is called) whether to give the run up;
    /// when it answers true the executor throws `RunStopped`. For searches that end at a
    /// wall-clock time (`explore --seconds`): a stopped run has no result, so no verdict
    /// depends on when it was stopped.
    public var shouldStop: (@Sendable () -> Bool)? = nil
    package init(index: Int, point: Int, replication: Int, seed: UInt64, spec: ScenarioSpec, assignments: [(path: String, value: JSONValue)], tracePath: String? = nil, events: EventTraceRequest? = nil, eventBudget: UInt64? = nil, onProgress: (@Sendable (Double) -> Void)? = nil) {
        self.index = index; self.point = point; self.replication = replication; self.seed = seed; self.spec = spec; self.assignments = assignments; self.tracePath = tracePath; self.events = events; self.eventBudget = eventBudget; self.onProgress = onProgress
    }
}

/// A run given up because its `ResolvedRun.shouldStop` said so.
public struct RunStopped: Error, Sendable, CustomStringConvertible {
    public var at: SimTime
    package init(at: SimTime) { self.at = at }
    public var description: String { "given up at \(at), before the end of the run" }
}

/// A run stopped at its `ResolvedRun.eventBudget` before reaching its end.
public struct EventBudgetExceeded: Error, Sendable, CustomStringConvertible {
    public var budget: UInt64
    public var at: SimTime
    package init(budget: UInt64, at: SimTime) {
        self.budget = budget; self.at = at
    }
    public var description: String { "stopped at its budget of \(budget) events at \(at), before the end of the run" }
}

/// `--events FILE [--event-kinds K,…]`: the kernel's JSON Lines trace of one run.
public struct EventTraceRequest: Sendable, Equatable {
    public var path: String
    /// Keep only these event kinds (nil: all).
    public var kinds: [String]?
    public init(path: String, kinds: [String]? = nil) { self.path = path; self.kinds = kinds }
}

/// A checker's verdict on one run (safety: something bad happened; liveness:
/// something good did not happen in time).
public struct CheckerVerdict: Equatable, Sendable {
    public enum Kind: String, Sendable { case safety, liveness }
    public var name: String
    public var kind: Kind
    /// The checker's own verdict, whether or not the scenario requires it.
    public var passed: Bool
    /// Whether the scenario's `require` names the checker: only a required checker's failure
    /// fails the run (exit code, replay hint, shrink target); every failure is shown.
    public var required: Bool
    /// What failed (names messages and reasons); empty when passed.
    public var detail: String
    public init(name: String, kind: Kind, passed: Bool, required: Bool = true, detail: String = "") {
        self.name = name; self.kind = kind; self.passed = passed; self.required = required; self.detail = detail
    }
}

/// What an executor reports for a run.
public struct RunOutcome: Sendable {
    /// Metric values by name; must include every metric the spec asks for.
    public var metrics: [(name: MetricName, value: Double)]
    public var checkers: [CheckerVerdict]
    /// Hash of the run's event stream / results; equal on a rerun with the same seed.
    public var fingerprint: RunFingerprint
    /// With a `series` in the spec: one row per sample time (`SeriesSpec.times`), one value
    /// per series metric in the spec's order. Empty otherwise.
    public var series: [[Double]]
    /// What the model observed that no checker judges, for `explore`'s oracles: "repeated
    /// re-uploads" (count) and its examples. Not written to any result file.
    public var audit: [String: Double] = [:]
    public var auditExamples: [String] = []
    /// With `GrouperExecutor.audits`: each member's live objects at the end
    /// (`GrouperSystem.finalObjects`), for the differential oracle. Empty otherwise.
    public var finalObjects: [String] = []
    public init(metrics: [(name: MetricName, value: Double)], checkers: [CheckerVerdict], fingerprint: RunFingerprint,
                series: [[Double]] = []) {
        self.metrics = metrics; self.checkers = checkers; self.fingerprint = fingerprint; self.series = series
    }
}

extension RunOutcome {
    /// `audit` key: unicast re-upload copies stored again while an earlier copy for the same
    /// requester should still be on enough servers.
    public static let repeatedReuploads = "repeated_reuploads"
}

/// Runs one simulation. Implementations must be deterministic functions of the
/// run (spec + seed) and keep no shared mutable state: `--jobs` calls them from
/// several threads at once, one run per call.
public protocol RunExecutor: Sendable {
    func execute(_ run: ResolvedRun) throws -> RunOutcome
}

/// The result of one run, metrics in the spec's metric order.
public struct RunRecord: Equatable, Sendable {
    public var index: Int
    public var point: Int
    public var replication: Int
    public var seed: UInt64
    public var metrics: [Double]
    public var checkers: [CheckerVerdict]
    public var fingerprint: RunFingerprint
    /// Series samples (see `RunOutcome.series`); empty without a `series` in the spec.
    public var series: [[Double]] = []
    public init(index: Int, point: Int, replication: Int, seed: UInt64, metrics: [Double], checkers: [CheckerVerdict], fingerprint: RunFingerprint, series: [[Double]] = []) {
        self.index = index; self.point = point; self.replication = replication; self.seed = seed; self.metrics = metrics; self.checkers = checkers; self.fingerprint = fingerprint; self.series = series
    }

    /// Required checkers that failed: what fails the run.
    public var failedCheckers: [CheckerVerdict] { checkers.filter { !$0.passed && $0.required } }
    /// Checkers that failed although the scenario does not require them: shown, marked so.
    public var unrequiredFailures: [CheckerVerdict] { checkers.filter { !$0.passed && !$0.required } }

    /// The `checkers` cell of runs.csv: `ok` when every checker passed; else `failed:` + the
    /// required failures and `failed-not-required:` + the others, names joined by `;`, the two
    /// parts separated by a space.
    public var checkersCell: String {
        let req = failedCheckers, other = unrequiredFailures
        if req.isEmpty && other.isEmpty { return "ok" }
        return ((req.isEmpty ? [] : ["failed:" + req.map(\.name).joined(separator: ";")])
            + (other.isEmpty ? [] : ["failed-not-required:" + other.map(\.name).joined(separator: ";")]))
            .joined(separator: " ")
    }

    public static func == (a: RunRecord, b: RunRecord) -> Bool {
        a.index == b.index && a.point == b.point && a.replication == b.replication && a.seed == b.seed
            && a.metrics.map(\.bitPattern) == b.metrics.map(\.bitPattern) && a.checkers == b.checkers
            && a.fingerprint == b.fingerprint && a.series.map { $0.map(\.bitPattern) } == b.series.map { $0.map(\.bitPattern) }
    }
}

/// Every run of a scenario, in a fixed order: points in sweep order, replications inside.
public struct RunPlan: Sendable {
    public var scenario: LoadedScenario
    public var runs: [ResolvedRun]

    public init(_ scenario: LoadedScenario, tracePath: String? = nil, events: EventTraceRequest? = nil) {
        self.scenario = scenario
        let r = scenario.base.replications
        var runs: [ResolvedRun] = []
        runs.reserveCapacity(scenario.points.count * r)
        for (p, point) in scenario.points.enumerated() {
            let spec = scenario.pointSpecs[p]
            for rep in 0..<r {
                runs.append(ResolvedRun(index: p * r + rep, point: p, replication: rep,
                                        seed: Self.runSeed(scenarioSeed: spec.seed, replication: rep),
                                        spec: spec, assignments: point.assignments, tracePath: tracePath, events: events))
            }
        }
        self.runs = runs
    }

    /// A run's seed depends only on (scenario seed, replication), not on the sweep point:
    /// common random numbers. Replication r draws the same workload, churn and fault
    /// streams at every point unless the point's own parameters change them, so differences
    /// between points are effects, not noise. A run is a function of its point's parameter
    /// values and this seed, so adding replications or sweep values (on any axis) never
    /// changes an existing run.
    public static func runSeed(scenarioSeed: UInt64, replication: Int) -> UInt64 {
        RandomStreams(rootSeed: scenarioSeed).childSeed(named: "run/replication-\(replication)")
    }

    /// The runs of shard `i` of `n` (1-based): every n-th run starting at i − 1,
    /// so slices stay balanced when run times grow along the sweep.
    public func shard(_ i: Int, of n: Int) -> [ResolvedRun] {
        precondition(n >= 1 && (1...n).contains(i), "shard \(i)/\(n) out of range")
        return runs.filter { $0.index % n == i - 1 }
    }
}
