import Foundation
import Testing
import SimKernel
import GrouperModel
@testable import Scenarios
@testable import Format
@testable import Catalogs
@testable import ScenarioFile
@testable import Plan
@testable import Execution
@testable import Timelines
@testable import Reports
@testable import Experiments
@testable import Explore
@testable import Shrink
@testable import GrouperBinding

/// Verdicts where features meet (issue 26): chunked delivery, devices outside the group on
/// the central server, what `settle` ends, overlapping windows, and `validate`'s words.
@Suite struct VerdictRulesTests {
    static func load(_ text: String, label: String = "verdicts.json") throws -> LoadedScenario {
        try ScenarioLoader.load(ScenarioSource(label: label, text: text))
    }

    /// Runs point `point` of `text` (replication 0, seed 11) on the protocol model.
    static func outcome(_ text: String, point: Int = 0) throws -> RunOutcome {
        let spec = try load(text).pointSpecs[point]
        return try GrouperExecutor().execute(ResolvedRun(index: point, point: point, replication: 0, seed: 11,
                                                         spec: spec, assignments: []))
    }

    static func metric(_ o: RunOutcome, _ name: MetricName) -> Double { o.metrics.first { $0.name == name }!.value }
    static func verdict(_ o: RunOutcome, _ name: String) -> CheckerVerdict { o.checkers.first { $0.name == name }! }

