import Foundation
import SimKernel
import GrouperModel
import Format
import ScenarioFile
import Plan
import Execution
import GrouperBinding
import Reports

/// `grouper-sim reproduce`: every thesis experiment into one folder.
///
/// Output is a pure function of the built-in scenarios and equation cases (no clocks, no
/// host data), so a rerun is byte-identical for any number of jobs.
public enum Reproduction {
    /// The equation cases: the thesis's two worked examples (docs/equations.md), case 2 under both
    /// models. `jobs` only sets threads; results do not depend on it.
    public static func equationCases(jobs: Int) -> [EquationParameters] {
        var none = EquationParameters()
        none.jobs = jobs
        var offline = none
        offline.offline = 2
        offline.offlineTime = .seconds(Int64(86_400))
        var thesis = offline
        thesis.model = .thesis
        return [none, thesis, offline]
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
    /// built-ins of docs/adversaries.md and the architecture comparison of
    /// docs/architectures.md), results/equations.{md,csv,json}, the ablation
    /// (equations-ablation.{md,csv}) and what resend_ranges "holes" saves (equations-holes.{md,csv}).
    /// `progress` gets one line per step; the returned line says what was written.
    /// A scenario folder that holds a result of another scenario or engine is replaced only
    /// with `replace`; every replaced folder is named in `progress`.
    public static func execute(out: String, jobs: Int, replace: Bool = false, progress: (String) -> Void) throws -> String {
        let scenarios = ThesisScenarios.all + (BuiltinScenarios.hostile + BuiltinScenarios.architectures).map { ($0.name, $0.text) }
        guard !out.isEmpty else { throw OutputSafety.refusal("reproduce --out needs a folder name, got an empty string") }
        let origin = { (s: (name: String, text: String)) in
            ResultOrigin(.result, source: ScenarioSource(label: "builtin:\(s.name)", text: s.text), engine: .grouper)
        }
        try OutputSafety.checkReproduceFolder(out, folders: scenarios.map { ($0.name, origin($0)) }, files: flatFileNames,
                                              replace: replace)
        // The whole folder is locked (the equations files); each scenario folder is locked as it is written.
        let lock = try FolderLock.acquire(OutputSafety.resolved(out), label: out)
        defer { lock.release() }
        try OutputSafety.checkReproduceFolder(out, folders: scenarios.map { ($0.name, origin($0)) }, files: flatFileNames,
                                              replace: replace)
        for (i, s) in scenarios.enumerated() {
            progress("reproduce: [\(i + 1)/\(scenarios.count + 1)] \(s.name)\n")
            let result = try run(name: s.name, text: s.text, jobs: jobs)
            if let old = try OutputDirectory.write(result.files, to: "\(out)/\(s.name)", option: "reproduce --out",
                                                   writing: origin(s), replace: replace) {
                progress("reproduce: replaced \(out)/\(s.name)/ (\(old.description))\n")
            }
        }
        progress("reproduce: [\(scenarios.count + 1)/\(scenarios.count + 1)] equations 6.1–6.8, ablation and what \"holes\" saves\n")
        var md = "# Equations 6.1–6.8: closed forms and simulated counts\n\n", csv = "", json = ""
        // One pool of `jobs` workers, longest first: case 2 under the protocol model (whose
        // replications also run on `jobs` threads), then the ablation's other steps, case 2
        // under the thesis model and case 1. Each result is a pure function of its parameters.
        let cases = equationCases(jobs: jobs)
        var ablationCase = cases[2]
        ablationCase.replications = 1
        let steps = EquationAssumptions.ablationSteps.map(\.assumptions).filter {
            !EquationAblation.same($0, .thesis, ablationCase) && !EquationAblation.same($0, .protocol, ablationCase)
        }
        var tasks = [cases[2]]
        for a in steps { var q = ablationCase; q.model = a; q.jobs = 1; tasks.append(q) }
        tasks += [cases[1], cases[0]].map { p -> EquationParameters in var q = p; q.jobs = 1; return q }
        let all = tasks
        let kept = try ParallelRunner.map(all.indices.map { UInt64($0) }, jobs: jobs) {
            try ThesisEquations.runKeeping(all[Int($0)])
        }
        let done = kept.map(\.result)
        let protocolTwo = done[0], stepResults = Array(done[1...steps.count])
        let thesisTwo = done[steps.count + 1], caseOne = done[steps.count + 2]
        let results = [caseOne, thesisTwo, protocolTwo]
        for (i, p) in cases.enumerated() {
            md += "## Case \(p.offline == 0 ? 1 : 2), --model \(p.model.modelName)\n\n" + EquationReport.markdown(results[i], p) + "\n"
            let c = EquationReport.csv(results[i], p)
            csv += i == 0 ? c : String(c.drop(while: { $0 != "\n" }).dropFirst())
            json += EquationReport.jsonLines(results[i], p)
        }
        let known = [(EquationAssumptions.thesis, thesisTwo), (.protocol, protocolTwo)] + Array(zip(steps, stepResults))
        let ablation = try EquationAblation.run(ablationCase, known: known)
        let ablationMD = "# Equations 6.5–6.8: from the thesis's assumptions to the protocol (case 2)\n\n" + ablation.markdown
        // What "holes" saves: case 2's protocol run paired with the ablation's holes step (same
        // seeds), and the chunked built-in.
        guard let holesStep = steps.firstIndex(where: { $0.resendHoles }) else { preconditionFailure("the ablation has a holes step") }
        let chunked = try run(name: "resend-holes-chunked", text: BuiltinScenarios.resendHolesChunkedText, jobs: jobs)
        let saving = ResendHolesSaving.make(span: cases[2], kept[0].replications,
                                            holes: tasks[1 + holesStep], kept[1 + holesStep].replications, chunked: chunked)
        try writeFlat([("equations.md", md), ("equations.csv", csv), ("equations.json", json),
                       ("equations-ablation.md", ablationMD), ("equations-ablation.csv", ablation.csv),
                       ("equations-holes.md", saving.markdown), ("equations-holes.csv", saving.csv)], to: out)
        return ("wrote \(out)/ (\(scenarios.count) scenarios, equations.{md,csv,json}, equations-ablation.{md,csv}, equations-holes.{md,csv})\n")
    }

    /// The files `execute` writes next to the scenario folders (and lists, with their
    /// hashes, in `OutputSafety.flatManifestName`).
    static let flatFileNames = ["equations.md", "equations.csv", "equations.json", "equations-ablation.md", "equations-ablation.csv",
                                "equations-holes.md", "equations-holes.csv"]

    /// Writes the flat files, then their manifest; each file is checked again just before
    /// (absent, or listed in the manifest with its bytes now).
    static func writeFlat(_ files: [(String, String)], to dir: String) throws {
        try OutputSafety.checkReproduceFolder(dir, folders: [], files: files.map(\.0), replace: false)
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            for (name, text) in files {
                try Data(text.utf8).write(to: URL(fileURLWithPath: dir).appendingPathComponent(name), options: .atomic)
            }
            let manifest = JSONValue.object([
                ("tool", .string(Tool.name)), ("version", .string(Tool.version)),
                ("note", .string("the files `grouper-sim reproduce` wrote next to its scenario folders; a rerun replaces only these, with these bytes")),
                ("files", .object(files.map { ($0.0, .string(StableHash.hex(StableHash.fnv1a64($0.1)))) })),
            ])
            try Data(JSONWriter.pretty(manifest).utf8).write(to: URL(fileURLWithPath: dir).appendingPathComponent(OutputSafety.flatManifestName),
                                                            options: .atomic)
        } catch {
            throw IOFailure("cannot write \(dir): \(error.localizedDescription)")
        }
    }
}
