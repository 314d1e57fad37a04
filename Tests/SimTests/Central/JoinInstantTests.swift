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

/// A write at the very instant another device joins, on both architectures. At one instant a
/// write comes before the invitation (scheduling order), so a write then is addressed to the
/// members without the invitee, and the invitee's own write then is dropped (it is not a member
/// yet). The checkers must agree with that order: Grouper's invitee recovers the member's write
/// through gap detection; central addresses it to the members at that moment and expects it at
/// exactly those devices. 1 ns before, at, and 1 ns after the join.
@Suite struct JoinInstantTests {
    static func run(_ arch: String, member: String, invitee: String) throws -> (code: Int32, uploaded: Double, converged: Double) {
        let text = """
        {"format": 1, "name": "join-\(arch)", "duration": "6h", "settle": "3h", "architecture": "\(arch)",
         "group": {"devices": 3, "k": 1, "n": 1, "s": 1, "ttl": "1h", "members": [1, 2],
                   "invite": [{"device": 3, "at": "1h", "by": 1}]},
         "workload": {"writes": [{"device": 2, "at": "\(member)", "object": 1, "size": 100},
                                 {"device": 3, "at": "\(invitee)", "object": 0, "size": 100}]},
         "metrics": ["converged", "updates_uploaded"]}
        """
        let spec = try ScenarioLoader.load(ScenarioSource(label: "j.json", text: text)).base
        let run = ResolvedRun(index: 0, point: 0, replication: 0, seed: 1, spec: spec, assignments: [])
        let o = try GrouperExecutor().execute(run)
        let m = Dictionary(uniqueKeysWithValues: o.metrics.map { ($0.name, $0.value) })
        let failed = o.checkers.contains { !$0.passed }
        return (failed ? 4 : 0, m["updates_uploaded"]!, m["converged"]!)
    }

    @Test(arguments: ["grouper", "central"])
    func aMembersWriteAtTheJoinInstantIsExpectedWhereItWasAddressed(_ arch: String) throws {
        for at in ["3599999999999ns", "1h", "3600000000001ns"] {
            let r = try Self.run(arch, member: at, invitee: "2h")
            #expect(r.code == 0 && r.converged == 1, "\(arch): member's write at \(at)")
        }
    }

    @Test(arguments: ["grouper", "central"])
    func theInviteesWriteAtTheJoinInstantComesBeforeItJoins(_ arch: String) throws {
        let before = try Self.run(arch, member: "2h", invitee: "3599999999999ns")
        let at = try Self.run(arch, member: "2h", invitee: "1h")
        let after = try Self.run(arch, member: "2h", invitee: "3600000000001ns")
        #expect(before.uploaded == 1 && at.uploaded == 1 && after.uploaded == 2, "\(arch): \(before), \(at), \(after)")
        #expect(before.code == 0 && at.code == 0 && after.code == 0)
    }
}
