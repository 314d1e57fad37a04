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

/// Synthetic results say so in the manifest, summary and plots; merge refuses mixed engines.
@Suite struct EngineLabelTests {
    @Test func syntheticResultsAreLabelledAndNotMergedWithRealOnes() throws {
        let dir = ScenarioFixtures.tempDir("engine-label")
        let syn = dir.path + "/syn", real = dir.path + "/real"
        #expect(runCLI(["run", "churn-k-sweep", "--engine", "synthetic", "--out", syn]).code == 0)
        let manifest = try String(contentsOfFile: syn + "/manifest.json", encoding: .utf8)
        #expect(manifest.contains("\"engine\": \"synthetic\""))
        #expect(try String(contentsOfFile: syn + "/summary.md", encoding: .utf8).contains("Engine: synthetic"))
        #expect(try String(contentsOfFile: syn + "/plot-converged.svg", encoding: .utf8).contains("[synthetic engine: numbers mean nothing]"))
        #expect(runCLI(["run", "smoke", "--engine", "synthetic", "--shard", "1/2", "--out", dir.path + "/s1"]).code == 0)
        #expect(runCLI(["run", "smoke", "--shard", "2/2", "--out", dir.path + "/s2"]).code == 0)
        let mixed = runCLI(["merge", dir.path + "/s1", dir.path + "/s2", "--out", real])
        #expect(mixed.code == 2 && mixed.err.contains("different engines"), "\(mixed.err)")
        #expect(!FileManager.default.fileExists(atPath: real))
        // s1 holds the synthetic engine's shard: replaced by the protocol model's only when asked.
        let other = runCLI(["run", "smoke", "--shard", "1/2", "--out", dir.path + "/s1"])
        #expect(other.code == 2 && other.err.contains("engine synthetic") && other.err.contains("--replace"), "\(other.err)")
        let replaced = runCLI(["run", "smoke", "--shard", "1/2", "--out", dir.path + "/s1", "--replace"])
        #expect(replaced.code == 0 && replaced.out.contains("replaced the previous result in \(dir.path)/s1/: shard 1 of 2 (2 runs) of builtin:smoke, engine synthetic"),
                "\(replaced.out)")
        let merged = runCLI(["merge", dir.path + "/s1", dir.path + "/s2", "--out", real])
        #expect(merged.code == 0, "\(merged.err)")
        #expect(try String(contentsOfFile: real + "/manifest.json", encoding: .utf8).contains("\"engine\": \"grouper\""))
    }
}
