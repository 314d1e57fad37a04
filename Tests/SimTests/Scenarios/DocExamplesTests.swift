import Foundation
import Testing
@testable import Scenarios

/// Every scenario example in docs/scenarios.md runs as written — every run, on the protocol
/// model — and exits 0 (no required checker fails). In process, so the test needs no release build.
@Suite struct DocExamplesTests {
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
