import SimKernel
import GrouperModel
import ScenarioFile
import Plan
import Execution
import GrouperBinding

/// `grouper-sim shrink`: from one failing run to a small scenario that fails the same checker
/// the same way (docs/cli.md, "shrink").
///
/// The run's random workload, churn and faults are first made explicit (`concretized`). Then,
/// round after round until nothing more goes, the active time is cut, delta debugging removes
/// devices and servers, and then writes, windows, faults and invitations: the cheap cuts come
/// first because they make every later candidate run shorter and leave fewer elements to try.
/// Every step is a deterministic function of the candidates' outcomes, and candidates are
/// judged in a fixed order, so the result is the same for any `jobs`.
public struct ScenarioShrinker {
    /// What must keep happening: this checker fails, with a finding like `signature`.
    public struct Target: Equatable, Sendable {
        public var checker: CheckerName
        /// The original's first finding of `checker`, numbers and ids masked (`masked`).
        public var signature: String
        public var finding: String
    }

    public var executor: any RunExecutor = GrouperExecutor()
    public var jobs = 1
    /// A property of the whole outcome to keep failing instead of a checker (explore's
    /// oracles): its findings for a candidate and the candidate's outcome. A candidate fails
    /// the target when one of them, masked, is the target's signature; the target's checker
    /// is then not consulted.
    public var oracle: (@Sendable (ScenarioSpec, RunOutcome) -> [String])?
    /// With a control variant, a candidate counts only if the same scenario run with the
    /// control variant does not fail the target checker: what is kept is a difference between
    /// variants, not a scenario every variant fails.
    public var control: ProtocolVariant?
    /// Progress lines (stderr).
    public var progress: @Sendable (String) -> Void = { _ in }
    /// Candidate runs so far.
    public private(set) var runs = 0

    public init(jobs: Int = 1, progress: @escaping @Sendable (String) -> Void = { _ in }) {
        self.jobs = jobs; self.progress = progress
    }

    /// The target of a run: the named checker's first finding, or the first required checker
    /// that failed. Nil when the run passes (that checker found nothing).
    public mutating func target(of spec: ScenarioSpec, replication: Int, checker: CheckerName?) throws -> Target? {
        var probe = spec
        probe.require = checker.map { [$0] } ?? spec.require
        let verdicts = try outcome(probe, replication: replication)
        let failures = verdicts.filter { !$0.passed && $0.required }.compactMap { v in CheckerName(rawValue: v.name).map { (v, $0) } }
        guard let (failed, name) = failures.first(where: { checker == nil || $0.1 == checker }) else { return nil }
        let first = Self.findings(failed.detail).first ?? failed.detail
        return Target(checker: name, signature: Self.masked(first), finding: first)
    }

    /// Whether `spec` (run as `replication`) fails `target` the same way.
    public mutating func fails(_ spec: ScenarioSpec, replication: Int, _ target: Target) throws -> Bool {
        try firstFailing([spec], replication: replication, target) != nil
    }

    /// The index of the first of `specs` that fails `target`; they are run `jobs` at a time.
    mutating func firstFailing(_ specs: [ScenarioSpec], replication: Int, _ target: Target) throws -> Int? {
        var start = 0
        let executor = self.executor
        while start < specs.count {
            let batch = Array(specs[start..<min(start + max(1, jobs), specs.count)])
            let control = self.control, oracle = self.oracle
            let hits = try parallelMap(batch) { spec -> Bool in
                if let oracle {
                    guard let outcome = try? executor.execute(Self.resolved(spec, replication: replication)) else { return false }
                    return oracle(spec, outcome).contains { Self.masked($0) == target.signature }
                }
                var probe = spec
                probe.require = [target.checker]
                guard let v = try? Self.run(probe, replication: replication, executor).first(where: { $0.name == target.checker.rawValue })
                else { return false }
                guard !v.passed && Self.findings(v.detail).contains(where: { Self.masked($0) == target.signature }) else { return false }
                guard let control else { return true }
                return !Self.controlFails(probe, control, replication: replication, target.checker, executor)
            }
            runs += batch.count
            if let i = hits.firstIndex(of: true) { return start + i }
            start += batch.count
        }
        return nil
    }

    /// Whether `spec` run with the `control` variant fails `checker` too (a run that cannot
    /// be made counts as failing: the candidate is not kept on a guess).
    static func controlFails(_ spec: ScenarioSpec, _ control: ProtocolVariant, replication: Int,
                             _ checker: CheckerName, _ executor: any RunExecutor) -> Bool {
        var c = spec
        c.protocolSpec.variant = control
        guard let v = try? run(c, replication: replication, executor).first(where: { $0.name == checker.rawValue }) else { return true }
        return !v.passed
    }

    /// Whether the scenario as given fails `checker` with the control variant too (then there
    /// is no difference to keep and the shrink is refused).
    public mutating func controlFails(_ spec: ScenarioSpec, replication: Int, checker: CheckerName) -> Bool {
        guard let control else { return false }
        runs += 1
        var probe = spec
        probe.require = [checker]
        return Self.controlFails(probe, control, replication: replication, checker, executor)
    }

    mutating func outcome(_ spec: ScenarioSpec, replication: Int) throws -> [CheckerVerdict] {
        runs += 1
        return try Self.run(spec, replication: replication, executor)
    }

    static func run(_ spec: ScenarioSpec, replication: Int, _ executor: any RunExecutor) throws -> [CheckerVerdict] {
        try executor.execute(resolved(spec, replication: replication)).checkers
    }

    package static func resolved(_ spec: ScenarioSpec, replication: Int) -> ResolvedRun {
        ResolvedRun(index: 0, point: 0, replication: replication,
                    seed: RunPlan.runSeed(scenarioSeed: spec.seed, replication: replication),
                    spec: spec, assignments: [], tracePath: nil)
    }

    /// The target of an oracle (`oracle`): its first finding on `spec`, nil if it finds nothing.
    /// `checker` only names what the shrunk file requires.
    public mutating func target(of spec: ScenarioSpec, replication: Int, oracle: @Sendable (ScenarioSpec, RunOutcome) -> [String],
                                naming checker: CheckerName) throws -> Target? {
        runs += 1
        let outcome = try executor.execute(Self.resolved(spec, replication: replication))
        guard let first = oracle(spec, outcome).first else { return nil }
        return Target(checker: checker, signature: Self.masked(first), finding: first)
    }

    func parallelMap(_ specs: [ScenarioSpec], _ body: @escaping @Sendable (ScenarioSpec) throws -> Bool) throws -> [Bool] {
        try ParallelRunner.map(specs.indices.map { UInt64($0) }, jobs: jobs) { try body(specs[Int($0)]) }
    }

    /// A checker's detail as single findings (`GrouperExecutor` joins up to five with "; ").
    static func findings(_ detail: String) -> [String] {
        detail.components(separatedBy: "; ").filter { !$0.isEmpty && !$0.hasPrefix("… ") }
    }

    /// A finding with every word that holds a digit (device, object, message and server
    /// names, counts) replaced by `#`: what stays is the kind of failure and its reason. A
    /// count of 0 stays: "0 servers still hold it" (the shares are gone) is another way to fail
    /// than "1 servers still hold it" (the device just had no time to fetch).
    static func masked(_ finding: String) -> String {
        var out = "", word = ""
        func flush() { out += word == "0" || !word.contains(where: \.isNumber) ? word : "#"; word = "" }
        for ch in finding {
            if ch.isLetter || ch.isNumber || ch == "-" || ch == "_" { word.append(ch) } else { flush(); out.append(ch) }
        }
        flush()
        return out
    }
}

