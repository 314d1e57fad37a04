import Foundation
import Testing
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
@testable import Explore
@testable import Experiments
import GrouperModel
import SimKernel

/// The scenario features an equations replication needs (issue #14): a timed `schedule`,
/// `protocol.recovery`, the `on-reconnect` confirm policy, `group.aligned_sweeps` and the
/// `ttl_window_*` series; and the equations' replications run as scenarios.
@Suite struct ScheduleScenarioTests {
    static let metrics = ["messages_uploaded", "confirms_uploaded", "messages_rebuilt", "reuploads", "resend_requests"]

    /// One run of a 3-device scenario (1 h TTL, 3 h) with `extra` top-level keys and `protocol`.
    static func run(_ extra: String, protocol proto: String = "{}", seed: UInt64 = 5) throws -> RunOutcome {
        let text = """
            {"format": 1, "name": "sched", "seed": \(seed), "duration": "3h",
             "group": {"devices": 3, "k": 1, "n": 1, "s": 1, "ttl": "1h"},
             "protocol": \(proto),
             "workload": {"objects": 10, "object_size": 16,
                          "writes": [{"device": 1, "at": "10min", "object": 1}, {"device": 1, "at": "40min", "object": 2}]},
             "metrics": [\(metrics.map { "\"\($0)\"" }.joined(separator: ", "))], "require": []\(extra.isEmpty ? "" : ", " + extra)}
            """
        let loaded = try ScenarioLoader.load(ScenarioSource(label: "t.json", text: text))
        return try GrouperExecutor().execute(RunPlan(loaded).runs[0])
    }

    static func metric(_ r: RunOutcome, _ name: MetricName) -> Double { r.metrics.first { $0.name == name }!.value }

    static let quiet = #"{"confirm": {"policy": "never"}, "receive": {"policy": "poll", "poll_period": "1d"}}"#

