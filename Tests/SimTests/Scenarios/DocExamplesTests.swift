import Foundation
import Testing
@testable import Scenarios
@testable import Format
@testable import Catalogs
@testable import ScenarioFile
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore

/// Every scenario example in docs/scenarios.md runs as written — every run, on the protocol
/// model — and exits 0 (no required checker fails). In process, so the test needs no release build.
@Suite(.tags(.slow)) struct DocExamplesTests {
    @Test func everyDocExampleRunsAsWrittenWithExitZero() throws {
        let examples = try ScenarioFixtures.docExamples()
        #expect(examples.count >= 10)
        let dir = ScenarioFixtures.tempDir("doc-examples")
        for (i, text) in examples.enumerated() {
            let file = dir.appendingPathComponent("example-\(i).json")
            try Data(text.utf8).write(to: file)
            let r = runCLI(["run", file.path, "--out", dir.appendingPathComponent("out-\(i)").path, "--jobs", "2"])
            #expect(r.code == 0, "docs/scenarios.md example \(i) (\(text.split(separator: "\n").first { $0.contains("\"name\"") } ?? "")): \(r.err.prefix(600))")
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out-\(i)/manifest.json").path))
        }
    }
}

/// The `grouper-sim run|list|validate …` commands that README.md and docs/ show with concrete
/// arguments run as written (each in a fresh sandbox folder, as a separate process) with exit 0;
/// a `run` of more than about 200 thousand events (validate's estimate) is only validated.
@Suite(.tags(.slow)) struct DocCommandTests {
    static func commands() throws -> [(file: String, args: [String])] {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let docs = try FileManager.default.contentsOfDirectory(atPath: repo.path + "/docs").filter { $0.hasSuffix(".md") }.sorted()
        var out: [(String, [String])] = []
        for name in ["README.md"] + docs.map({ "docs/" + $0 }) {
            let text = try String(contentsOfFile: repo.path + "/" + name, encoding: .utf8)
            let regex = /grouper-sim ((?:run|list|validate) [a-z0-9][^`#\n]*)/
            for m in text.matches(of: regex) {
                let line = String(m.output.1).trimmingCharacters(in: .whitespaces)
                // Placeholders (FILE, NAME, my.json, shell syntax) are not runnable as written.
                let args = line.split(separator: " ").map(String.init)
                if line.contains(where: { $0.isUppercase || "$*{[…|>\\".contains($0) }) || args.contains(where: { $0.hasSuffix(".json") }) { continue }
                if !out.contains(where: { $0.1 == args }) { out.append((name, args)) }
            }
        }
        return out
    }

    @Test func documentedCommandsRunAsWritten() throws {
        let commands = try Self.commands()
        let lines = commands.map { $0.args.joined(separator: " ") }
        #expect(lines.contains("run smoke --replications 10") && lines.contains("run thesis-fig6-2b")
                && lines.contains("run smoke --point 0 --replication 0 --events ev.jsonl"), "\(lines)")
        for (i, c) in commands.enumerated() {
            let dir = ScenarioFixtures.tempDir("doc-command-\(i)")
            // A command whose runs are big (by validate's estimate) is validated, not run, to keep
            // the debug test quick.
            let names = c.args.dropFirst().filter { BuiltinScenarios.source(named: $0) != nil }
            let events = try names.reduce(0.0) { $0 + (try ScenarioLoader.load(BuiltinScenarios.source(named: $1)!)).estimatedEvents }
            let args = c.args.first == "run" && events > 200_000 ? ["validate"] + names : c.args
            let r = try CLIProcess.run(args, in: dir)
            #expect(r.status == 0, "\(c.file): grouper-sim \(c.args.joined(separator: " ")): \(r.stderr.suffix(400))")
        }
    }
}
