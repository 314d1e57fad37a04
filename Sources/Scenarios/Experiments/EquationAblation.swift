import SimKernel
import Execution
import Format

/// The ablation: one `EquationResult` per step, from `--model thesis` to `--model protocol`.
public struct EquationAblation: Sendable {
    public var parameters: EquationParameters
    public var steps: [(label: String, result: EquationResult)]

    /// Runs every step (identical assumption sets are run once).
    /// `known` results (e.g. of the two models at full precision) are used instead of a run;
    /// `p.replications` caps the others.
    /// `tick` is called after each replication of any step (progress only).
    public static func run(_ p: EquationParameters, known: [(EquationAssumptions, EquationResult)] = [],
                           tick: (@Sendable () -> Void)? = nil) throws -> EquationAblation {
        let all = EquationAssumptions.ablationSteps
        var todo: [EquationAssumptions] = []
        for (_, a) in all where !(known.map(\.0) + todo).contains(where: { same($0, a, p) }) { todo.append(a) }
        // Steps run side by side, one thread each (each step's own rounds then run serially).
        let pending = todo, indices = todo.indices.map { UInt64($0) }
        let results = try ParallelRunner.map(indices, jobs: p.jobs) { i -> EquationResult in
            var q = p
            q.model = pending[Int(i)]
            q.jobs = 1
            return try ThesisEquations.run(q, tick: tick)
        }
        let done = known + Array(zip(todo, results))
        let steps = all.map { label, a in (label, done.first { same($0.0, a, p) }!.1) }
        return EquationAblation(parameters: p, steps: steps)
    }

    /// Same runs: equal, or differing only in the reading of F when L = T (both read the same).
    /// How many steps `run` runs (identical assumption sets run once).
    public static func stepsToRun(_ p: EquationParameters) -> Int {
        var todo: [EquationAssumptions] = []
        for (_, a) in EquationAssumptions.ablationSteps where !todo.contains(where: { same($0, a, p) }) { todo.append(a) }
        return todo.count
    }

    static func same(_ a: EquationAssumptions, _ b: EquationAssumptions, _ p: EquationParameters) -> Bool {
        var x = a, y = b
        if p.offlineTime == p.ttl && !a.scheduledOffline && !b.scheduledOffline {
            x.fCountsPeriodsPerTTL = false
            y.fCountsPeriodsPerTTL = false
        }
        return x == y
    }

    static let equations = ["6.5", "6.6", "6.7", "6.8"]

    public var markdown: String {
        var s = "Parameters: " + EquationReport.parameterPairs(parameters).filter { $0.0 != "model" && $0.0 != "replications" }
            .map { "\($0.0)=\($0.1)" }.joined(separator: ", ")
            + "; replications: at most \(parameters.replications) per step unless a step reuses a full-precision run, "
            + "each row says how many it used\n\n"
        let forms = ThesisEquations.closedForms(parameters).filter { Self.equations.contains($0.0) }
        s += "| step | " + forms.map { "\($0.0) \($0.1)" }.joined(separator: " | ") + " | replications | windows |\n"
        s += "|---|" + String(repeating: "---|", count: forms.count + 2) + "\n"
        s += "| thesis closed form | " + forms.map { EquationReport.sig($0.3) }.joined(separator: " | ") + " | — | — |\n"
        for (label, r) in steps {
            let cells = Self.equations.map { eq -> String in
                guard let row = r.rows.first(where: { $0.equation == eq }) else { return "—" }
                return NumberFormat.plusMinus(row.simulated.mean, row.simulated.ci95HalfWidth)
            }
            s += "| \(label) | " + cells.joined(separator: " | ") + " | \(r.replications) | \(r.windows) |\n"
        }
        return s
    }

    public var csv: String {
        var s = "step,label,equation,simulated_mean,ci95,replications,windows\n"
        for (i, (label, r)) in steps.enumerated() {
            for eq in Self.equations {
                guard let row = r.rows.first(where: { $0.equation == eq }) else { continue }
                s += "\(i),\"\(label)\",\(eq),\(EquationReport.num(row.simulated.mean)),\(EquationReport.num(row.simulated.ci95HalfWidth)),\(r.replications),\(r.windows)\n"
            }
        }
        return s
    }
}