    static func file(_ dir: URL, _ name: String, _ text: String) throws -> String {
        let path = dir.appendingPathComponent(name + ".json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    // MARK: 1. delivery checks every chunk of a chunked write

    /// No-recovery, f(2, 3, 2): a 40 MiB object in 1 MiB chunks goes up in three puts of up to
    /// 16 chunks (the first done at about 619 s, the second at 646 s); servers 1 and 2 restart
    /// without data at 630 s, so chunks 1–16 survive on server 3 alone (< k). Devices 2 and 3 are
    /// away meanwhile and never get them; the overwrite at 2 h supersedes the object.
    static let chunkLoss = """
        {"format": 1, "name": "chunk-loss", "seed": 1, "duration": "4h",
         "group": {"devices": 3, "k": 2, "n": 3, "s": 2, "ttl": "1d"},
         "protocol": {"variant": "no-recovery"},
         "workload": {"objects": 2, "chunking": {"chunk_size": 1048576},
           "writes": [{"device": 1, "at": "10min", "object": 0, "size": 41943040},
                      {"device": 1, "at": "2h", "object": 0, "size": 1000}]},
         "churn": {"windows": [{"device": 2, "start": "0s", "end": "3h"}, {"device": 3, "start": "0s", "end": "3h"}]},
         "faults": [{"kind": "restart", "servers": [1, 2], "at": "RESTART", "keep_data": false}],
         "settle": "1h"}
        """

    @Test func deliveryFailsWhenEarlyChunksOfAWriteAreLost() throws {
        let dir = ScenarioFixtures.tempDir("verdicts-chunks")
        let lost = try Self.file(dir, "lost", Self.chunkLoss.replacingOccurrences(of: "RESTART", with: "630s"))
        let r = runCLI(["run", lost, "--out", dir.appendingPathComponent("out-lost").path, "--progress", "never"])
        #expect(r.code == 4, "\(r.err)")
        #expect(r.err.contains("delivery (liveness)") && r.err.contains("D2 never handled") && r.err.contains("chunk 1 of 40"),
                "\(r.err)")
        // The same loss without chunking fails delivery too (the rule the chunked case now follows).
        let plain = try Self.file(dir, "plain", Self.chunkLoss.replacingOccurrences(of: "RESTART", with: "630s")
            .replacingOccurrences(of: #", "chunking": {"chunk_size": 1048576}"#, with: "")
            .replacingOccurrences(of: "41943040", with: "1000"))
        #expect(runCLI(["run", plain, "--out", dir.appendingPathComponent("out-plain").path, "--progress", "never"]).code == 4)
        // A restart before any chunk was stored loses nothing: every chunk goes up afterwards.
        let early = try Self.file(dir, "early", Self.chunkLoss.replacingOccurrences(of: "RESTART", with: "5min"))
        let ok = runCLI(["run", early, "--out", dir.appendingPathComponent("out-early").path, "--progress", "never"])
        #expect(ok.code == 0, "\(ok.err)")
    }

    // MARK: 2. a device outside the group does nothing, on both architectures

    /// Device 3 is not a member and never invited; it writes at 1 h.
    static let outsider = """
        {"format": 1, "name": "outsider", "seed": 3, "duration": "6h", "settle": "2h",
         "group": {"devices": 3, "k": 2, "n": 3, "s": 3, "ttl": "1d", "members": [1, 2]},
         "workload": {"objects": 4, "writes": [{"device": 1, "at": "30min", "object": 0, "size": 100},
                                              {"device": 3, "at": "1h", "object": 1, "size": 100},
                                              {"device": 2, "at": "2h", "object": 2, "size": 100}]},
         "sweep": [{"path": "architecture", "values": ["grouper", "central"]}]}
        """

    @Test(arguments: [0, 1]) func writesOutsideTheGroupAreDropped(point: Int) throws {
        let o = try Self.outcome(Self.outsider, point: point)
        #expect(Self.metric(o, "converged") == 1, "\(o.checkers)")
        #expect(o.checkers.allSatisfy { $0.passed }, "\(o.checkers)")
    }

    @Test func centralInvitationWaitsForTheOwner() throws {
        let config = CentralConfig(devices: 3, members: [0, 1])
        let system = try CentralSystem(config: config)
        system.setOnline(false, device: 0, at: SimTime.zero + .hours(1))
        system.invite(device: 2, at: SimTime.zero + .hours(2))
        system.setOnline(true, device: 0, at: SimTime.zero + .hours(3))
        system.run(until: SimTime.zero + .minutes(150))
        #expect(!system.isMember(device: 2), "the owner is offline: the invitation waits")
        system.run(until: SimTime.zero + .minutes(181))
        #expect(system.isMember(device: 2), "made when the owner comes back")
    }

    @Test func centralInviteeOfAnAbsentOwnerIsAConvergenceFinding() throws {
        let text = """
            {"format": 1, "name": "absent-owner", "seed": 3, "duration": "6h",
             "architecture": "central",
             "group": {"devices": 3, "k": 2, "n": 3, "s": 3, "members": [1, 2],
                       "invite": [{"device": 3, "at": "2h", "by": 1}]},
             "workload": {"objects": 4, "writes": [{"device": 2, "at": "30min", "object": 0, "size": 100}]},
             "churn": {"windows": [{"device": 1, "start": "1h", "end": "7h"}]}}
            """
        let o = try Self.outcome(text)
        let v = Self.verdict(o, "convergence")
        #expect(!v.passed && v.detail.contains("D3 is outside the group"), "\(v.detail)")
    }

    // MARK: 3. settle ends every window: hostile ones and the schedule's offline

    /// Servers 1 and 2 withhold every share on `transfer/get` from the start, with no end: nobody
    /// can rebuild anything (k = 2) until the settle period makes them honest.
    @Test func settleEndsHostileWindows() throws {
        let text = """
            {"format": 1, "name": "withhold-settle", "seed": 5, "duration": "6h", "settle": "3h",
             "group": {"devices": 3, "k": 2, "n": 3, "s": 3, "ttl": "1d"},
             "workload": {"objects": 4, "writes": [{"device": 1, "at": "30min", "object": 0, "size": 100},
                                                  {"device": 2, "at": "1h", "object": 1, "size": 100}]},
             "faults": [{"kind": "withhold", "servers": [1, 2], "window": {"start": "0s"}}]}
            """
        let o = try Self.outcome(text)
        #expect(o.checkers.allSatisfy { $0.passed }, "\(o.checkers)")
        #expect(Self.metric(o, "converged") == 1)
    }

    /// A schedule's `offline` with no later `online`: the settle brings the device back, as it
    /// does for churn windows, and `validate` says so.
    static let scheduleAway = """
        {"format": 1, "name": "schedule-away", "seed": 5, "duration": "6h", "settle": "3h",
         "group": {"devices": 3, "k": 2, "n": 3, "s": 3, "ttl": "1d"},
         "workload": {"objects": 4, "writes": [{"device": 1, "at": "2h", "object": 0, "size": 100}]},
         "schedule": [{"at": "1h", "device": 2, "do": "offline"}]}
        """

    @Test func settleEndsAScheduleOffline() throws {
        let o = try Self.outcome(Self.scheduleAway)
        #expect(o.checkers.allSatisfy { $0.passed }, "\(o.checkers)")
        let dir = ScenarioFixtures.tempDir("verdicts-schedule")
        let v = runCLI(["validate", try Self.file(dir, "away", Self.scheduleAway)])
        #expect(v.code == 0 && v.err.contains("warning: ") && v.err.contains("schedule[0]")
                && v.err.contains("comes back online at 3h"), "\(v.err)")
        // With an `online` before the settle there is nothing to say.
        let back = Self.scheduleAway.replacingOccurrences(of: #""do": "offline"}]"#,
                                                          with: #""do": "offline"}, {"at": "150min", "device": 2, "do": "online"}]"#)
        let quiet = runCLI(["validate", try Self.file(dir, "back", back)])
        #expect(quiet.code == 0 && !quiet.err.contains("warning"), "\(quiet.err)")
    }

    // MARK: 4. overlapping windows nest

    static func drive(_ text: String) throws -> GrouperSystem {
        let spec = try load(text).base
        let system = try GrouperSystem(config: GrouperExecutor.config(spec, seed: 7))
        GrouperDrivers.schedule(spec, on: system, streams: RandomStreams(rootSeed: 7), latency: LatencyRecorder())
        return system
    }

    static let base = """
        "format": 1, "name": "nest", "seed": 2, "duration": "8h",
        "group": {"devices": 3, "k": 2, "n": 3, "s": 3, "ttl": "1d"},
        "workload": {"update": {"every": "30min"}}
        """

    @Test func overlappingDeviceWindowsNest() throws {
        let system = try Self.drive("{" + Self.base + #", "churn": {"windows": [{"device": 3, "start": "1h", "end": "5h"},"#
                                    + #"{"device": 3, "start": "2h", "end": "3h"}]}}"#)
        for (minutes, online) in [(59, true), (61, false), (150, false), (181, false), (299, false), (301, true)] {
            system.run(until: SimTime.zero + .minutes(Int64(minutes)))
            #expect(system.isOnline(device: 2) == online, "at \(minutes) min")
        }
    }

    @Test func overlappingServerWindowsNest() throws {
        let system = try Self.drive("{" + Self.base + #", "faults": [{"kind": "refuse", "servers": [1], "window": {"start": "1h", "end": "5h"}},"#
                                    + #"{"kind": "blackhole", "servers": [1], "window": {"start": "2h", "end": "3h"}}]}"#)
        let expected: [(Int, ServerState)] = [(59, .up), (61, .refusing), (150, .blackhole), (181, .refusing), (299, .refusing),
                                              (301, .up)]
        for (minutes, state) in expected {
            system.run(until: SimTime.zero + .minutes(Int64(minutes)))
            #expect(system.serverState(0) == state, "at \(minutes) min")
        }
    }

    @Test func aChurnProcessDoesNotEndAWindow() throws {
        let system = try Self.drive("{" + Self.base + #", "churn": {"devices": [3], "online": "10min", "offline": "10min","#
                                    + #""windows": [{"device": 3, "start": "1h", "end": "2h"}]}}"#)
        var seenOnline = false
        for minute in stride(from: 0, through: 180, by: 1) {
            system.run(until: SimTime.zero + .minutes(Int64(minute)) + .seconds(30))
            if minute >= 60 && minute < 120 { #expect(!system.isOnline(device: 2), "at \(minute) min 30 s, inside the window") }
            if minute >= 125 && system.isOnline(device: 2) { seenOnline = true }
        }
        #expect(seenOnline, "the process runs on after the window")
    }

    @Test func centralWindowsNestToo() throws {
        let spec = try Self.load("{" + Self.base + #", "architecture": "central", "churn": {"windows": [{"device": 3, "start": "1h", "end": "5h"},"#
                                 + #"{"device": 3, "start": "2h", "end": "3h"}]}}"#).base
        let system = try CentralSystem(config: CentralExecutor.config(spec, seed: 7))
        GrouperDrivers.schedule(spec, on: system, streams: RandomStreams(rootSeed: 7), latency: LatencyRecorder())
        system.run(until: SimTime.zero + .minutes(200))
        #expect(!system.isOnline(device: 2))
        system.run(until: SimTime.zero + .minutes(301))
        #expect(system.isOnline(device: 2))
    }

    /// `shrink` makes windows explicit with the same rule: nested windows give one window.
    @Test func concretizedWindowsNest() throws {
        let spec = try Self.load("{" + Self.base + #", "churn": {"windows": [{"device": 3, "start": "1h", "end": "5h"},"#
                                 + #"{"device": 3, "start": "2h", "end": "3h"}]}, "faults": [{"kind": "refuse", "servers": [1],"#
                                 + #""window": {"start": "1h", "end": "5h"}}, {"kind": "blackhole", "servers": [1],"#
                                 + #""window": {"start": "2h", "end": "3h"}}]}"#).base
        let concrete = spec.concretized(runSeed: 7)
        #expect(concrete.churn.windows == [OfflineWindow(device: 3, start: .hours(1), end: .hours(5))])
        let down = concrete.faults.compactMap { f -> String? in
            guard case .window(let mode, let start, let end) = f.kind else { return nil }
            return "\(mode.rawValue) \(start)-\(end.map { "\($0)" } ?? "")"
        }
        #expect(down == ["refuse 1h-2h", "blackhole 2h-3h", "refuse 3h-5h"], "\(down)")
    }

    /// The set of reasons: the mode in force is the latest started active one; ending a reason
    /// that does not hold changes nothing; starting one again moves it to the end.
    @Test func outagesKeepEveryActiveReason() {
        var o = Outages<ServerState>()
        #expect(o.set(1, .refusing) == .refusing)
        #expect(o.set(2, .blackhole) == .blackhole)
        #expect(o.set(3, nil) == .blackhole, "a reason that does not hold")
        #expect(o.set(2, nil) == .refusing, "back to the one still holding")
        #expect(o.set(2, .blackhole) == .blackhole)
        #expect(o.set(1, .refusing) == .refusing, "started again: now the latest")
        #expect(o.set(1, nil) == .blackhole)
        #expect(o.set(2, nil) == nil && o.active.isEmpty)
    }

    // MARK: 14. the event estimate with unsent retries against refusing servers

    /// Two of five servers refuse all run long, so with s = 4 every upload fails and each
    /// writer re-puts its unsent queue every minute: about 2n + 1 events a retry.
    @Test func estimateCoversUnsentRetriesAgainstRefusingServers() throws {
        let text = """
            {"format": 1, "name": "refusing", "seed": 2, "duration": "6h",
             "group": {"devices": 3, "k": 2, "n": 5, "s": 4, "ttl": "1d", "sweep_period": "1h"},
             "protocol": {"unsent_retry": "1min", "receive": {"policy": "push"}},
             "workload": {"update": {"every": "1h"}},
             "faults": [{"kind": "refuse", "servers": [1, 2], "window": {"start": "0s"}}],
             "require": []}
            """
        var run = RunPlan(try Self.load(text)).runs[0]
        run.spec.metrics = ["events"]
        let actual = Self.metric(try GrouperExecutor().execute(run), "events")
        let estimate = run.spec.estimatedEvents
        #expect(estimate > actual / 3 && estimate < actual * 3, "estimated \(estimate), actual \(actual)")
    }

    // MARK: 17. validate's words

    @Test func confirmPolicyErrorNamesEveryValidPolicy() throws {
        let text = """
            {"format": 1, "name": "after", "duration": "1h", "group": {"devices": 2, "k": 2, "n": 3, "s": 3},
             "protocol": {"confirm": {"policy": "after-receive"}}}
            """
        do {
            _ = try Self.load(text)
            Issue.record("after-receive without as-built must be an error")
        } catch {
            let message = "\(error)"
            #expect(message.contains("\"periodic\", \"on-reconnect\" or \"never\""), "\(message)")
        }
    }

    @Test func plaintextWarningOnlyForGrouperPoints() throws {
        let text = """
            {"format": 1, "name": "k1", "duration": "1h", "group": {"devices": 2, "k": 1, "n": 2, "s": 1},
             "sweep": [{"path": "architecture", "values": ["grouper", "central"]}]}
            """
        let w = try Self.load(text).warnings
        #expect(w.count == 1 && w[0].contains("sweep point(s) 0:"), "\(w)")
        let central = try Self.load(text.replacingOccurrences(of: #""sweep": [{"path": "architecture", "values": ["grouper", "central"]}]"#,
                                                              with: #""architecture": "central""#))
        #expect(central.warnings.isEmpty, "\(central.warnings)")
    }

    @Test func staleOutsideAsBuiltIsWarnedAbout() throws {
        let text = """
            {"format": 1, "name": "stale", "duration": "1h", "group": {"devices": 2, "k": 2, "n": 3, "s": 3},
             "protocol": {"variant": "VARIANT"},
             "faults": [{"kind": "stale", "servers": [1]}]}
            """
        let thesis = try Self.load(text.replacingOccurrences(of: "VARIANT", with: "thesis")).warnings
        #expect(thesis.contains { $0.contains("faults[0]") && $0.contains("stale") && $0.contains("changes nothing") }, "\(thesis)")
        let asBuilt = try Self.load(text.replacingOccurrences(of: "VARIANT", with: "as-built")).warnings
        #expect(asBuilt.isEmpty, "\(asBuilt)")
    }
}
