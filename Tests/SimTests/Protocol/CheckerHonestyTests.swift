import Testing
import SimKernel
@testable import GrouperModel

/// Checkers that cannot pass vacuously (issue #17): members-to-be, no writes, down servers,
/// what a device could fetch, what is left to send, the real cause of a loss, one notion of
/// the final version, and every message delivered.
@Suite struct CheckerHonestyTests {
    static func at(_ minutes: Int, _ seconds: Int = 0) -> SimTime {
        SimTime.zero + .minutes(Int64(minutes)) + .seconds(Int64(seconds))
    }

    static func config(devices: Int = 3, variant: ProtocolVariant = .thesis) -> SystemConfig {
        var c = SystemConfig(devices: devices, threshold: .f233, ttl: .minutes(10), variant: variant)
        c.receive = ReceivePolicy(onPush: true, pullPeriod: .minutes(2), onReconnect: true)
        c.resendRetry = .minutes(2)
        return c
    }

    @Test func memberToBeOutsideTheGroupIsAFindingUntilTheOwnerIsBack() throws {
        var c = Self.config()
        c.initialMembers = 2
        let system = try GrouperSystem(config: c)
        system.setOnline(false, device: 0, at: Self.at(1))
        system.invite(device: 2, at: Self.at(2))
        system.update(device: 1, objectID: "a", size: 20, at: Self.at(3))
        system.run(until: Self.at(10))
        let outside = system.check().findings(of: .convergence).filter { $0.message.contains("D3 is outside the group") }
        #expect(outside.count == 1 && outside[0].message.contains("offline"), "\(system.check().findings)")
        #expect(!system.isMember(device: 2))
        // The owner comes back: the postponed invitation is made, and D2 catches up.
        system.setOnline(true, device: 0, at: Self.at(11))
        system.run(until: Self.at(30))
        #expect(system.isMember(device: 2))
        #expect(system.objects(device: 2).map(\.id) == ["a"])
        #expect(system.check().passed, "\(system.check().findings)")
    }

    @Test func aRunWithoutWritesHasNothingToCheck() throws {
        let system = try GrouperSystem(config: Self.config())
        system.run(until: Self.at(20))
        let report = system.check()
        #expect(report.nothingToCheck && report.passed)
        #expect(system.deliveryRatio == nil)
        system.update(device: 1, objectID: "a", size: 20, at: Self.at(21))
        system.run(until: Self.at(30))
        #expect(!system.check().nothingToCheck && system.deliveryRatio == 1)
    }

    @Test func ttlCheckerLooksAtDownServersToo() throws {
        let system = try GrouperSystem(config: Self.config())
        system.update(device: 1, objectID: "a", size: 20, at: Self.at(0, 5))
        system.setServerState(.blackhole, server: 1, at: Self.at(1))
        system.setServerState(.refusing, server: 2, at: Self.at(1))
        system.run(until: Self.at(30))
        // Down is unreachable, not stopped: both deleted the share on time.
        #expect(system.serverSnapshot(1).shares.isEmpty && system.serverSnapshot(2).shares.isEmpty)
        #expect(system.check().findings(of: .ttl).isEmpty)
        // A blackholed server that never sweeps is caught although it is down.
        let canary = try GrouperSystem(config: Self.config())
        canary.world.serverNodes[1].sweepEnabled = false
        canary.update(device: 1, objectID: "a", size: 20, at: Self.at(0, 5))
        canary.setServerState(.blackhole, server: 1, at: Self.at(1))
        canary.run(until: Self.at(30))
        let ttl = canary.check().findings(of: .ttl)
        #expect(!ttl.isEmpty && ttl.allSatisfy { $0.message.contains("server 2 ") }, "\(ttl)")
    }

    @Test func findingsCountOnlyTheSharesTheDeviceCouldFetch() throws {
        // D1 and D2 miss a message past its TTL; D1 is served a unicast copy first. D2 cannot
        // fetch that copy, so "servers still hold it" must not count it.
        let system = try GrouperSystem(config: Self.config())
        system.setOnline(false, device: 1, at: .zero)
        system.setOnline(false, device: 2, at: .zero)
        system.update(device: 0, objectID: "a", size: 20, at: Self.at(0, 5))
        system.setOnline(true, device: 1, at: Self.at(15))
        system.confirm(device: 0, at: Self.at(16))
        system.run(until: Self.at(20))
        #expect(system.objects(device: 1).map(\.id) == ["a"])
        system.setOnline(true, device: 2, at: Self.at(20))
        system.run(until: Self.at(20) + .nanoseconds(1_000_000))  // before D2's first round ends
        let f = system.check().findings(of: .convergence).filter { $0.message.hasPrefix("D3 lacks") }
        #expect(f.count == 1 && f[0].message.contains("(0 servers still hold it)"), "\(f)")
    }

