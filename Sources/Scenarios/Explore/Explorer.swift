import SimKernel
import GrouperModel
import Format
import Catalogs
import ScenarioFile
import Plan
import GrouperBinding
import Shrink
import Experiments

/// One explored case: its document, how it fared in the reader, and what the oracles found.
public struct ExploreCase: Sendable {
    public enum Status: Sendable, Equatable {
        /// The reader refused the document (a cross-field rule); counted, not run.
        case rejected(String)
        /// Larger than the explorer's event cap by `validate`'s estimate; counted, not run.
        case tooBig(Double)
        /// Run; `findings` empty when every oracle held.
        case ran
        /// Given up because the search reached its end (`shouldStop`) while the case ran:
        /// neither counted nor judged.
        case stopped
    }
    public var index: Int
    public var text: String
    public var status: Status
    public var findings: [ExploreFinding] = []
    /// Oracles that looked at this case (a rejected case is seen by none).
    public var judged: [ExploreOracle] = []
    public var events: Double = 0
    /// The event budget its runs had (0 when not run): every later run of the case (the
    /// folder comparison, the timeline page, the shrink's candidates) has the same bound.
    public var budget: UInt64 = 0
}

/// An executor whose runs stop at `budget` events (`EventBudgetExceeded`): what keeps every
/// run `explore` makes of a case, not only the first, from looping without end.
public struct BudgetedExecutor: RunExecutor {
    public var base: any RunExecutor
    public var budget: UInt64
    public init(base: any RunExecutor, budget: UInt64) { self.base = base; self.budget = budget }
    public func execute(_ run: ResolvedRun) throws -> RunOutcome {
        var r = run
        r.eventBudget = min(r.eventBudget ?? budget, budget)
        return try base.execute(r)
    }
}

/// `grouper-sim explore`: draws cases, runs each once (replication 0) on the model, and judges
/// it with every oracle (docs/explore.md).
public struct Explorer: Sendable {
    public var generator: ExploreGenerator
    /// Cases whose estimate exceeds this many events are redrawn (kept small so a search
    /// sees many cases; a run that exceeds 50× its estimate is a finding of its own).
    public var maxEvents: Double = 400_000
    /// One case in this many is run twice for the determinism oracle, and once more with
    /// plain bookkeeping for the differential one.
    public var determinismEvery = 8
    /// One case in this many that qualifies is run under the central server too, and one in
    /// this many draws `equations --model thesis` parameters (differential oracle).
    public var differentialEvery = 4
    public var equationsEvery = 16
    /// The model with a fault planted (explore's canary tests); nil in every real search.
    public var plantedBug: PlantedBug? { didSet { executor = GrouperExecutor(plantedBug: plantedBug, audits: true) } }
    public private(set) var executor = GrouperExecutor(audits: true)
    /// Asked while a case runs whether the search is over (`explore --seconds`); a case that
    /// was running then comes back `.stopped`, so no verdict depends on the clock.
    public var shouldStop: (@Sendable () -> Bool)?

    public init(profile: ExploreProfile, seed: UInt64) {
        generator = ExploreGenerator(profile: profile, seed: seed)
    }

    /// Draws of one case before a rejected or too big document is given up as such.
    static let attempts = 4

