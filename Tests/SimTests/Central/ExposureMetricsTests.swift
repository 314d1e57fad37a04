import Testing
import SimKernel
@testable import GrouperModel

/// Exposure and storage observations on small runs checked by hand (issue #10).
@Suite struct ExposureMetricsTests {
    func at(_ minutes: Int64) -> SimTime { SimTime.zero + .minutes(minutes) }

    /// Central: one 500-byte file for D1 (online) and D2 (offline until minute 61). The server
    /// holds it from about minute 1 to about minute 61: one exposed message, ~3600 s, 500 bytes
    /// at most, ~250 bytes on average over two hours.
    @Test func centralExposureByHand() throws {
        let s = try CentralSystem(config: CentralConfig(devices: 3, seed: 2))
        s.setOnline(false, device: 2, at: at(0))
        s.update(device: 0, objectID: "o", size: 500, at: at(1))
        s.setOnline(true, device: 2, at: at(61))
        s.run(until: at(120))
        #expect(s.store.files.isEmpty)
        #expect(s.plaintextExposedMessages == 1)
        #expect(abs(s.plaintextExposureSeconds - 3600) < 5, "\(s.plaintextExposureSeconds)")
        #expect(s.bytesAtRestMax == 500)
        #expect(abs(s.byteSecondsAtRest / 7200 - 250) < 1, "\(s.byteSecondsAtRest)")
    }

    func grouper(k: Int) throws -> GrouperSystem {
        var c = try SystemConfig(devices: 2, servers: 3, k: k, s: 3, ttl: .hours(1), seed: 3)
        c.confirm = ConfirmPolicy(period: nil, onReconnect: false)
        c.trackExposure = true
        let s = try GrouperSystem(config: c)
        s.update(device: 0, objectID: "o", size: 300, at: at(1))
        s.run(until: at(30))
        return s
    }

    /// Grouper with k = 2: no single server can read the message, whatever it stores.
    @Test func grouperNoSingleServerReads() throws {
        let s = try grouper(k: 2)
        #expect(s.sharesOnServers == 3)
        #expect(s.plaintextExposedMessages == 0 && s.plaintextExposureSeconds == 0)
        let shareBytes = s.serverSnapshot(0).shares[0].share.count
        #expect(shareBytes >= 300 && s.bytesAtRestMax == Double(shareBytes))
    }

    /// Grouper with k = 1 (a share is the message): each of the 3 servers can read it from the
    /// upload (just after minute 1) to the end at minute 30 (TTL 1 h): ~3 × 29 min.
    @Test func grouperK1IsReadableByEachServer() throws {
        let s = try grouper(k: 1)
        #expect(s.plaintextExposedMessages == 1)
        let expected = 3.0 * 29 * 60
        #expect(abs(s.plaintextExposureSeconds! - expected) < 5, "\(String(describing: s.plaintextExposureSeconds))")
    }

    /// Without `trackExposure` nothing is observed (and nothing else changes).
    @Test func observationsOnlyWhenAsked() throws {
        var c = try SystemConfig(devices: 2, servers: 3, k: 2, s: 3, ttl: .hours(1), seed: 3)
        let plain = try GrouperSystem(config: c)
        c.trackExposure = true
        let tracked = try GrouperSystem(config: c)
        for s in [plain, tracked] { s.update(device: 0, objectID: "o", size: 300, at: at(1)); s.run(until: at(30)) }
        #expect(plain.plaintextExposedMessages == nil)
        #expect(plain.fingerprint == tracked.fingerprint)
    }
}
