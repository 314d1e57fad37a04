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

/// The thesis experiments as built-in scenario names, and the files under scenarios/ as copies.
@Suite struct ThesisBuiltinTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: ThesisScenarios.all.map(\.name)) func runsByName(name: String) throws {
        let r = try CLIProcess.run(["run", name, "--point", "0", "--replication", "0"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("\(name) run 0 (point 0, replication 0, seed "), "\(r.stdout)")
        #expect(r.stdout.contains("  upload_time = "))
    }

    @Test func listShowsEveryThesisScenarioInOneColumn() throws {
        let r = try CLIProcess.run(["list"])
        #expect(r.status == 0)
        let section = r.stdout.components(separatedBy: "\n\n")[0].split(separator: "\n").dropFirst()
        let names = ["smoke", "churn-k-sweep", "ttl-series", "recovery-stampede", "recovery-churn-100",
                     "hostile-tamper", "hostile-collusion", "grouper-vs-central", "large-files", "resend-holes-chunked"] + ThesisScenarios.all.map(\.name)
        #expect(section.map { String($0.split(separator: " ")[0]) } == names)
        // Every summary starts in the same column, two spaces after the longest name.
        for line in section { #expect(line.dropFirst(24).first != " " && line.dropFirst(23).first == " ", "\(line)") }
        #expect(r.stdout.contains("  thesis-fig6-2c-gf256  Fig 6.2c: one update, k = 20, n = 30, s = 20…30, 5 servers refuse, gf256 twin\n"))
    }

    @Test func misspelledNameGetsDidYouMean() throws {
        for args in [["run", "thesis-fig6-l"], ["validate", "thesis-fig6-2d"], ["list", "thesis-fig6-1-gf265"]] {
            let r = try CLIProcess.run(args)
            #expect(r.status == 2, "\(args)")
            #expect(r.stdout.isEmpty, "\(args)")
        }
        #expect(try CLIProcess.run(["run", "thesis-fig6-l"]).stderr.contains("no such file or built-in scenario (did you mean 'thesis-fig6-1'?)"))
        #expect(try CLIProcess.run(["validate", "thesis-fig6-2d"]).stderr.contains("(did you mean 'thesis-fig6-2a'?)"))
        #expect(try CLIProcess.run(["list", "thesis-fig6-1-gf265"]).stderr.contains("(did you mean 'thesis-fig6-1-gf256'?)"))
    }

    /// scenarios/ holds exactly the four csss257 experiments, each byte for byte the built-in text
    /// (regenerate with `grouper-sim list NAME > scenarios/NAME.json`).
    @Test func scenarioFilesAreTheBuiltinTexts() throws {
        let dir = Self.repository.appendingPathComponent("scenarios")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files == ThesisScenarios.primary.map { "\($0.name).json" }.sorted())
        for f in files {
            let name = String(f.dropLast(5))
            let text = try String(contentsOf: dir.appendingPathComponent(f), encoding: .utf8)
            #expect(text == BuiltinScenarios.source(named: name).map { String(decoding: $0.bytes, as: UTF8.self) }, "\(f)")
            let printed = try CLIProcess.run(["list", name])
            #expect(printed.status == 0 && printed.stdout == text, "\(f)")
        }
    }

    /// The twins differ from their primary only in name and sharing scheme.
    @Test func twinsDifferOnlyInNameAndSharing() throws {
        for p in ThesisScenarios.primary {
            let twin = try #require(BuiltinScenarios.all.first { $0.name == p.name + "-gf256" })
            let a = p.text.split(separator: "\n"), b = twin.text.split(separator: "\n")
            let differing = zip(a, b).filter { $0 != $1 }.map { String($0.1) }
            #expect(a.count == b.count)
            #expect(differing == ["  \"name\": \"\(p.name)-gf256\",", "  \"sharing\": \"gf256\","])
        }
    }

    /// `run NAME` writes exactly the bytes `reproduce` wrote to results/NAME (both record
    /// the built-in as `builtin:NAME`).
    @Test(.tags(.slow)) func runByNameRebuildsTheCommittedResults() throws {
        let name = "thesis-fig6-2b"
        let out = ScenarioFixtures.tempDir("builtin-\(name)")
        let r = try CLIProcess.run(["run", name, "--out", out.path, "--jobs", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        let committed = try ScenarioFixtures.files(in: Self.repository.appendingPathComponent("results/\(name)"))
            .filter { $0.key != ".gitkeep" }
        let fresh = try ScenarioFixtures.files(in: out)
        #expect(fresh.keys.sorted() == committed.keys.sorted())
        let manifest = String(decoding: try #require(fresh["manifest.json"]), as: UTF8.self)
        #expect(manifest.contains("\"file\": \"builtin:\(name)\""))
        for (file, data) in committed { #expect(fresh[file] == data, "\(file)") }
    }
}
