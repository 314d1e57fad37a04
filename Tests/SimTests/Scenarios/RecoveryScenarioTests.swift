import Foundation
import Testing
@testable import Scenarios
@testable import Format
@testable import Catalogs
@testable import ScenarioFile
@testable import Plan
@testable import Execution
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore
@testable import GrouperBinding
import GrouperModel
import SimKernel

/// Recovery at scale and the scenario features of issue #17, on the real protocol model.
@Suite struct RecoveryScenarioTests {
    static func load(_ text: String) throws -> LoadedScenario {
        try ScenarioLoader.load(ScenarioSource(label: "t.json", text: text))
    }

    static func records(_ text: String) throws -> (LoadedScenario, [RunRecord]) {
        let s = try load(text)
        return (s, try ParallelRunner.execute(RunPlan(s).runs, executor: GrouperExecutor(), jobs: 2))
    }

    /// Nine devices come back at once after 10 h offline (10 × TTL) and all ask the writer for
    /// the same range. Their unicast copies no longer overwrite each other (nor the multicast
    /// share), so one confirm period of settle (= TTL) suffices, with one resend request and
    /// one re-upload per (device, missing message).
    @Test func stampedeConvergesWithinOneConfirmPeriod() throws {
        let windows = (2...10).map { "{\"device\": \($0), \"start\": \"0s\", \"end\": \"10h\"}" }.joined(separator: ", ")
        let (s, records) = try Self.records("""
            {"format": 1, "name": "stampede", "seed": 17, "replications": 3, "duration": "11h", "settle": "1h",
             "group": {"devices": 10, "k": 2, "n": 3, "s": 3, "ttl": "1h"},
             "workload": {"writers": [1], "update": {"every": "30min"}},
             "churn": {"windows": [\(windows)]},
             "metrics": ["converged", "delivery_ratio", "reuploads", "resend_requests", "updates_uploaded"]}
            """)
        let i = { (name: MetricName) in s.base.metrics.firstIndex(of: name)! }
        for r in records {
            #expect(r.failedCheckers.isEmpty, "\(r.failedCheckers.map(\.detail))")
            #expect(r.metrics[i("converged")] == 1 && r.metrics[i("delivery_ratio")] == 1)
            let written = r.metrics[i("updates_uploaded")] - r.metrics[i("reuploads")]
            #expect(written == 19, "writes every 30 min before the settle at 10 h")
            // Each returning device misses what expired before it came back (all but the last
            // hour's); it asks once and gets one copy of each.
            #expect(r.metrics[i("resend_requests")] == 9, "\(r.metrics)")
            #expect(r.metrics[i("reuploads")] <= 9 * written && r.metrics[i("reuploads")] >= 9 * (written - 3))
        }
    }

    /// The same stampede answered with shared re-uploads: the second requester of a message
    /// gets a multicast re-upload that serves the seven after it (threshold 2), or the first
    /// does (threshold 1); every device still converges within the confirm period.
    @Test func sharedReuploadsAnswerTheStampedeOnce() throws {
        let text = try #require(BuiltinScenarios.source(named: "recovery-stampede")).bytes
        var counts: [Int?: Double] = [:]
        for after in [nil, 2, 1] as [Int?] {
            var json = String(decoding: text, as: UTF8.self).replacingOccurrences(of: "\"replications\": 10", with: "\"replications\": 1")
            if let after {
                json = json.replacingOccurrences(of: "\"settle\": \"1h\",", with: "\"settle\": \"1h\", \"protocol\": {\"resend_multicast_after\": \(after)},")
            }
            let (s, records) = try Self.records(json)
            let r = try #require(records.first)
            #expect(r.failedCheckers.isEmpty, "\(String(describing: after)): \(r.failedCheckers.map(\.detail))")
            #expect(s.base.protocolSpec.resendMulticastAfter == after)
            counts[after] = r.metrics[s.base.metrics.firstIndex(of: "reuploads")!]
        }
        let perDevice = try #require(counts[nil]) / 9
        #expect(perDevice >= 10 && counts[2] == 2 * perDevice && counts[1] == perDevice, "\(counts)")
    }

