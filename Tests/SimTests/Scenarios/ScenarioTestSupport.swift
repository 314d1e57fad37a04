import Foundation
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

/// Captures a command's stdout and stderr in memory.
final class CapturedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var outText = "", errText = ""
    var out: String { lock.lock(); defer { lock.unlock() }; return outText }
    var err: String { lock.lock(); defer { lock.unlock() }; return errText }
    var io: CLIOutput {
        CLIOutput(out: { s in self.lock.lock(); self.outText += s; self.lock.unlock() },
                  err: { s in self.lock.lock(); self.errText += s; self.lock.unlock() })
    }
}

/// Runs `grouper-sim args…` in this process (`GrouperCLI.main`), capturing both streams.
func runCLI(_ args: [String]) -> (code: Int32, out: String, err: String) {
    let c = CapturedOutput()
    let code = GrouperCLI.main(arguments: args, io: c.io)
    return (code, c.out, c.err)
}

enum ScenarioFixtures {
    static var root: URL { Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("scenarios") }

    /// The malformed corpus: (name, file text, expected error lines).
    static func badCorpus() throws -> [(name: String, source: ScenarioSource, expected: [String])] {
        let dir = root.appendingPathComponent("bad")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { n in
            let bytes = try Data(contentsOf: dir.appendingPathComponent(n))
            let exp = try String(contentsOf: dir.appendingPathComponent(String(n.dropLast(5)) + ".expected"), encoding: .utf8)
            return (n, ScenarioSource(label: n, bytes: Array(bytes)), exp.split(separator: "\n").map(String.init))
        }
    }

    /// The JSON examples of docs/scenarios.md (read from the repository itself).
    static func docExamples() throws -> [String] {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: repo.appendingPathComponent("docs/scenarios.md"), encoding: .utf8)
        var blocks: [String] = []
        var current: String? = nil
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```json" { current = "" } else if current != nil, line == "```" {
                blocks.append(current!); current = nil
            } else if current != nil { current! += line + "\n" }
        }
        return blocks
    }

    static func tempDir(_ name: String) -> URL {
        let u = FileManager.default.temporaryDirectory
            .appendingPathComponent("grouper-sim-tests-\(ProcessInfo.processInfo.processIdentifier)-\(name)")
        try? FileManager.default.removeItem(at: u)
        try! FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
        return u
    }

    /// A small swept scenario for determinism tests.
    static let sweepText = """
    {
      "format": 1, "name": "det", "seed": 11, "replications": 3, "duration": "1h",
      "group": {"devices": 3, "k": 2, "n": 3, "s": 3},
      "sweep": [
        {"path": "group.devices", "values": [2, 4, 8]},
        {"zip": [{"path": "group.k", "values": [1, 2]}, {"path": "group.s", "values": [2, 3]}]}
      ],
      "metrics": ["messages_uploaded", "upload_time", "delivery_ratio"]
    }
    """

    static func files(in dir: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for n in try FileManager.default.contentsOfDirectory(atPath: dir.path) {
            out[n] = try Data(contentsOf: dir.appendingPathComponent(n))
        }
        return out
    }
}

/// An executor whose runs fail a checker when the run seed is odd (for exit code 1).
struct OddSeedFailsExecutor: RunExecutor {
    func execute(_ run: ResolvedRun) throws -> RunOutcome {
        var o = try SyntheticExecutor().execute(run)
        if run.seed % 2 == 1 {
            o.checkers = [CheckerVerdict(name: "convergence", kind: .liveness, passed: false, detail: "device 2 misses message 7")]
        }
        return o
    }
}