    /// Case `index`: drawn, read, run and judged. Never throws: every failure is a status or a finding.
    public func explore(case index: Int) -> ExploreCase {
        if shouldStop?() == true { return ExploreCase(index: index, text: "", status: .stopped) }
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
            let c = run(index: index, text: text, loaded: loaded, estimate: estimate)
            // Any run of the case may have been given up (a re-run's failure would read as a finding).
            if shouldStop?() == true { return ExploreCase(index: index, text: text, status: .stopped) }
            return c
        }
        return last!
    }

    /// A run may take this many times its estimated events (at least `minimumBudget`) before
    /// it is stopped and reported: far beyond the estimate is a loop, not a slow run.
    public var budgetFactor = 50.0
    static let minimumBudget = 200_000.0

    func run(index: Int, text: String, loaded: LoadedScenario, estimate: Double) -> ExploreCase {
        var spec = loaded.base
        spec.metrics = MetricCatalog.all.map(\.id)
        spec.require = CheckerName.allCases
        var traits = CaseTraits(spec)
        if loaded.warnings.contains(where: { !$0.contains("plaintext") }) { traits.mustConverge = false }
        let seed = RunPlan.runSeed(scenarioSeed: spec.seed, replication: 0)
        var resolved = ResolvedRun(index: 0, point: 0, replication: 0, seed: seed, spec: spec, assignments: [])
        let budget = UInt64(max(Self.minimumBudget, budgetFactor * estimate))
        resolved.eventBudget = budget
        resolved.shouldStop = shouldStop
        var c = ExploreCase(index: index, text: text, status: .ran)
        c.budget = budget
        c.judged = [.runs, .safety, .metrics] + (traits.mustConverge ? [.liveness] : [])
        let outcome: RunOutcome
        do { outcome = try executor.execute(resolved) } catch let e as EventBudgetExceeded {
            c.findings = [ExploreFinding(oracle: .runs, message: "validate estimated about \(Int(estimate.rounded())) events; the run "
                + "\(e) (\(Int(budgetFactor))× the estimate): a loop, or an estimate that is far off", checker: nil)]
            c.events = Double(budget)
            return c
        } catch is RunStopped {
            return ExploreCase(index: index, text: text, status: .stopped)
        } catch {
            c.findings = [ExploreFinding(oracle: .runs, message: "internal error (exit 3): \(error)", checker: nil)]
            return c
        }
        c.events = outcome.metrics.first { $0.name == .events }?.value ?? 0
        c.findings = ExploreOracles.judge(outcome, traits)
        if traits.judgesReuploads { c.judged.append(.reuploads) }
        c.findings += differential(index: index, resolved, outcome, traits, judged: &c.judged)
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

extension Explorer {
    /// The differential oracle's findings for a run (sampled: see `differentialEvery`).
    func differential(index: Int, _ resolved: ResolvedRun, _ outcome: RunOutcome, _ t: CaseTraits,
                      judged: inout [ExploreOracle]) -> [ExploreFinding] {
        var out: [String] = []
        var looked = false
        if index % differentialEvery == 0 && t.comparesWithCentral {
            looked = true
            var central = resolved
            central.spec.architecture = .central
            if let other = try? executor.execute(central), let d = ExploreOracles.centralDifference(outcome, other, members: t.initialMembers) { out.append(d) }
        }
        if index % determinismEvery == 0 && !t.central {
            looked = true
            var plain = GrouperExecutor(compactState: false, plantedBug: plantedBug)
            plain.audits = false
            if let other = try? plain.execute(resolved), other.fingerprint != outcome.fingerprint {
                out.append("compact and plain bookkeeping differ: fingerprint \(outcome.fingerprint) vs \(other.fingerprint)")
            }
        }
        if index % equationsEvery == equationsEvery / 2 {
            looked = true
            if let e = EquationsProbe.draw(seed: generator.seed, index: index), let finding = e.finding() { out.append(finding) }
        }
        if looked { judged.append(.differential) }
        return out.map { ExploreFinding(oracle: .differential, message: $0, checker: nil) }
    }
}

/// `equations --model thesis` with random phase-free parameters (F·L/T whole, and F whole for
/// L > T): every simulated count must equal its refined form (up to rounding, `agrees`) with a
/// CI of 0, and the refined forms of 6.5–6.8 (6.5–6.7 for L > T) the thesis's closed forms.
struct EquationsProbe {
    var parameters: EquationParameters

    static func draw(seed: UInt64, index: Int) -> EquationsProbe? {
        var rng = RandomStreams(rootSeed: seed).stream(named: "explore/equations/\(index)")
        var p = EquationParameters()
        p.model = .thesis
        p.devices = rng.int(in: 3...8)
        p.updatesPerDevice = rng.int(in: 2...12)
        p.confirms = rng.int(in: 0...2)
        let lt = [0.25, 0.5, 1.0, 2.0][rng.nextInt(below: 4)]
        var choices: [Double] = []
        for half in 1...(2 * max(1, p.devices - 1)) {
            let f = Double(half) / 2, away = f * lt
            let whole = abs(away - away.rounded()) < 1e-9
            if whole && (lt <= 1 || f == f.rounded()) && away < Double(p.devices) { choices.append(f) }
        }
        guard !choices.isEmpty else { return nil }
        p.offline = choices[rng.nextInt(below: choices.count)]
        p.offlineTime = .seconds(Int64(lt * 86_400))
        p.replications = 2
        p.seed = rng.next() % 1000 + 1
        guard ThesisEquations.thesisCountsArePhaseFree(p) else { return nil }
        return EquationsProbe(parameters: p)
    }

    var command: String {
        let p = parameters
        return "grouper-sim equations --model thesis --D \(p.devices) --U \(p.updatesPerDevice) --C \(p.confirms) "
            + "--F \(NumberFormat.shortest(p.offline)) --L \(p.offlineTime.nanoseconds / 1_000_000_000)s --seed \(p.seed)"
    }

    /// Equal up to floating-point rounding: a mean over 7 devices and a closed form computed
    /// in another order may differ in the last bits (13.000000000000002 against 13).
    static func agrees(_ a: Double, _ b: Double) -> Bool {
        abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
    }

    func finding() -> String? {
        guard let rows = try? ThesisEquations.evaluate(parameters) else { return nil }   // unrealisable: nothing to judge
        let thesisRows = parameters.lOverT <= 1 ? 4 : 3
        for (i, row) in rows.enumerated() {
            guard let refined = row.refined else { continue }
            if !Self.agrees(row.simulated.mean, refined) || row.simulated.ci95HalfWidth != 0 {
                return "\(command): \(row.equation) simulated \(row.simulated.mean) ± \(row.simulated.ci95HalfWidth), refined \(refined)"
            }
            if i < thesisRows && !Self.agrees(refined, row.closedForm) {
                return "\(command): \(row.equation) refined \(refined) but the thesis's form gives \(row.closedForm)"
            }
        }
        return nil
    }
}

/// The table `explore` prints at the end: per oracle, cases judged and cases failed.
public struct ExploreTally: Sendable, Equatable {
    public var cases = 0, ran = 0, rejected = 0, tooBig = 0
    /// Cases given up at the search's end (`ExploreCase.Status.stopped`): not in `cases`.
    public var stopped = 0
    public var events = 0.0
    /// The cases that took the most events, most first (at most `largestKept`): where a
    /// search's time goes.
    public var largest: [(index: Int, events: Double)] = []
    static let largestKept = 5
    public var judged: [ExploreOracle: Int] = [:]
    public var failed: [ExploreOracle: Int] = [:]
    public init() {}

    public mutating func add(_ c: ExploreCase) {
        if c.status == .stopped { stopped += 1; return }
        cases += 1
        switch c.status {
        case .rejected: rejected += 1
        case .tooBig: tooBig += 1
        case .ran: ran += 1
        case .stopped: break
        }
        events += c.events
        if c.events > 0 {
            largest.append((c.index, c.events))
            largest.sort { $0.events != $1.events ? $0.events > $1.events : $0.index < $1.index }
            if largest.count > Self.largestKept { largest.removeLast() }
        }
        for o in c.judged { judged[o, default: 0] += 1 }
        for o in Set(c.findings.map(\.oracle)) { failed[o, default: 0] += 1 }
    }

    public var findings: Int { failed.values.reduce(0, +) }

    public static func == (a: ExploreTally, b: ExploreTally) -> Bool {
        a.cases == b.cases && a.ran == b.ran && a.rejected == b.rejected && a.tooBig == b.tooBig && a.stopped == b.stopped
            && a.events == b.events && a.judged == b.judged && a.failed == b.failed
            && a.largest.map(\.index) == b.largest.map(\.index) && a.largest.map(\.events) == b.largest.map(\.events)
    }

    /// "case 202 (9.81 million events), …": the largest cases, for explore.md.
    public var largestLine: String {
        largest.map { "case \($0.index) (\(NumberFormat.shortest(($0.events / 1e4).rounded() / 100)) million events)" }
            .joined(separator: ", ")
    }

    public var table: String {
        var lines = ["| oracle | cases judged | passed | failed |", "|---|---:|---:|---:|"]
        for o in ExploreOracle.allCases {
            let j = judged[o, default: 0], f = failed[o, default: 0]
            lines.append("| \(o.rawValue) | \(j) | \(j - f) | \(f) |")
        }
        return lines.joined(separator: "\n")
    }
}

/// A finding's case shrunk by `grouper-sim shrink`'s delta debugging, keeping the same
/// finding (its first shrinkable one: safety, liveness, metrics, reuploads, or a difference
/// from the central server).
public struct ShrunkCase: Sendable {
    /// The shrunk scenario file.
    public var text: String
    public var spec: ScenarioSpec
    /// The finding the shrunk file keeps (before masking).
    public var finding: String
    public var oracle: ExploreOracle
    /// Candidate runs the shrink took.
    public var runs: Int
}

extension Explorer {
    /// The oracle as a function of a candidate and its outcome, for the shrinker; nil for
    /// oracles whose findings are not one run's (runs, deterministic, the sampled differentials).
    func shrinkOracle(_ f: ExploreFinding, executor: (any RunExecutor)? = nil) -> (@Sendable (ScenarioSpec, RunOutcome) -> [String])? {
        let executor = executor ?? self.executor
        switch f.oracle {
        case .metrics: return { spec, o in ExploreOracles.metricFindings(o, CaseTraits(spec)).map(\.message) }
        case .reuploads: return { spec, o in CaseTraits(spec).judgesReuploads ? ExploreOracles.reuploadFindings(o) : [] }
        case .differential where f.message.hasPrefix("Grouper and central"):
            return { spec, o in
                let t = CaseTraits(spec)
                guard t.comparesWithCentral else { return [] }
                var central = ScenarioShrinker.resolved(spec, replication: 0)
                central.spec.architecture = .central
                guard let other = try? executor.execute(central) else { return [] }
                return ExploreOracles.centralDifference(o, other, members: t.initialMembers).map { [$0] } ?? []
            }
        default: return nil
        }
    }

    /// Shrinks case `c` to a small scenario with the same first shrinkable finding; nil when
    /// it has none or the finding does not come back when the case is run alone.
    public func shrink(_ c: ExploreCase, jobs: Int = 1) throws -> ShrunkCase? {
        guard let loaded = try? ScenarioLoader.load(ScenarioSource(label: "case-\(c.index).json", text: c.text)) else { return nil }
        var spec = loaded.base
        spec.metrics = MetricCatalog.all.map(\.id)
        spec.require = CheckerName.allCases
        var shrinker = ScenarioShrinker(jobs: jobs)
        let bounded: any RunExecutor = c.budget > 0 ? BudgetedExecutor(base: executor, budget: c.budget) : executor
        shrinker.executor = bounded
        for f in c.findings {
            let target: ScenarioShrinker.Target?
            if let checker = f.checker, f.oracle == .safety || f.oracle == .liveness {
                shrinker.oracle = nil
                target = try shrinker.target(of: spec, replication: 0, checker: checker)
            } else if let oracle = shrinkOracle(f, executor: bounded) {
                shrinker.oracle = oracle
                target = try shrinker.target(of: spec, replication: 0, oracle: oracle, naming: .convergence)
            } else { continue }
            guard let target else { continue }
            let r = try shrinker.shrink(spec, replication: 0, target: target)
            var out = r.spec
            out.name = "explore-case-\(c.index)-shrunk"
            if f.oracle == .safety || f.oracle == .liveness { out.require = [target.checker] }
            out.description = "grouper-sim explore: case \(c.index) (\(generator.profile.rawValue), seed \(generator.seed)) shrunk; "
                + "it still fails the \(f.oracle.rawValue) oracle the same way: \(target.finding)"
            return ShrunkCase(text: JSONWriter.pretty(out.resolvedJSON), spec: out, finding: target.finding,
                              oracle: f.oracle, runs: shrinker.runs)
        }
        return nil
    }
}