    /// Twenty devices over f(3, 5, 4), TTL 2 h, all writing under heavy churn: converges
    /// within one confirm period (= TTL) of settle. (The 100-device version is a documented
    /// scenario run; docs/protocol.md quotes it.)
    @Test func churningGroupConvergesWithinOneConfirmPeriod() throws {
        let (s, records) = try Self.records("""
            {"format": 1, "name": "churn20", "seed": 5, "replications": 2, "duration": "14h", "settle": "2h",
             "group": {"devices": 20, "k": 3, "n": 5, "s": 4, "ttl": "2h"},
             "workload": {"update": {"every": {"dist": "exponential", "mean": "3h"}}, "objects": 50},
             "churn": {"online": {"dist": "exponential", "mean": "3h"}, "offline": {"dist": "exponential", "mean": "4h"},
                       "start_offline": 0.3},
             "metrics": ["converged", "delivery_ratio", "reuploads", "resend_requests"]}
            """)
        for r in records {
            #expect(r.failedCheckers.isEmpty, "run \(r.index): \(r.failedCheckers.map(\.detail))")
            #expect(r.metrics[s.base.metrics.firstIndex(of: "reuploads")!] > 0, "recovery was exercised")
        }
    }

    @Test func membersAndTimedInvitationsDriveTheGroup() throws {
        let spec = try Self.load("""
            {"format": 1, "name": "late", "duration": "3h", "settle": "1h",
             "group": {"devices": 4, "k": 2, "n": 3, "s": 3, "ttl": "30min", "members": [1, 2],
                       "invite": [{"device": 3, "at": "90min", "by": 1}]},
             "workload": {"update": {"every": "10min"}},
             "churn": {"windows": [{"device": 1, "start": "80min", "end": "100min"}]}}
            """).base
        #expect(spec.group.initialMembers == [1, 2] && spec.group.invitations == [Invitation(device: 3, at: .minutes(90), by: 1)])
        let system = try GrouperSystem(config: GrouperExecutor.config(spec, seed: 3))
        GrouperDrivers.schedule(spec, on: system, streams: RandomStreams(rootSeed: 3), latency: LatencyRecorder())
        system.run(until: SimTime.zero + .minutes(95))
        #expect(system.isMember(device: 1) && !system.isMember(device: 2), "the owner is offline at 90 min")
        #expect(system.writes.allSatisfy { $0.device <= 1 }, "a device writes only once it is a member")
        system.run(until: SimTime.zero + .hours(3))
        #expect(system.isMember(device: 2) && !system.isMember(device: 3))
        let report = system.check()
        #expect(report.passed, "\(report.findings)")
        #expect(system.writes.contains { $0.device == 2 })
        #expect(system.objects(device: 2).map(\.id) == system.objects(device: 0).map(\.id))
    }

    @Test func aRunWithoutWritesSaysNothingToCheck() throws {
        let (_, records) = try Self.records("""
            {"format": 1, "name": "idle", "duration": "1h", "group": {"devices": 3, "k": 2, "n": 3, "s": 3},
             "metrics": ["converged", "delivery_ratio"]}
            """)
        let r = try #require(records.first)
        #expect(r.metrics[0].isNaN && r.metrics[1].isNaN)
        let convergence = try #require(r.checkers.first { $0.name == "convergence" })
        #expect(convergence.passed && convergence.detail.contains("nothing to check"))
    }

    @Test func kOneIsAcceptedWithAWarning() throws {
        let dir = ScenarioFixtures.tempDir("k1")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("k1.json")
        try Data("""
            {"format": 1, "name": "k1", "duration": "10min", "group": {"devices": 2, "k": 1, "n": 3, "s": 2},
             "sweep": [{"path": "group.k", "values": [1, 2]}]}
            """.utf8).write(to: file)
        let v = runCLI(["validate", file.path])
        #expect(v.code == 0 && v.out.hasPrefix("ok "))
        #expect(v.err.contains("warning: \(file.path): group.k: k = 1 in sweep point(s) 0:"))
        #expect(v.err.contains("plaintext"))
        let r = runCLI(["run", file.path, "--out", dir.appendingPathComponent("out").path])
        #expect(r.code == 0 && r.err.contains("plaintext"))
        let two = runCLI(["validate", file.path.replacingOccurrences(of: "k1.json", with: "none.json")])
        #expect(!two.err.contains("plaintext"))
    }
}
