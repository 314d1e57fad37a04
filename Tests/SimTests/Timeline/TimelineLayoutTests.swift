import Foundation
import Testing
@testable import Scenarios
@testable import Format
@testable import Catalogs
@testable import ScenarioFile
@testable import Plan
@testable import Execution
@testable import GrouperBinding
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore
@testable import Timelines
import SimKernel
@testable import GrouperModel

/// The timeline's layout data (`TimelineRecorder`, `TimelineLayout`) on small runs whose story
/// is known by hand (docs/timeline.md).
@Suite struct TimelineLayoutTests {
    static let min: Int64 = 60_000_000_000

    /// D1 writes o1 at 10 min and o2 at 35 min; D2 is away from 5 min to 2 h; S1 refuses
    /// connections from 30 to 40 min; TTL 1 h, aligned 60 s sweeps, no confirms, polls once a
    /// day: o1's only share is deleted at the first sweep after 1 h 10 min, before D2 is back,
    /// and nothing tells D2 about it, so convergence finds D2 lacking it at the end (3 h).
    static let lossText = """
        {"format": 1, "name": "tl-loss", "seed": 5, "duration": "3h",
         "group": {"devices": 2, "k": 1, "n": 1, "s": 1, "ttl": "1h", "sweep_period": "60s", "aligned_sweeps": true},
         "protocol": {"confirm": {"policy": "never"}, "receive": {"policy": "poll", "poll_period": "1d"}},
         "workload": {"objects": 3, "object_size": 16,
                      "writes": [{"device": 1, "at": "10min", "object": 1}, {"device": 1, "at": "35min", "object": 2}]},
         "schedule": [{"at": "5min", "device": 2, "do": "offline"}, {"at": "2h", "device": 2, "do": "online"}],
         "faults": [{"servers": [1], "kind": "refuse", "window": {"start": "30min", "end": "40min"}}],
         "metrics": ["messages_uploaded"], "require": []}
        """

    static func record(_ text: String) throws -> TimelineRecording {
        let loaded = try ScenarioLoader.load(ScenarioSource(label: "t.json", text: text))
        return try TimelineRun.record(loaded.pointSpecs[0], point: 0, replication: 0)
    }

    @Test func lanesBandsSpansAndFindingOfALoss() throws {
        let r = try Self.record(Self.lossText)
        #expect(r.lanes.map(\.name) == ["D1", "D2", "S1"])
        // Bands: D2 offline exactly [5 min, 2 h); S1 refusing exactly [30 min, 40 min).
        let offline = r.bands.filter { $0.kind == .offline }
        #expect(offline.map(\.lane) == [1] && offline.map(\.start) == [5 * Self.min] && offline.map(\.end) == [120 * Self.min])
        let refusing = r.bands.filter { $0.kind == .refusing }
        #expect(refusing.map(\.lane) == [2] && refusing.map(\.start) == [30 * Self.min] && refusing.map(\.end) == [40 * Self.min])
        // o1's share: put just after 10 min, deleted by the TTL sweep in (1 h 10 min, 1 h 11 min].
        let o1 = r.spans.filter { $0.object == "o1" && $0.type == "update" }
        try #require(o1.count == 1)
        #expect(o1[0].lane == 2 && o1[0].sender == 0 && o1[0].sequence == 1 && o1[0].receiver == nil)
        #expect(o1[0].start > 10 * Self.min && o1[0].start < 10 * Self.min + 1_000_000_000)
        #expect(o1[0].endReason == .ttl && o1[0].end > 70 * Self.min && o1[0].end <= 71 * Self.min)
        // The write of o2 at 35 min meets a refusing server: a refused put, then a stored one later.
        let puts = r.arrows.filter { $0.endpoint == .put && $0.device == 0 }
        #expect(puts.contains { $0.outcome == .refused && $0.sent >= 35 * Self.min && $0.sent < 40 * Self.min })
        #expect(puts.contains { $0.outcome == .ok && $0.objects == ["o2"] && $0.sent >= 40 * Self.min })
        #expect(!r.arrows.contains { $0.sent >= 30 * Self.min && $0.arrived < 40 * Self.min && $0.server == 2 && $0.outcome == .ok })
        // The finding: on D2's lane when o1's only share was deleted (the moment it was lost, not
        // the run's end), about o1's message, numbered from 1 in its text.
        let findings = r.markers.filter { $0.kind == .finding }
        try #require(!findings.isEmpty)
        #expect(findings[0].lane == 1 && findings[0].time == o1[0].end && findings[0].label == "convergence")
        #expect(findings[0].text.hasPrefix("D2 lacks update of o1 by D1"))
        #expect(findings[0].messageIDs == [o1[0].messageID])
        // Writes are markers on D1's lane at their times.
        #expect(r.markers.filter { $0.kind == .write }.map(\.time) == [10 * Self.min, 35 * Self.min])
    }

