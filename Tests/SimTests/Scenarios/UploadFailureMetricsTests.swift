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

/// `upload_failures` and `failed_uploads_rebuildable` count messages (each once),
/// `upload_attempts_failed` counts attempts, `share_puts` counts shares stored (not refused
/// puts), and the protocol log says what late answers to a failed upload did.
@Suite struct UploadFailureMetricsTests {
    /// Server 1 refuses for 3 h while device 1 writes every 20 min and retries its unsent
    /// queue every 10 min: each message written then fails several times.
    static let text = """
    {
      "format": 1, "name": "failing", "seed": 4, "replications": 1, "duration": "6h",
      "group": {"devices": 2, "k": 2, "n": 3, "s": 3, "ttl": "12h"},
      "protocol": {"unsent_retry": "10min"},
      "workload": {"writers": [1], "update": {"every": "20min", "stop": "2h"}},
      "faults": [{"kind": "refuse", "servers": [1], "window": {"start": "0s", "end": "3h"}}],
      "metrics": ["updates_uploaded", "upload_failures", "upload_attempts_failed", "failed_uploads_rebuildable"]
    }
    """

    @Test func failuresCountMessagesOnceAndAttemptsEveryTime() throws {
        let s = try ScenarioLoader.load(ScenarioSource(label: "failing.json", text: Self.text))
        let dir = ScenarioFixtures.tempDir("upload-failures")
        var run = RunPlan(s).runs[0]
        run.tracePath = dir.appendingPathComponent("log.txt").path
        let outcome = try GrouperExecutor().execute(run)
        let m = Dictionary(uniqueKeysWithValues: outcome.metrics.map { ($0.name, $0.value) })
        let uploaded = try #require(m["messages_uploaded"])
        #expect(m["updates_uploaded"] == 5, "every 20 min before 2 h: \(m)")
        #expect(m["upload_failures"] == uploaded, "every message failed at least once, and counts once: \(m)")
        #expect(m["upload_attempts_failed"]! > 4 * uploaded, "retries every 10 min for up to 3 h: \(m)")
        // The two other servers store every attempt's shares after the verdict: k = 2 reached each
        // time, and each message counts once however many of its attempts did.
        #expect(m["failed_uploads_rebuildable"] == m["upload_failures"], "\(m)")
        // share_puts counts shares stored: 3 per successful upload, 2 per failed attempt (server 1
        // refused its put), not the 3 puts every attempt sent.
        #expect(m["share_puts"] == 3 * uploaded + 2 * m["upload_attempts_failed"]!, "\(m)")
        let log = try String(contentsOfFile: run.tracePath!, encoding: .utf8)
        let failed = log.split(separator: "\n").filter { $0.contains("upload failed") }
        #expect(!failed.isEmpty)
        // Server 1 refuses at once; the verdict comes before the other two answer, and the log says so.
        #expect(failed.allSatisfy { $0.contains("stored on 0 of 3 needed servers, 1 failed, 2 not answered yet") }, "\(failed.first!)")
        #expect(log.contains("late answer to failed upload job") && log.contains("now on 2 of 3 needed servers, 0 still unanswered (receivers can rebuild it"))
    }
}
