import Foundation
import Testing
import GrouperModel
@testable import Scenarios
@testable import Format
@testable import Catalogs
@testable import ScenarioFile
@testable import Plan
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Experiments
@testable import Explore
@testable import Shrink

/// `grouper-sim shrink`: a planted failure (the no-recovery canary) shrinks to a small scenario
/// that still fails the same checker; the same input gives the same file for any --jobs; a
/// passing run is refused with nothing written; explicit schedules replay the random run.
@Suite struct ShrinkTests {
    /// docs/scenarios.md's canary, smaller: device 3 is away longer than the TTL, and
    /// no-recovery never resends what expired meanwhile.
    static let canary = """
    {
      "format": 1, "name": "canary", "duration": "2d", "settle": "12h",
      "group": {"devices": 4, "k": 2, "n": 3, "s": 3, "ttl": "6h"},
      "protocol": {"variant": "no-recovery"},
      "workload": {"writers": [1, 2], "update": {"every": {"dist": "exponential", "mean": "3h"}, "stop": "30h"}},
      "churn": {"windows": [{"device": 3, "start": "6h", "end": "24h"}, {"device": 4, "start": "2h", "end": "3h"}]},
      "faults": [{"kind": "refuse", "servers": [2], "window": {"start": "1h", "end": "2h"}}],
      "require": ["no-phantom", "ttl"]
    }
    """

