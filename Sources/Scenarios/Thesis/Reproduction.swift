import Foundation
import SimKernel
import GrouperModel

/// `grouper-sim reproduce`: every thesis experiment into one folder.
///
/// Output is a pure function of the built-in scenarios and equation cases (no clocks, no
/// host data), so a rerun is byte-identical for any number of jobs.
public enum Reproduction {
    /// The equation cases: the thesis's two worked examples (SPEC §7); F = 0 is exact,
    /// F = 2 gets 10 replications because one TTL window varies a lot.
    public static var equationCases: [EquationParameters] {
        var none = EquationParameters()
        none.replications = 5
        var offline = none
        offline.offline = 2
        offline.offlineTime = .seconds(Int64(86_400))
        offline.replications = 10
        return [none, offline]
    }

    /// Runs one built-in scenario text in process and returns its result set. The source is
    /// labelled `builtin:NAME`, as `run NAME` labels it, so both write the same bytes.
    public static func run(name: String, text: String, jobs: Int, replications: Int? = nil,
                           progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) throws -> ResultSet {
        let loaded = try ScenarioLoader.load(ScenarioSource(label: "builtin:\(name)", text: text))
            .overriding(seed: nil, replications: replications)
        let plan = RunPlan(loaded)
        let records = try ParallelRunner.execute(plan.runs, executor: Engine.grouper.executor, jobs: jobs, progress: progress)
        return ResultSet(scenario: loaded, records: records)
    }

    /// Writes results/<name>/ for every scenario (the thesis's, then the hostile-server
    /// built-ins of docs/adversaries.md) and results/equations.{md,csv,json}.
    public static func execute(out: String, jobs: Int, io: CLIOutput) throws {
        let scenarios = ThesisScenarios.all + BuiltinScenarios.hostile.map { ($0.name, $0.text) }
        try OutputSafety.checkReproduceFolder(out, folders: scenarios.map(\.name), files: flatFileNames)
        for (i, s) in scenarios.enumerated() {
            io.err("reproduce: [\(i + 1)/\(scenarios.count + 1)] \(s.name)\n")
            let result = try run(name: s.name, text: s.text, jobs: jobs)
            try OutputDirectory.write(result.files, to: "\(out)/\(s.name)", option: "reproduce --out")
        }
        io.err("reproduce: [\(scenarios.count + 1)/\(scenarios.count + 1)] equations 6.1–6.8\n")
        var md = "# Equations 6.1–6.8: closed forms and simulated counts\n\n", csv = "", json = ""
        for (i, p) in equationCases.enumerated() {
            let (rows, mix) = try ThesisEquations.evaluateWithMix(p)
            md += EquationReport.markdown(rows, p) + EquationReport.mixLine(mix) + "\n"
            let c = EquationReport.csv(rows, p)
            csv += i == 0 ? c : String(c.drop(while: { $0 != "\n" }).dropFirst())
            json += EquationReport.jsonLines(rows, p)
        }
        try writeFlat([("equations.md", md), ("equations.csv", csv), ("equations.json", json)], to: out)
        io.out("wrote \(out)/ (\(scenarios.count) scenarios and equations.{md,csv,json})\n")
    }

    /// The files `execute` writes next to the scenario folders.
    static let flatFileNames = ["equations.md", "equations.csv", "equations.json"]

    static func writeFlat(_ files: [(String, String)], to dir: String) throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (name, text) in files {
            try Data(text.utf8).write(to: URL(fileURLWithPath: dir).appendingPathComponent(name), options: .atomic)
        }
    }
}
