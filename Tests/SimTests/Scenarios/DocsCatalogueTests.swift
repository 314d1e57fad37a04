import Foundation
import Testing
@testable import Scenarios
@testable import Format
@testable import ScenarioFile
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore
@testable import GrouperSimCLI
@testable import GrouperModel

/// Issue 29, docs that cannot drift: the lists of built-ins, metrics, series, profile fields
/// and options in README.md, docs/ and `--help` equal the code's catalogues.
@Suite struct DocsCatalogueTests {
    static var repo: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }
    static func text(_ path: String) throws -> String {
        try String(contentsOf: repo.appendingPathComponent(path), encoding: .utf8)
    }
    /// The lines from the first line starting with `start` up to the next line starting with `end`.
    static func section(_ text: String, from start: String, to end: String) -> [Substring] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let i = lines.firstIndex(where: { $0.hasPrefix(start) }) else { return [] }
        let rest = lines[(i + 1)...]
        let j = rest.firstIndex(where: { $0.hasPrefix(end) }) ?? lines.endIndex
        return Array(lines[i..<j])
    }
    /// Every `name` in backticks.
    static func ticked(_ s: some StringProtocol) -> [String] {
        s.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
    /// The first column's `name` of every table row.
    static func tableNames(_ lines: [Substring]) -> [String] {
        lines.filter { $0.hasPrefix("| `") }.flatMap { ticked($0.split(separator: "|").first!) }
    }

    @Test func readmeNamesEveryBuiltinAndNothingElse() throws {
        let para = Self.section(try Self.text("README.md"), from: "A name that is not a file", to: "A misspelt name").joined(separator: " ")
        let named = Set(Self.ticked(para))
        let builtins = Set(BuiltinScenarios.all.map(\.name))
        #expect(builtins.subtracting(named).isEmpty, "missing in README: \(builtins.subtracting(named).sorted())")
        #expect(named.subtracting(builtins).isEmpty, "not built-ins: \(named.subtracting(builtins).sorted())")
    }

    @Test func scenariosDocListsEveryMetricAndSeries() throws {
        let doc = try Self.text("docs/scenarios.md")
        #expect(Self.tableNames(Self.section(doc, from: "## metrics", to: "## ")) == MetricCatalog.all.map(\.name))
        #expect(Self.tableNames(Self.section(doc, from: "## series", to: "## ")) == SeriesCatalog.all.map(\.name))
    }

    @Test func scenariosDocListsEveryProfileField() throws {
        let rows = Self.section(try Self.text("docs/scenarios.md"), from: "## profiles", to: "## ").filter { $0.hasPrefix("| `") }
        for kind in ProfileSpec.Kind.allCases {
            guard let row = rows.first(where: { $0.hasPrefix("| `\(kind.rawValue)`") }) else { Issue.record("no row for \(kind)"); continue }
            let cells = row.split(separator: "|")
            let fields = Self.ticked(cells.last!)
            let builtins = Self.ticked(cells[1])
            #expect(Set(fields) == Set(ProfileCatalog.fields(kind).map(\.name)), "\(kind): \(fields)")
            #expect(Set(builtins) == Set(ProfileCatalog.builtins(kind).map(\.name)), "\(kind): \(builtins)")
        }
    }

    /// Every option a command accepts is in its `--help` and in docs/cli.md, and every
    /// `--option` its help names is accepted (or named as another command's).
    @Test(arguments: [("run", RunOptions.known), ("equations", EquationsOptions.known), ("explore", ExploreCommand.Options.known),
                      ("shrink", ShrinkCommand.Options.known), ("timeline", TimelineCommand.Options.known),
                      ("merge", GrouperCLI.mergeOptions), ("reproduce", GrouperCLI.reproduceOptions)])
    func helpAndDocsListEveryOption(command: String, known: [String]) throws {
        let help = GrouperCLI.commands.first { $0.name == command }!.help
        let cli = try Self.text("docs/cli.md")
        for o in known {
            #expect(help.contains(o), "\(command) --help lacks \(o)")
            #expect(cli.contains(o), "docs/cli.md lacks \(command) \(o)")
        }
        let mentioned = Set(help.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-") }).map(String.init)
            .filter { $0.hasPrefix("--") && $0.count > 2 })
        // An option named after another command ("equations --model") is that command's.
        let elsewhere = mentioned.filter { o in GrouperCLI.commands.contains { $0.name != command && help.contains("\($0.name) \(o)") } }
        let allowed = Set(known + ["--help", "--resume", "--add-replications", ModelIdentity.mixOption] + elsewhere)
        #expect(mentioned.subtracting(allowed).isEmpty, "\(command) --help names \(mentioned.subtracting(allowed).sorted())")
    }

    /// `run --help` names every file a run writes (a scenario with series writes them all).
    @Test func runHelpNamesEveryFileARunWrites() throws {
        let dir = ScenarioFixtures.tempDir("docs-files")
        #expect(runCLI(["run", "ttl-series", "--engine", "synthetic", "--replications", "1", "--out", dir.path + "/t", "--progress", "never"]).code == 0)
        let help = GrouperCLI.commands.first { $0.name == "run" }!.help.replacingOccurrences(of: "\n", with: " ")
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path + "/t") {
            let pattern = name.hasPrefix("plot-series-") ? "plot-series-*.svg" : name.hasPrefix("plot-") ? "plot-*.svg" : name
            #expect(help.contains(pattern), "run --help does not name \(name)")
        }
        try? FileManager.default.removeItem(at: dir)
    }

    /// `bench --help` lists each benchmark's options.
    @Test func benchHelpListsEveryBenchmarksOptions() {
        let help = GrouperCLI.commands.first { $0.name == "bench" }!.help
        for (name, options) in [("kernel", KernelBench.options), ("sharing", SharingBench.options), ("codec", CodecBench.options),
                                ("protocol", ProtocolBench.options)] {
            let line = help.components(separatedBy: "  \(name)  ").dropFirst().first?.split(separator: "\n").prefix(2).joined() ?? ""
            for o in options { #expect(line.contains(o), "bench --help: \(name) lacks \(o)") }
        }
        #expect(help.contains("--devices") && help.contains("--hours") && help.contains("--days"))
    }

    /// `list` never cuts a name: each catalogue name appears whole, followed by a space.
    @Test func listSizesItsNameColumnsToTheLongestName() {
        let out = runCLI(["list"]).out
        for name in MetricCatalog.all.map(\.name) + SeriesCatalog.all.map(\.name) + BuiltinScenarios.all.map(\.name) {
            #expect(out.contains("  \(name) "), "\(name) is cut in `list`")
        }
        for kind in ProfileSpec.Kind.allCases {
            for b in ProfileCatalog.builtins(kind) { #expect(out.contains("  \(b.name) "), "\(b.name)") }
        }
    }
}