    static func write(_ text: String, _ dir: URL, _ name: String) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(.tags(.slow)) func theCanaryShrinksToASmallScenarioThatStillFails() throws {
        let dir = ScenarioFixtures.tempDir("shrink-canary")
        let file = try Self.write(Self.canary, dir, "canary.json")
        let out = dir.appendingPathComponent("small.json").path
        let r = runCLI(["shrink", file, "--point", "0", "--replication", "0", "--checker", "convergence", "--out", out, "--jobs", "2"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("shrink: made the run's random draws explicit"))
        #expect(r.out.contains("replay: grouper-sim run \(out)"))
        // The shrunk run's timeline beside it, with the finding drawn.
        let page = try String(contentsOfFile: dir.appendingPathComponent("small-timeline.html").path, encoding: .utf8)
        #expect(r.out.contains("timeline: \(dir.appendingPathComponent("small-timeline.html").path)"))
        #expect(page.contains(TimelinePage.marker) && page.contains("\"convergence\""))
        let spec = try ScenarioLoader.load(ScenarioSource.read(path: out)).base
        // The original: 4 devices, 3 servers, about 20 writes, 2 windows, 1 fault, 2 days.
        #expect(spec.group.devices <= 3)  // the owner, a writer and the device that lacks its write
        #expect(spec.group.n <= 3)
        #expect(spec.workload.writes.count == 1)
        #expect(spec.churn.windows.count == 1)
        #expect(spec.faults.isEmpty)
        #expect(spec.duration <= .hours(36))
        #expect(spec.workload.update == nil && spec.churn.process == nil)
        #expect(spec.require == [.convergence])
        // Running the shrunk file fails the same checker, with the same kind of finding.
        let again = runCLI(["run", out, "--out", dir.appendingPathComponent("res").path, "--progress", "never"])
        #expect(again.code == 4, "a liveness checker (convergence) failed")
        #expect(again.err.contains("convergence (liveness)") && again.err.contains("deleted by the servers' TTL"), "\(again.err)")
    }

    @Test(.tags(.slow)) func sameInputSameShrunkFileForAnyJobs() throws {
        let dir = ScenarioFixtures.tempDir("shrink-determinism")
        let file = try Self.write(Self.canary, dir, "canary.json")
        var texts: [String] = []
        for jobs in ["1", "3"] {
            let out = dir.appendingPathComponent("small.json").path
            let r = runCLI(["shrink", file, "--point", "0", "--replication", "0", "--checker", "convergence", "--out", out, "--jobs", jobs])
            #expect(r.code == 0, "\(r.err)")
            texts.append(try String(contentsOfFile: out, encoding: .utf8))
        }
        #expect(texts[0] == texts[1])
    }

    @Test func aPassingRunIsRefusedAndNothingIsWritten() throws {
        let dir = ScenarioFixtures.tempDir("shrink-pass")
        let out = dir.appendingPathComponent("small.json").path
        let r = runCLI(["shrink", "smoke", "--point", "0", "--replication", "1", "--out", out])
        #expect(r.code == 2)
        #expect(r.err.contains("smoke point 0 replication 1 passes") && r.err.contains("nothing written"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let named = runCLI(["shrink", "smoke", "--point", "0", "--replication", "0", "--checker", "ttl", "--out", out])
        #expect(named.code == 2 && named.err.contains("checker ttl finds nothing"), "\(named.err)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func badArgumentsAndForeignFilesAreRefused() throws {
        let dir = ScenarioFixtures.tempDir("shrink-args")
        let file = try Self.write(Self.canary, dir, "canary.json")
        let mine = try Self.write("my notes\n", dir, "notes.json")
        let foreign = runCLI(["shrink", file, "--point", "0", "--replication", "0", "--checker", "convergence", "--out", mine])
        #expect(foreign.code == 2 && foreign.err.contains("was not written by grouper-sim shrink"), "\(foreign.err)")
        #expect(try String(contentsOfFile: mine, encoding: .utf8) == "my notes\n")
        let cases: [([String], String)] = [
            (["shrink", file, "--replication", "0"], "--point P and --replication R"),
            (["shrink", file, "--point", "1", "--replication", "0"], "--point must be in 0...0"),
            (["shrink", file, "--point", "0", "--replication", "3"], "add --replications 4"),
            (["shrink", file, "--point", "0", "--replication", "0", "--checker", "convergnce"], "did you mean 'convergence'"),
            (["shrink", "--point", "0", "--replication", "0"], "exactly one scenario FILE"),
        ]
        for (args, message) in cases {
            let r = runCLI(args)
            #expect(r.code == 2 && r.err.contains(message), "\(args): \(r.err)")
        }
    }

    /// Random churn, fault and write processes, made explicit, replay the same run: the same
    /// metrics and checker verdicts.
    @Test func theExplicitScheduleReplaysTheRandomRun() throws {
        let text = """
        {"format": 1, "name": "mixed", "seed": 5, "duration": "1d", "settle": "6h",
         "group": {"devices": 5, "k": 2, "n": 4, "s": 3, "ttl": "8h"},
         "workload": {"update": {"every": {"dist": "exponential", "mean": "2h"}},
                      "delete": {"every": {"dist": "exponential", "mean": "12h"}}, "objects": 6,
                      "object_size": {"dist": "uniform", "min": 100, "max": 900}},
         "churn": {"online": {"dist": "exponential", "mean": "6h"}, "offline": {"dist": "exponential", "mean": "3h"},
                   "start_offline": 0.5, "windows": [{"device": 2, "start": "3h", "end": "9h"}]},
         "faults": [{"kind": "blackhole", "servers": [1, 3], "up": {"dist": "exponential", "mean": "4h"}, "down": "1h"},
                    {"kind": "restart", "servers": [4], "at": "20h", "keep_data": false}],
         "metrics": ["converged", "delivery_ratio", "messages_uploaded", "messages_rebuilt", "reuploads", "share_puts",
                     "updates_uploaded", "deletes_uploaded", "upload_failures", "requests", "bytes_uploaded"]}
        """
        let spec = try ScenarioLoader.load(ScenarioSource(label: "mixed.json", text: text)).base
        for rep in 0..<2 {
            let seed = RunPlan.runSeed(scenarioSeed: spec.seed, replication: rep)
            let concrete = spec.concretized(runSeed: seed)
            #expect(concrete.workload.update == nil && concrete.churn.process == nil)
            #expect(!concrete.workload.writes.isEmpty && concrete.churn.windows.count > 1 && concrete.faults.count > 1)
            let a = try GrouperExecutor().execute(ResolvedRun(index: 0, point: 0, replication: rep, seed: seed, spec: spec, assignments: []))
            let b = try GrouperExecutor().execute(ResolvedRun(index: 0, point: 0, replication: rep, seed: seed, spec: concrete, assignments: []))
            // Every metric but `events`: the explicit schedule leaves out commands that change nothing
            // (a device told to go online while online), which the kernel still counts as events.
            let same = a.metrics.filter { $0.name != "events" }.map { "\($0.name)=\($0.value.bitPattern)" }
            #expect(same == b.metrics.filter { $0.name != "events" }.map { "\($0.name)=\($0.value.bitPattern)" }, "replication \(rep)")
            #expect(a.checkers == b.checkers)
            // The file form reads back as the same schedule.
            let reread = try ScenarioLoader.load(ScenarioSource(label: "c.json", text: JSONWriter.pretty(concrete.resolvedJSON))).base
            #expect(JSONWriter.pretty(reread.resolvedJSON) == JSONWriter.pretty(concrete.resolvedJSON))
        }
    }

    @Test func deltaDebuggingFindsAOneMinimalSubset() {
        // Fails when both 3 and 11 are present.
        let items = Array(0..<20)
        var tests = 0
        let kept = DeltaDebugging.minimize(items) { cands -> Int? in
            tests += cands.count
            return cands.firstIndex { $0.contains(3) && $0.contains(11) }
        }
        #expect(kept == [3, 11])
        #expect(tests < 120)
    }

    @Test func explicitWritesAreCheckedLikeTheRestOfTheFile() {
        let text = """
        {"format": 1, "name": "w", "duration": "1h", "group": {"devices": 2, "k": 1, "n": 1, "s": 1},
         "workload": {"objects": 4, "object_size": {"dist": "uniform", "min": 10, "max": 20},
                      "writes": [{"device": 3, "at": "2h", "object": 4},
                                 {"device": 1, "at": "1min", "object": 0, "kind": "delete", "size": 5},
                                 {"device": 1, "at": "1min", "object": 1, "kind": "erase"}]}}
        """
        var issues: [String] = []
        do { _ = try ScenarioLoader.load(ScenarioSource(label: "w.json", text: text)) } catch { issues = error.issues.map(\.description) }
        #expect(!issues.isEmpty)
        let expected = ["workload.writes[0].device", "workload.writes[0].at", "workload.writes[0].object",
                        "workload.writes[0]: an update needs 'size'", "workload.writes[1].size: a delete writes no record",
                        "workload.writes[2].kind"]
        for e in expected { #expect(issues.contains { $0.contains(e) }, "\(e) in \(issues)") }
    }
}
