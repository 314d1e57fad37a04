import Foundation
import Testing
@testable import Scenarios
@testable import Format
@testable import ScenarioFile
@testable import Plan
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore
@testable import GrouperSimCLI

@Suite struct MalformedScenarioTests {
    @Test func corpusHasAtLeast25Files() throws {
        #expect(try ScenarioFixtures.badCorpus().count >= 25)
    }

    /// Each malformed file yields exactly its expected messages (all of them, in order).
    @Test func eachFileReportsItsExpectedErrors() throws {
        for c in try ScenarioFixtures.badCorpus() {
            do {
                _ = try ScenarioLoader.load(c.source)
                Issue.record("\(c.name) was accepted")
            } catch {
                #expect(error.issues.map(\.description) == c.expected, "\(c.name)")
            }
        }
    }

    /// Through the `run` command: exit code 2, errors on stderr, nothing written.
    @Test func runWritesNothingOnBadInput() throws {
        let dir = ScenarioFixtures.tempDir("bad-corpus")
        for c in try ScenarioFixtures.badCorpus() {
            let file = dir.appendingPathComponent(c.name)
            try Data(c.source.bytes).write(to: file)
            let out = dir.appendingPathComponent("out-" + c.name)
            var o = RunOptions()
            o.files = [file.path]; o.out = out.path; o.engine = .synthetic; o.jobs = 1
            let captured = CapturedOutput()
            let code = try RunCommand.execute(o, io: captured.io, terminal: false)
            #expect(code == .badInput, "\(c.name)")
            #expect(captured.err.contains(c.expected[0].replacingOccurrences(of: c.name, with: file.path)), "\(c.name)")
            #expect(captured.out.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: out.path), "\(c.name) wrote output")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).allSatisfy { !$0.hasPrefix(".tmp-") })
    }

    @Test func allFilesAreReportedNotOnlyTheFirst() throws {
        let dir = ScenarioFixtures.tempDir("two-bad")
        let a = dir.appendingPathComponent("a.json"), b = dir.appendingPathComponent("b.json")
        try Data(#"{"format": 1}"#.utf8).write(to: a)
        try Data("[".utf8).write(to: b)
        let captured = CapturedOutput()
        let code = GrouperCLI.main(arguments: ["validate", a.path, b.path], io: captured.io)
        #expect(code == 2)
        #expect(captured.err.contains("\(a.path): name: missing required key"))
        #expect(captured.err.contains("\(a.path): duration: missing required key"))
        #expect(captured.err.contains("\(b.path): (top level): invalid JSON at line 1, column 2"))
    }
}
