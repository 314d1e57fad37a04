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
@testable import GrouperModel
import SimKernel

/// `run --events`: the kernel's JSON Lines trace of one Grouper run.
@Suite struct EventTraceTests {
    private func run(_ args: [String]) -> (code: Int32, out: String, err: String) { runCLI(args) }

    /// The events of a trace file, after its header line (which names the format and the run).
    private func lines(_ path: String) throws -> [[String: Any]] {
        let all = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let header = try #require(all.first)
        #expect(header["format"] as? String == TraceHeader.eventsFormat && header["scenario"] as? String == "smoke" && header["kind"] == nil)
        return Array(all.dropFirst())
    }

    @Test func eventsAreJSONLinesAndLeaveTheRunUnchanged() throws {
        let dir = ScenarioFixtures.tempDir("events")
        let a = dir.appendingPathComponent("a.jsonl").path, b = dir.appendingPathComponent("b.jsonl").path
        let plain = run(["run", "smoke", "--point", "0", "--replication", "2"])
        let traced = run(["run", "smoke", "--point", "0", "--replication", "2", "--events", a])
        #expect(plain.code == 0 && traced.code == 0)
        #expect(traced.out == plain.out, "tracing must not change metrics or fingerprint")
        let events = try lines(a)
        #expect(events.count > 100)
        var lastT = -1, kinds = Set<String>()
        for e in events {
            let t = try #require(e["t"] as? Int)
            #expect(t >= lastT)
            lastT = t
            let kind = try #require(e["kind"] as? String)
            #expect(GrouperEvent.traceKinds.contains(kind))
            kinds.insert(kind)
            let component = try #require(e["component"] as? String)
            #expect(component.hasPrefix("device-") || component.hasPrefix("server-"))
            #expect(e["fields"] is [String: Any] && e["seq"] is Int)
            let time = try #require(e["time"] as? String)        // t in seconds, e.g. "393.000317939s"
            #expect(time.hasSuffix("s") && (Double(time.dropLast()).map { ($0 * 1e9).rounded() } == Double(t)))
        }
        #expect(kinds.isSuperset(of: ["request", "response", "command", "timer", "sweep"]))
        let puts = events.filter { ($0["fields"] as? [String: Any])?["endpoint"] as? String == "transfer/put" }
        #expect(!puts.isEmpty && puts.allSatisfy { ($0["component"] as? String)?.hasPrefix("server-") == true })
        // The same run again, in another process: the same bytes.
        let again = try CLIProcess.run(["run", "smoke", "--point", "0", "--replication", "2", "--events", b])
        #expect(again.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: a)) == Data(contentsOf: URL(fileURLWithPath: b)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["a.jsonl", "b.jsonl"])
    }

    @Test func eventKindsFilterTheTrace() throws {
        let dir = ScenarioFixtures.tempDir("event-kinds")
        let all = dir.appendingPathComponent("all.jsonl").path, some = dir.appendingPathComponent("some.jsonl").path
        #expect(run(["run", "smoke", "--point", "0", "--replication", "0", "--events", all]).code == 0)
        #expect(run(["run", "smoke", "--point", "0", "--replication", "0", "--events", some,
                     "--event-kinds", "command,timeout"]).code == 0)
        let full = try lines(all), kept = try lines(some)
        let wanted = full.filter { ["command", "timeout"].contains($0["kind"] as? String) }
        #expect(!kept.isEmpty && kept.count == wanted.count && kept.count < full.count)
        #expect(kept.map { $0["seq"] as? Int } == wanted.map { $0["seq"] as? Int })
    }

    @Test func badEventOptionsExitTwoAndWriteNothing() throws {
        let dir = ScenarioFixtures.tempDir("bad-events")
        let t = dir.appendingPathComponent("t.jsonl").path
        let cases: [([String], String)] = [
            (["--point", "0", "--replication", "0", "--events", t, "--event-kinds", "request,comand"],
             "--event-kinds: unknown kind 'comand' (did you mean 'command'?); allowed: request, sweep"),
            (["--point", "0", "--replication", "0", "--event-kinds", "request"], "--event-kinds filters the --events trace"),
            (["--events", t], "--events needs exactly one run, smoke has 3"),
            (["--point", "0", "--replication", "0", "--events", t, "--engine", "synthetic"], "the synthetic engine has none"),
        ]
        for (args, message) in cases {
            let r = run(["run", "smoke"] + args)
            #expect(r.code == 2, "\(args)")
            #expect(r.err.contains(message), "\(args): \(r.err)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}
