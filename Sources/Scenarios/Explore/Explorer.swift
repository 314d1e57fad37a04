import SimKernel
import GrouperModel

/// One explored case: its document, how it fared in the reader, and what the oracles found.
public struct ExploreCase: Sendable {
    public enum Status: Sendable, Equatable {
        /// The reader refused the document (a cross-field rule); counted, not run.
        case rejected(String)
        /// Larger than the explorer's event cap by `validate`'s estimate; counted, not run.
        case tooBig(Double)
        /// Run; `findings` empty when every oracle held.
        case ran
    }
    public var index: Int
    public var text: String
    public var status: Status
    public var findings: [ExploreFinding] = []
    /// Oracles that looked at this case (a rejected case is seen by none).
    public var judged: [ExploreOracle] = []
    public var events: Double = 0
}

/// `grouper-sim explore`: draws cases, runs each once (replication 0) on the model, and judges
/// it with every oracle (docs/explore.md).
public struct Explorer: Sendable {
    public var generator: ExploreGenerator
    /// Cases whose estimate exceeds this many events are redrawn (kept small so a search
    /// sees many cases; a run that exceeds 50× its estimate is a finding of its own).
    public var maxEvents: Double = 400_000
    /// One case in this many is run twice for the determinism oracle.
    public var determinismEvery = 8
    public var executor: any RunExecutor = GrouperExecutor()

    public init(profile: ExploreProfile, seed: UInt64) {
        generator = ExploreGenerator(profile: profile, seed: seed)
    }

    /// Draws of one case before a rejected or too big document is given up as such.
    static let attempts = 4

    /// Case `index`: drawn, read, run and judged. Never throws: every failure is a status or a finding.
    public func explore(case index: Int) -> ExploreCase {
        var last: ExploreCase?
        for attempt in 0..<Self.attempts {
            let doc = generator.document(case: index, attempt: attempt)
            let text = JSONWriter.pretty(doc)
            let loaded: LoadedScenario
            do { loaded = try ScenarioLoader.load(ScenarioSource(label: "case-\(index).json", text: text)) } catch {
                last = ExploreCase(index: index, text: text, status: .rejected(error.issues.first?.description ?? "\(error)"))
                continue
            }
            let estimate = loaded.estimatedEvents
            if estimate > maxEvents { last = ExploreCase(index: index, text: text, status: .tooBig(estimate)); continue }
            return run(index: index, text: text, loaded: loaded, estimate: estimate)
        }
        return last!
    }

    /// A run may take this many times its estimated events (at least `minimumBudget`) before
    /// it is stopped and reported: far beyond the estimate is a loop, not a slow run.
    public var budgetFactor = 50.0
    static let minimumBudget = 200_000.0

    func run(index: Int, text: String, loaded: LoadedScenario, estimate: Double) -> ExploreCase {
        var spec = loaded.base
        spec.metrics = MetricCatalog.all.map(\.name)
        spec.require = CheckerName.allCases
        var traits = CaseTraits(spec)
        if loaded.warnings.contains(where: { !$0.contains("plaintext") }) { traits.mustConverge = false }
        let seed = RunPlan.runSeed(scenarioSeed: spec.seed, replication: 0)
        var resolved = ResolvedRun(index: 0, point: 0, replication: 0, seed: seed, spec: spec, assignments: [])
        let budget = UInt64(max(Self.minimumBudget, budgetFactor * estimate))
        resolved.eventBudget = budget
        var c = ExploreCase(index: index, text: text, status: .ran)
        c.judged = [.runs, .safety, .metrics] + (traits.mustConverge ? [.liveness] : [])
        let outcome: RunOutcome
        do { outcome = try executor.execute(resolved) } catch let e as EventBudgetExceeded {
            c.findings = [ExploreFinding(oracle: .runs, message: "validate estimated about \(Int(estimate.rounded())) events; the run "
                + "\(e) (\(Int(budgetFactor))× the estimate): a loop, or an estimate that is far off", checker: nil)]
            c.events = Double(budget)
            return c
        } catch {
            c.findings = [ExploreFinding(oracle: .runs, message: "internal error (exit 3): \(error)", checker: nil)]
            return c
        }
        c.events = outcome.metrics.first { $0.name == MetricName.events.rawValue }?.value ?? 0
        c.findings = ExploreOracles.judge(outcome, traits)
        if index % determinismEvery == 0 {
            c.judged.append(.deterministic)
            if let again = try? executor.execute(resolved) {
                let a = outcome.metrics.map { "\($0.name)=\($0.value.bitPattern)" }, b = again.metrics.map { "\($0.name)=\($0.value.bitPattern)" }
                if again.fingerprint != outcome.fingerprint || a != b || again.checkers != outcome.checkers {
                    c.findings.append(ExploreFinding(oracle: .deterministic, message: "the same run twice differs: fingerprint "
                        + "\(outcome.fingerprint) vs \(again.fingerprint); metrics equal: \(a == b); verdicts equal: \(again.checkers == outcome.checkers)",
                        checker: nil))
                }
            } else {
                c.findings.append(ExploreFinding(oracle: .deterministic, message: "the second run of the same case failed", checker: nil))
            }
        }
        return c
    }
}

/// The table `explore` prints at the end: per oracle, cases judged and cases failed.
public struct ExploreTally: Sendable, Equatable {
    public var cases = 0, ran = 0, rejected = 0, tooBig = 0
    public var events = 0.0
    public var judged: [ExploreOracle: Int] = [:]
    public var failed: [ExploreOracle: Int] = [:]
    public init() {}

    public mutating func add(_ c: ExploreCase) {
        cases += 1
        switch c.status {
        case .rejected: rejected += 1
        case .tooBig: tooBig += 1
        case .ran: ran += 1
        }
        events += c.events
        for o in c.judged { judged[o, default: 0] += 1 }
        for o in Set(c.findings.map(\.oracle)) { failed[o, default: 0] += 1 }
    }

    public var findings: Int { failed.values.reduce(0, +) }

    public var table: String {
        var lines = ["| oracle | cases judged | passed | failed |", "|---|---:|---:|---:|"]
        for o in ExploreOracle.allCases {
            let j = judged[o, default: 0], f = failed[o, default: 0]
            lines.append("| \(o.rawValue) | \(j) | \(j - f) | \(f) |")
        }
        return lines.joined(separator: "\n")
    }
}
