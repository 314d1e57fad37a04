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
@testable import Experiments
@testable import Explore

/// `messages_unrecoverable` counts what a member needed (issue 26 item 13), on a case worked by
/// hand. f(2,3,3) with `check`: server 1 tampers with every share, so every receiver holds three
/// shares that disagree and can rebuild nothing. Device 1 writes twice and confirms every TTL
/// (30 min) from then on; devices 2 and 3 never write (so never confirm).
/// Needed by each of devices 2 and 3: both updates (never handled) and device 1's newest confirm
/// (it announces sequence 2, which they lack): 2 × (2 + 1) = 6. Every older confirm is
/// superseded by that one and is not counted, though it stays unrebuilt too.
@Suite struct UnrecoverableMetricTests {
    static let text = """
    {"format": 1, "name": "unrecoverable", "seed": 5, "duration": "3h",
     "group": {"devices": 3, "k": 2, "n": 3, "s": 3, "ttl": "30min"},
     "protocol": {"rebuild": "check"},
     "workload": {"writers": [1], "writes": [{"device": 1, "at": "5min", "object": 1, "size": 100},
                                            {"device": 1, "at": "10min", "object": 2, "size": 100}]},
     "faults": [{"kind": "tamper", "servers": [1], "fraction": 1}],
     "metrics": ["messages_unrecoverable", "confirms_uploaded", "updates_uploaded", "tamper_detected", "delivery_ratio"]}
    """

    @Test func countsOnlyWhatAMemberNeeded() throws {
        let s = try ScenarioLoader.load(ScenarioSource(label: "unrecoverable.json", text: Self.text))
        let m = Dictionary(uniqueKeysWithValues: try GrouperExecutor().execute(RunPlan(s).runs[0]).metrics.map { ($0.name, $0.value) })
        #expect(m["updates_uploaded"] == 2 && m["delivery_ratio"] == 1.0 / 3, "only the writer holds the objects: \(m)")
        let confirms = try #require(m["confirms_uploaded"])
        #expect(confirms >= 3, "several confirms, all but the newest superseded: \(m)")
        // Every uploaded message is held unrebuilt by both receivers (tamper_detected counts them) …
        #expect(m["tamper_detected"] == 2 * (2 + confirms), "\(m)")
        // … but each needs only the two updates and the newest confirm.
        #expect(m["messages_unrecoverable"] == 6, "\(m)")
    }

    /// The confirm rule at its boundary: server 1 tampers only from 20 min on, so both receivers
    /// get the two updates intact (their contiguous sequence is 2) and then hold every confirm
    /// unrebuilt. Each announces sequence 2, which they already have: nothing needed, 0.
    @Test func confirmAnnouncingWhatTheMemberHasIsNotNeeded() throws {
        let text = Self.text.replacingOccurrences(of: #""fraction": 1}"#,
                                                  with: #""fraction": 1, "window": {"start": "20min", "end": "3h"}}"#)
        let s = try ScenarioLoader.load(ScenarioSource(label: "unrecoverable.json", text: text))
        let m = Dictionary(uniqueKeysWithValues: try GrouperExecutor().execute(RunPlan(s).runs[0]).metrics.map { ($0.name, $0.value) })
        let confirms = try #require(m["confirms_uploaded"])
        #expect(m["delivery_ratio"] == 1 && confirms >= 3, "\(m)")
        #expect(m["tamper_detected"] == 2 * confirms, "every confirm unrebuilt on both receivers: \(m)")
        #expect(m["messages_unrecoverable"] == 0, "\(m)")
    }
}