    @Test func lossInADataLosingRestartIsNamed() throws {
        let system = try GrouperSystem(config: Self.config(variant: .noRecovery))
        system.setOnline(false, device: 1, at: .zero)
        system.update(device: 0, objectID: "a", size: 20, at: Self.at(0, 5))
        for j in 0..<3 { system.restartServer(j, keepData: false, at: Self.at(2)) }
        system.setOnline(true, device: 1, at: Self.at(4))
        system.run(until: Self.at(6))
        let f = system.check().findings(of: .convergence).filter { $0.message.hasPrefix("D2 lacks") }
        #expect(f.count == 1 && f[0].message.contains("dropped by a data-losing restart of servers 1, 2, 3"), "\(f)")
        #expect(!f[0].message.contains("TTL"))
    }

    @Test func convergenceAndDeliveryRatioShareTheFinalVersion() throws {
        // D1 holds an older delete marker; the final write is a newer delete it never got.
        let system = try GrouperSystem(config: Self.config(devices: 2, variant: .noRecovery))
        system.update(device: 0, objectID: "a", size: 20, at: Self.at(0, 5))
        system.delete(device: 0, objectID: "a", at: Self.at(0, 10))
        system.setOnline(false, device: 1, at: Self.at(2))
        system.update(device: 0, objectID: "a", size: 20, at: Self.at(3))
        system.delete(device: 0, objectID: "a", at: Self.at(4))
        system.setOnline(true, device: 1, at: Self.at(20))
        system.run(until: Self.at(25))
        let report = system.check()
        #expect(report.findings(of: .convergence).isEmpty && system.deliveryRatio == 1, "\(report.findings)")
        // The two writes D1 never handled are the delivery checker's.
        let missed = report.findings(of: .delivery)
        #expect(missed.count == 1 && missed[0].messageIDs == Array(system.writes[2...3].map(\.messageID)))
    }

    @Test func deliveryCatchesLostIntermediateWritesThatConvergenceHides() throws {
        let system = try GrouperSystem(config: Self.config(devices: 2, variant: .noRecovery))
        system.setOnline(false, device: 1, at: Self.at(1))
        for (i, m) in [2, 3, 4].enumerated() {
            system.update(device: 0, objectID: "hot", size: 20 + i, at: Self.at(m))
        }
        system.setOnline(true, device: 1, at: Self.at(20))
        system.update(device: 0, objectID: "hot", size: 30, at: Self.at(21))
        system.run(until: Self.at(30))
        let report = system.check()
        #expect(report.findings(of: .convergence).isEmpty, "newest version wins hides the loss")
        let missed = report.findings(of: .delivery)
        #expect(missed.count == 1 && missed[0].messageIDs == system.writes[0...2].map(\.messageID))
        #expect(missed[0].message.contains("deleted by the servers' TTL"))
        // The thesis variant recovers them all.
        var c = Self.config(devices: 2)
        c.confirm = ConfirmPolicy(period: .minutes(10), onReconnect: true)
        let thesis = try GrouperSystem(config: c)
        thesis.setOnline(false, device: 1, at: Self.at(1))
        for (i, m) in [2, 3, 4].enumerated() { thesis.update(device: 0, objectID: "hot", size: 20 + i, at: Self.at(m)) }
        thesis.setOnline(true, device: 1, at: Self.at(20))
        thesis.update(device: 0, objectID: "hot", size: 30, at: Self.at(21))
        thesis.run(until: Self.at(40))
        #expect(thesis.check().passed, "\(thesis.check().findings)")
    }

    /// A batch that can never get through in one request timeout is retried in halves.
    @Test(.tags(.slow)) func timedOutBatchShrinksAndNothingIsLeftToSend() throws {
        func run(_ variant: ProtocolVariant) throws -> GrouperSystem {
            var c = Self.config(devices: 2, variant: variant)
            c.ttl = .hours(2)
            c.network.bytesPerSecond = 20_000
            let system = try GrouperSystem(config: c)
            for i in 0..<20 { system.update(device: 0, objectID: "big\(i)", size: 40_000, at: Self.at(0, 1)) }
            system.run(until: Self.at(90))
            return system
        }
        let thesis = try run(.thesis)
        #expect(thesis.log.contains { $0.text.contains("batch of 19 timed out; next batches ≤ 9") })
        #expect(thesis.check().passed, "\(thesis.check().findings)")
        // As-built repeats the whole batch: the outbox checker names what is stuck.
        let asBuilt = try run(.asBuilt)
        let stuck = asBuilt.check().findings(of: .outbox)
        #expect(stuck.count == 1 && stuck[0].message.hasPrefix("D1 ") && stuck[0].messageIDs.count == 19, "\(stuck)")
    }
}