    /// Going offline and back through the schedule is what a churn window does.
    @Test func offlineAndOnlineMatchAChurnWindow() throws {
        let scheduled = try Self.run(#""schedule": [{"at": "20min", "device": 2, "do": "offline"}, {"at": "2h", "device": 2, "do": "online"}]"#)
        let window = try Self.run(#""churn": {"windows": [{"device": 2, "start": "20min", "end": "2h"}]}"#)
        let none = try Self.run("")
        #expect(scheduled.fingerprint == window.fingerprint)
        #expect(scheduled.fingerprint != none.fingerprint)
    }

    /// A scheduled confirm is one more confirm upload (by a device that wrote: confirms name a sequence); a scheduled receive round rebuilds what
    /// a device that never polls would not have; ties at one time run in list order.
    @Test func confirmAndReceiveCommandsAct() throws {
        let base = try Self.run("", protocol: Self.quiet)
        let confirm = try Self.run(#""schedule": [{"at": "1h", "device": 1, "do": "confirm"}]"#, protocol: Self.quiet)
        let receive = try Self.run(#""schedule": [{"at": "1h", "device": 2, "do": "receive"}]"#, protocol: Self.quiet)
        #expect(Self.metric(base, "confirms_uploaded") == 0 && Self.metric(confirm, "confirms_uploaded") == 1)
        #expect(Self.metric(base, "messages_rebuilt") == 0 && Self.metric(receive, "messages_rebuilt") == 2)
        let both = #"{"at": "1h", "device": 2, "do": "receive"}, {"at": "1h", "device": 3, "do": "receive"}"#
        let swapped = #"{"at": "1h", "device": 3, "do": "receive"}, {"at": "1h", "device": 2, "do": "receive"}"#
        #expect(try Self.run("\"schedule\": [\(both)]", protocol: Self.quiet).fingerprint
                != Self.run("\"schedule\": [\(swapped)]", protocol: Self.quiet).fingerprint)
    }

    /// A resend answer re-uploads the range; with `multicast_reuploads` every member rebuilds it.
    @Test func resendAnswersAndRecoverySwitches() throws {
        let answer = #""schedule": [{"at": "1h", "device": 1, "do": "resend", "to": 2, "first": 1, "last": 2}, {"at": "2h", "device": 2, "do": "receive"}, {"at": "2h", "device": 3, "do": "receive"}]"#
        let unchecked = #"{"confirm": {"policy": "never"}, "receive": {"policy": "poll", "poll_period": "1d"}, "recovery": {"receiver_asks": false, "sender_checks_servers": false"#
        let unicast = try Self.run(answer, protocol: unchecked + "}}")
        let multicast = try Self.run(answer, protocol: unchecked + #", "multicast_reuploads": true}}"#)
        let none = try Self.run(#""schedule": [{"at": "2h", "device": 2, "do": "receive"}, {"at": "2h", "device": 3, "do": "receive"}]"#,
                                protocol: unchecked + "}}")
        #expect(Self.metric(none, "reuploads") == 0 && Self.metric(unicast, "reuploads") == 2 && Self.metric(multicast, "reuploads") == 2)
        #expect(Self.metric(multicast, "messages_rebuilt") > Self.metric(unicast, "messages_rebuilt"))
        // The sender that checks the servers first re-uploads nothing: both messages are still there.
        let checked = try Self.run(answer, protocol: Self.quiet)
        #expect(Self.metric(checked, "reuploads") == 0)
    }

    /// `on-reconnect` confirms only when a device comes back; aligned sweeps move the sweeps.
    @Test func onReconnectConfirmsAndAlignedSweeps() throws {
        let away = #""schedule": [{"at": "50min", "device": 1, "do": "offline"}, {"at": "2h", "device": 1, "do": "online"}]"#
        let never = try Self.run(away, protocol: #"{"confirm": {"policy": "never"}}"#)
        let onReconnect = try Self.run(away, protocol: #"{"confirm": {"policy": "on-reconnect"}}"#)
        #expect(Self.metric(never, "confirms_uploaded") == 0 && Self.metric(onReconnect, "confirms_uploaded") == 1)
        let text = { (aligned: Bool) in
            #"{"format": 1, "name": "a", "duration": "3h", "group": {"devices": 2, "k": 1, "n": 1, "s": 1, "ttl": "1h", "aligned_sweeps": \#(aligned)}}"#
        }
        let fingerprints = try [true, false].map { a -> RunFingerprint in
            let loaded = try ScenarioLoader.load(ScenarioSource(label: "a.json", text: text(a)))
            return try GrouperExecutor().execute(RunPlan(loaded).runs[0]).fingerprint
        }
        #expect(fingerprints[0] != fingerprints[1])
    }

    /// The `ttl_window_*` series are the model's per-window counters: over whole windows they
    /// add up to the run's counts, and each sample holds only its own window.
    @Test func windowSeriesAddUpToTheRunsCounts() throws {
        let names = ["ttl_window_uploads_normal", "ttl_window_uploads_confirm", "ttl_window_uploads_resend",
                     "ttl_window_rebuilt", "ttl_window_rebuilt_resend", "ttl_window_reuploads"]
        let r = try Self.run(#""series": {"every": "1h", "metrics": [\#(names.map { "\"\($0)\"" }.joined(separator: ", "))]}, "churn": {"windows": [{"device": 2, "start": "20min", "end": "2h"}]}"#,
                             protocol: #"{"confirm": {"period": "50min"}}"#)
        #expect(r.series.count == 3)
        let column = { (i: Int) in r.series.map { $0[i] }.reduce(0, +) }
        #expect(column(0) + column(1) + column(2) == Self.metric(r, "messages_uploaded"))
        #expect(column(1) == Self.metric(r, "confirms_uploaded") && column(1) > 0)
        #expect(column(3) == Self.metric(r, "messages_rebuilt") && column(5) == Self.metric(r, "reuploads"))
        #expect(r.series[0][0] == 2, "both writes are in the first hour")
    }

    static func parameters(_ model: EquationAssumptions, offline: Double) -> EquationParameters {
        var p = EquationParameters()
        p.devices = 4; p.updatesPerDevice = 6; p.confirms = 2; p.offline = offline; p.offlineTime = .hours(12)
        p.model = model
        return p
    }

    /// The scenario an equations replication runs is a scenario file: written out
    /// (`--write-scenario`) and read back it is the same scenario, and running it with the
    /// replication's seed gives the replication's window counts.
    @Test(arguments: [(EquationAssumptions.thesis, 2.0), (.protocol, 2.0), (.protocol, 0.0)])
    func anEquationsReplicationIsAScenarioFile(_ model: EquationAssumptions, _ offline: Double) throws {
        let p = Self.parameters(model, offline: offline)
        let seed: UInt64 = 9, warmUp = 2, measured = 3, end = Int64(warmUp + measured) * p.ttl.nanoseconds
        let spec = try ThesisEquations.scenario(p, ThesisEquations.schedule(p, end: end, seed: seed),
                                                windows: warmUp + measured, warmUp: warmUp)
        #expect(!spec.workload.writes.isEmpty && spec.schedule.isEmpty == (offline == 0))
        let text = JSONWriter.pretty(spec.resolvedJSON)
        let reread = try ScenarioLoader.load(ScenarioSource(label: "eq.json", text: text)).base
        // The resolved file lists the members ({1…D}) where the built scenario leaves them implicit.
        #expect(JSONWriter.pretty(reread.resolvedJSON) == text)
        var implicit = reread
        implicit.group.members = nil
        #expect(implicit == spec)
        let outcome = try GrouperExecutor().execute(ResolvedRun(index: 0, point: 0, replication: 0, seed: seed, spec: reread,
                                                                assignments: []))
        let direct = try ThesisEquations.simulate(p, seed: seed, warmUp: warmUp, measured: measured)
        #expect(ThesisEquations.counts(p, outcome.series[warmUp...]) == direct.windows)
        #expect(direct.windows.allSatisfy { $0[0] > 0 })
    }

    /// `equations --write-scenario FILE` writes a new scenario file and runs nothing; `run`
    /// accepts it and writes its per-window counts; an existing file or `--ablation` is refused (exit 2).
    @Test func writeScenarioThroughTheCLI() throws {
        let dir = ScenarioFixtures.tempDir("equations-scenario")
        let file = dir.appendingPathComponent("eq.json").path
        let args = ["equations", "--model", "thesis", "--D", "4", "--U", "6", "--F", "2", "--L", "12h"]
        let written = runCLI(args + ["--write-scenario", file])
        #expect(written.code == 0, "\(written.err)")
        #expect(written.out.contains("run it with: grouper-sim run \(file)"))
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("\"schedule\"") && text.contains("\"do\": \"resend\"") && text.contains("\"aligned_sweeps\": true"))
        let out = dir.appendingPathComponent("out").path
        let ran = runCLI(["run", file, "--out", out, "--jobs", "1"])
        #expect(ran.code == 0, "\(ran.err)")
        let series = try String(contentsOfFile: out + "/series.csv", encoding: .utf8)
        #expect(series.contains("ttl_window_reuploads"))
        let again = runCLI(args + ["--write-scenario", file])
        #expect(again.code == 2 && again.err.contains("exists; nothing was written"))
        let ablation = runCLI(args + ["--ablation", "--write-scenario", dir.appendingPathComponent("b.json").path])
        #expect(ablation.code == 2 && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("b.json").path))
    }
}
