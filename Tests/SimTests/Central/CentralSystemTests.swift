import Testing
import SimKernel
@testable import GrouperModel

@Suite struct CentralSystemTests {
    func at(_ minutes: Int64) -> SimTime { SimTime.zero + .minutes(minutes) }

    func system(devices: Int = 3, retention: SimDuration? = nil) throws -> CentralSystem {
        var c = CentralConfig(devices: devices, seed: 4)
        c.retention = retention
        return try CentralSystem(config: c)
    }

    /// An online receiver gets the file at once (push); an offline one when it returns, hours
    /// later (no TTL). The file stays on the server until the last receiver acknowledged it.
    @Test func offlineReceiverGetsFileWhenBack() throws {
        let s = try system()
        s.setOnline(false, device: 2, at: at(0))
        s.update(device: 0, objectID: "o", size: 500, at: at(1))
        s.run(until: at(5))
        #expect(s.objects(device: 1).map(\.id) == ["o"])
        #expect(s.objects(device: 2).isEmpty)
        #expect(s.store.files.count == 1 && s.store.files[0].references == 1)
        #expect(s.store.outbox.map(\.status) == [.delivered, .unattended])
        s.setOnline(true, device: 2, at: at(600))
        s.run(until: at(605))
        #expect(s.objects(device: 2).map(\.id) == ["o"])
        #expect(s.store.outbox.map(\.status) == [.delivered, .delivered])
        #expect(s.store.files.isEmpty)
        #expect(s.check().passed)
        #expect(s.deliveryRatio == 1)
    }

    /// Two versions of one object while a receiver is offline: it declines the older and
    /// fetches the newer; both files are deleted.
    @Test func supersededTransferIsDeclined() throws {
        let s = try system()
        s.setOnline(false, device: 2, at: at(0))
        s.update(device: 0, objectID: "o", size: 500, at: at(1))
        s.update(device: 0, objectID: "o", size: 600, at: at(2))
        s.setOnline(true, device: 2, at: at(30))
        s.run(until: at(40))
        let toD2 = s.store.outbox.filter { $0.to == 2 }
        #expect(toD2.map(\.status) == [.declined, .delivered])
        #expect(s.declinedTransfers == 1 && s.counters.fetched == 3)
        #expect(s.store.files.isEmpty)
        #expect(s.check().passed)
    }

    /// A retention limit gives up on a receiver that stays away too long: its transfer stays
    /// `unattended`, expires, and the convergence checker names the cause.
    @Test func retentionExpiresUnattendedTransfer() throws {
        let s = try system(retention: .hours(2))
        s.setOnline(false, device: 2, at: at(0))
        s.update(device: 0, objectID: "o", size: 500, at: at(1))
        s.setOnline(true, device: 2, at: at(300))
        s.run(until: at(310))
        #expect(s.expiredTransfers == 1)
        let t = s.store.outbox.first { $0.to == 2 }!
        #expect(t.status == .unattended && t.expired)
        #expect(s.store.files.isEmpty)
        let found = s.checkConvergence()
        #expect(found.count == 1 && found[0].message.contains("retention limit expired"))
    }

    /// A restart without data loses the undelivered file: counted, and the convergence checker
    /// catches the loss. With its data kept, the same run converges.
    @Test(arguments: [false, true])
    func restartLossIsCaught(keepData: Bool) throws {
        let s = try system()
        s.setOnline(false, device: 2, at: at(0))
        s.update(device: 0, objectID: "o", size: 500, at: at(1))
        s.restartServer(keepData: keepData, at: at(10))
        s.setOnline(true, device: 2, at: at(20))
        s.run(until: at(30))
        let found = s.checkConvergence()
        if keepData {
            #expect(found.isEmpty && s.transfersLostInRestart == 0)
        } else {
            #expect(s.transfersLostInRestart == 1)
            #expect(found.count == 1 && found[0].message.contains("restarted without its data"))
            #expect(s.objects(device: 2).isEmpty)
        }
    }

    /// A refusing server: the upload waits in the sender's queue and goes when it is back.
    @Test func refusedUploadIsRetried() throws {
        let s = try system(devices: 2)
        s.setServerState(.refusing, at: at(0))
        s.update(device: 0, objectID: "o", size: 100, at: at(1))
        s.setServerState(.up, at: at(20))
        s.run(until: at(15))
        #expect(s.unsentMessages == 1 && s.uploadFailures >= 1)
        s.run(until: at(60))
        #expect(s.unsentMessages == 0 && s.objects(device: 1).map(\.id) == ["o"])
    }

    @Test func sameSeedSameFingerprint() throws {
        func run() throws -> String {
            let s = try system(devices: 4)
            for i in 0..<20 { s.update(device: i % 4, objectID: "o\(i % 3)", size: 100 + i, at: at(Int64(i))) }
            s.setOnline(false, device: 3, at: at(5)); s.setOnline(true, device: 3, at: at(50))
            s.run(until: at(120))
            #expect(s.check().passed)
            return s.fingerprint.hex
        }
        #expect(try run() == run())
    }

    @Test func badRetentionIsRejected() {
        var c = CentralConfig(devices: 2)
        c.retention = .zero
        #expect(throws: SystemConfigError.self) { try CentralSystem(config: c) }
    }
}