    /// The default window starts one TTL before the first item of the first finding's message
    /// (clamped at 0) and ends at the end of the run; a run without findings shows it whole.
    @Test func defaultWindowFollowsTheFirstFinding() throws {
        var r = try Self.record(Self.lossText)
        let first = r.arrows.filter { $0.messageIDs.contains(r.markers.first { $0.kind == .finding }!.messageIDs[0]) }.map(\.sent).min()!
        r.ttl = 5 * Self.min
        let w = TimelineLayout.defaultWindow(r)
        #expect(w.from == first - 5 * Self.min && w.to == 180 * Self.min)
        r.ttl = 60 * Self.min
        #expect(TimelineLayout.defaultWindow(r).from == 0)
        r.markers.removeAll { $0.kind == .finding }
        #expect(TimelineLayout.defaultWindow(r).from == 0 && TimelineLayout.defaultWindow(r).to == r.end)
    }

    /// Filters and the window: --devices keeps server lanes; --objects keeps only that object's
    /// requests and shares; a window drops what lies outside it.
    @Test func filtersAndWindow() throws {
        let r = try Self.record(Self.lossText)
        var o = TimelineOptions()
        o.devices = [1]
        let d2 = TimelineLayout.layout(r, o)
        #expect(d2.lanes.map { r.lanes[$0].name } == ["D2", "S1"])
        #expect(d2.arrows.allSatisfy { $0.device == 1 } && !d2.arrows.isEmpty)
        o = TimelineOptions()
        o.objects = ["o2"]
        let only = TimelineLayout.layout(r, o)
        #expect(!only.spans.isEmpty && only.spans.allSatisfy { $0.object == "o2" })
        #expect(only.arrows.allSatisfy { $0.objects.contains("o2") })
        o = TimelineOptions()
        o.from = 20 * Self.min; o.to = 50 * Self.min
        let w = TimelineLayout.layout(r, o)
        #expect(w.from == 20 * Self.min && w.to == 50 * Self.min)
        #expect(w.bands.contains { $0.kind == .refusing } && w.markers.filter { $0.kind == .write }.map(\.time) == [35 * Self.min])
        #expect(w.arrows.allSatisfy { ($0.answered ?? $0.arrived) >= 20 * Self.min && $0.sent <= 50 * Self.min })
    }

    /// Caps: what does not fit is counted into aggregates (every item once) and a note says so;
    /// at the cap itself nothing is aggregated.
    @Test func capsAggregateAndSaySo() throws {
        let r = try Self.record(Self.lossText)
        let all = TimelineLayout.layout(r, { var o = TimelineOptions(); o.from = 0; return o }())
        let n = all.arrows.count
        try #require(n > 3)
        var o = TimelineOptions()
        o.from = 0; o.maxArrows = n
        let exact = TimelineLayout.layout(r, o)
        #expect(exact.arrows.count == n && exact.aggregates.isEmpty && exact.notes.isEmpty)
        o.maxArrows = n - 1
        let capped = TimelineLayout.layout(r, o)
        #expect(capped.arrows.count == n - 1)
        #expect(capped.aggregates.filter { $0.what == "requests" }.reduce(0) { $0 + $1.count } == 1)
        #expect(capped.notes.count == 1 && capped.notes[0].hasPrefix("1 of \(n) requests"))
        // Bands likewise: D2's offline period and S1's refusal.
        var b = TimelineOptions()
        b.from = 0; b.maxBands = 2
        #expect(TimelineLayout.layout(r, b).bands.count == 2 && TimelineLayout.layout(r, b).notes.isEmpty)
        b.maxBands = 1
        #expect(TimelineLayout.layout(r, b).bands.count == 1 && TimelineLayout.layout(r, b).notes.count == 1)
        // The finding's message's requests are kept first.
        let ids = Set(r.markers.filter { $0.kind == .finding }.flatMap(\.messageIDs))
        o.maxArrows = 1
        #expect(TimelineLayout.layout(r, o).arrows.allSatisfy { $0.messageIDs.contains(where: ids.contains) })
    }

    /// Spans that overlap on a lane get different rows; one that starts when another ended
    /// reuses its row.
    @Test func spanRows() {
        func s(_ a: Int64, _ b: Int64, lane: Int = 2) -> TimelineSpan {
            TimelineSpan(lane: lane, shareID: 0, messageID: "m", type: "update", sender: 0, sequence: 1, object: "o",
                         receiver: nil, start: a, end: b, endReason: .ttl)
        }
        #expect(TimelineLayout.rows([s(0, 10), s(5, 20), s(10, 30), s(0, 10, lane: 3), s(21, 22)]) == [0, 1, 0, 0, 1])
    }

