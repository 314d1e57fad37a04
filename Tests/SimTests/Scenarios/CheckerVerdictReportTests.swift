import Foundation
import Testing
import SimKernel
@testable import Scenarios
@testable import Format
@testable import Catalogs
@testable import ScenarioFile
@testable import Plan
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore

/// Every checker's own verdict is recorded with whether the scenario required it, and no row of
/// runs.csv, summary.md or index.html reads as success while a checker failed in it (issue 25
/// item 10, issue 26 item 6).
@Suite struct CheckerVerdictReportTests {
    /// Servers 1 and 2 tamper with every share and receivers rebuild from the first k: devices
    /// end with content nobody wrote (no-phantom fails), but the scenario requires only
    /// convergence.
    static let text = """
    {"format": 1, "name": "unrequired", "seed": 4, "duration": "6h", "replications": 2,
     "group": {"devices": 3, "k": 2, "n": 3, "s": 3, "ttl": "1d"},
     "workload": {"writers": [1], "writes": [{"device": 1, "at": "10min", "object": 1, "size": 100},
                                            {"device": 1, "at": "1h", "object": 2, "size": 100}]},
     "faults": [{"kind": "tamper", "servers": [1, 2], "fraction": 1}],
     "require": ["convergence"],
     "metrics": ["converged", "phantom_objects"]}
    """

    static func result(_ text: String = text) throws -> ResultSet {
        let s = try ScenarioLoader.load(ScenarioSource(label: "unrequired.json", text: text))
        return ResultSet(scenario: s, records: try ParallelRunner.execute(RunPlan(s).runs, executor: GrouperExecutor(), jobs: 1))
    }

    @Test func unrequiredFailureIsRecordedAsFailedAndShown() throws {
        let set = try Self.result()
        for r in set.records {
            let phantom = try #require(r.checkers.first { $0.name == "no-phantom" })
            #expect(!phantom.passed && !phantom.required && phantom.detail.contains("which no device wrote"), "\(phantom)")
            let convergence = try #require(r.checkers.first { $0.name == "convergence" })
            #expect(convergence.required)
            #expect(r.checkers.filter(\.required).map(\.name) == ["convergence"])
            #expect(r.failedCheckers.allSatisfy { $0.name != "no-phantom" }, "not required: does not fail the run")
            #expect(r.unrequiredFailures.map(\.name).contains("no-phantom"))
            #expect(r.checkersCell.contains("failed-not-required:") && r.checkersCell.contains("no-phantom"), "\(r.checkersCell)")
            #expect(try RecordJSON.decode(RecordJSON.encode(r), bad: { ParseErrorStub(text: $0) }) == r)
        }
        let files = Dictionary(uniqueKeysWithValues: set.files.map { ($0.name, $0.contents) })
        let runs = files["runs.csv"]!.split(separator: "\n").dropFirst()
        #expect(runs.count == 2 && runs.allSatisfy { !$0.contains(",ok,") && $0.contains("failed-not-required:") }, "\(runs)")
        #expect(files["records.jsonl"]!.contains(#""name":"no-phantom","kind":"safety","passed":false,"required":false"#))
        let cell = "no-phantom failed in 2 of 2 runs (safety, not required)"
        let md = files["summary.md"]!
        #expect(md.contains("| checkers |") && md.contains(cell), "\(md)")
        #expect(md.contains("## Checker failures") && md.contains("no-phantom (safety, not required): D"), "\(md)")
        let html = files["index.html"]!
        #expect(html.contains("<th>checkers</th>") && html.contains(cell), "\(html)")
        #expect(html.contains("no-phantom (safety, not required): D"))
    }

    /// Required and passing: a result with no checker failure keeps its table as it was (no
    /// `checkers` column) and reads `ok`.
    @Test func cleanResultHasNoCheckersColumn() throws {
        let clean = Self.text.replacingOccurrences(of: #""faults": [{"kind": "tamper", "servers": [1, 2], "fraction": 1}],"#, with: "")
        let set = try Self.result(clean)
        #expect(set.records.allSatisfy { $0.checkersCell == "ok" && $0.checkers.allSatisfy(\.passed) })
        let files = Dictionary(uniqueKeysWithValues: set.files.map { ($0.name, $0.contents) })
        #expect(!files["summary.md"]!.contains("checkers") && !files["index.html"]!.contains("<th>checkers</th>"))
    }

    /// The cell of runs.csv at each combination of required and unrequired failures.
    @Test func checkersCellNamesBothKinds() {
        func record(_ vs: [CheckerVerdict]) -> RunRecord {
            RunRecord(index: 0, point: 0, replication: 0, seed: 1, metrics: [], checkers: vs, fingerprint: RunFingerprint(value: 0))
        }
        let conv = CheckerVerdict(name: "convergence", kind: .liveness, passed: false, required: true)
        let phantom = CheckerVerdict(name: "no-phantom", kind: .safety, passed: false, required: false)
        let ttl = CheckerVerdict(name: "ttl", kind: .safety, passed: true, required: true)
        #expect(record([ttl]).checkersCell == "ok")
        #expect(record([conv, ttl]).checkersCell == "failed:convergence")
        #expect(record([phantom, ttl]).checkersCell == "failed-not-required:no-phantom")
        #expect(record([conv, phantom, ttl]).checkersCell == "failed:convergence failed-not-required:no-phantom")
    }

    /// A record without `required` (an older tool's) is refused, naming the line and the field.
    @Test func recordWithoutRequiredIsRefused() throws {
        let set = try Self.result()
        let line = RecordJSON.lines([set.records[0]]).replacingOccurrences(of: #","required":false"#, with: "")
        #expect(throws: RecordJSON.ParseError.self) { try RecordJSON.parseLines(line, where: "records.jsonl") }
        do { _ = try RecordJSON.parseLines(line, where: "records.jsonl") } catch {
            #expect("\(error)".hasPrefix("records.jsonl: line 1: checker ") && "\(error)".contains(": missing \"required\""), "\(error)")
        }
    }
}

struct ParseErrorStub: Error { var text: String }