    static let resendText = """
        {"format": 1, "name": "tl-resend", "seed": 5, "duration": "4h",
         "group": {"devices": 2, "k": 1, "n": 1, "s": 1, "ttl": "1h", "sweep_period": "60s", "aligned_sweeps": true},
         "workload": {"objects": 3, "object_size": 16,
                      "writes": [{"device": 1, "at": "10min", "object": 1}, {"device": 1, "at": "150min", "object": 2}]},
         "schedule": [{"at": "5min", "device": 2, "do": "offline"}, {"at": "2h", "device": 2, "do": "online"}],
         "metrics": ["messages_uploaded"], "require": []}
        """

    /// D2 misses o1 while away (its share is deleted); D1's write of o2 after D2 is back shows
    /// the gap; D2's resend request is answered by a re-upload of o1 to D2, which the timeline
    /// links, and D2 converges.
    @Test func resendLinkedToReupload() throws {
        let text = Self.resendText
        let r = try Self.record(text)
        try #require(!r.links.isEmpty)
        let l = r.links[0]
        let request = r.arrows[l.from], answer = r.arrows[l.to]
        #expect(request.device == 1 && request.endpoint == .put && request.type == "resend")
        #expect(answer.device == 0 && answer.endpoint == .put && answer.reupload && answer.sent > request.sent)
        let o1 = r.spans.first { $0.object == "o1" && $0.receiver == nil }!
        #expect(answer.messageIDs.contains(o1.messageID))
        #expect(r.spans.contains { $0.messageID == o1.messageID && $0.receiver == "D2" && $0.start > request.sent })
        #expect(l.detail == "D2 asked D1 to resend 1-1")
        #expect(!r.markers.contains { $0.kind == .finding })
    }

    /// A multicast re-upload is a copy under a new message id: its shares are still drawn as
    /// the message they copy (type, sender, sequence, object) and its put as a re-upload.
    @Test func multicastReuploadCopiesKeepTheirMessage() throws {
        let text = Self.resendText.replacingOccurrences(of: "\"require\": []",
                                                        with: "\"require\": [], \"protocol\": {\"recovery\": {\"multicast_reuploads\": true}}")
        let r = try Self.record(text)
        let o1 = r.spans.filter { $0.object == "o1" }
        #expect(Set(o1.map(\.messageID)).count >= 2, "the original and its copy")
        #expect(r.spans.allSatisfy { !$0.type.isEmpty })
        #expect(r.arrows.contains { $0.endpoint == .put && $0.reupload && $0.objects == ["o1"] && $0.type == "update" })
    }

    /// Watching a run changes nothing in it: the same fingerprint and checker verdicts.
    @Test func observingChangesNothing() throws {
        let loaded = try ScenarioLoader.load(ScenarioSource(label: "t.json", text: Self.resendText))
        let run = RunPlan(loaded).runs[0]
        let plain = try GrouperExecutor().execute(run)
        let recorder = TimelineRecorder(scenario: "t", point: 0, replication: 0, seed: run.seed, end: 0, sharing: "", ttl: 0)
        var watched = GrouperExecutor()
        watched.onSystem = { recorder.attach($0) }
        let seen = try watched.execute(run)
        #expect(!recorder.rec.arrows.isEmpty)
        #expect(plain.fingerprint == seen.fingerprint && plain.checkers == seen.checkers)
    }

    @Test func numbersInFindings() {
        #expect(TimelineRecorder.firstNumber(after: "D", in: "OD3 then D4") == 4)
        #expect(TimelineRecorder.firstNumber(after: "server ", in: "servers 2, 3 and server 4") == 4)
    }

    /// A finding's moment: when the last share of its first message was gone if none was left
    /// at the end; when the first was stored if one was; the run's end without a stored message.
    @Test func findingsSitAtTheMomentTheyConcern() {
        let r = TimelineRecorder(scenario: "m", point: 0, replication: 0, seed: 1, end: 1000, sharing: "k=1 n=2 s=2", ttl: 100)
        func span(_ id: String, _ start: Int64, _ end: Int64, _ why: TimelineSpan.End) -> TimelineSpan {
            TimelineSpan(lane: 2, shareID: 0, messageID: id, type: "update", sender: 0, sequence: 1, object: "o1", receiver: nil,
                         start: start, end: end, endReason: why)
        }
        r.rec.spans = [span("lost", 10, 110, .ttl), span("lost", 12, 300, .restart), span("held", 20, 120, .ttl),
                       span("held", 25, 1000, .runEnd)]
        func finding(_ ids: [String]) -> CheckFinding {
            CheckFinding(checker: .convergence, kind: .liveness, message: "D2 lacks …", messageIDs: ids)
        }
        #expect(r.moment(finding(["lost"])) == 300)
        #expect(r.moment(finding(["held", "lost"])) == 20)
        #expect(r.moment(finding(["never-stored"])) == 1000 && r.moment(finding([])) == 1000)
        #expect(r.marker(finding(["lost"])).time == 300)
    }
}
