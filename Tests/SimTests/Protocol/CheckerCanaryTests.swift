import Testing
import SimKernel
@testable import GrouperModel

/// Deliberately broken systems: each checker must catch its fault, as a value of the right kind.
@Suite struct CheckerCanaryTests {
    static func system() throws -> GrouperSystem {
        var c = try SystemConfig(devices: 2, servers: 3, k: 2, s: 2, ttl: .minutes(10))
        c.receive = ReceivePolicy(onPush: true, pullPeriod: .minutes(2), onReconnect: true)
        return try GrouperSystem(config: c)
    }

    @Test func serverThatNeverSweepsBreaksTTL() throws {
        let system = try Self.system()
        system.world.serverNodes[1].sweepEnabled = false
        system.update(device: 0, objectID: "a", size: 10, at: SimTime.zero + .seconds(Int64(1)))
        system.run(until: SimTime.zero + .minutes(30))
        let ttl = system.check().findings(of: .ttl)
        #expect(!ttl.isEmpty && ttl.allSatisfy { $0.kind == .safety && $0.message.contains("server 2 ") })
        #expect(system.check().safetyFailed)
    }

    @Test func inventedObjectVersionIsPhantom() throws {
        let system = try Self.system()
        system.update(device: 0, objectID: "a", size: 10, at: SimTime.zero + .seconds(Int64(1)))
        system.run(until: SimTime.zero + .minutes(1))
        #expect(system.check().passed)
        let forged = GrouperMessage(type: .update, content: "{\"id\":\"a\"}", sequence: 1, objectClass: "Record",
                                    objectID: "a", receiver: "*", sender: system.nodeIDs[0], email: "", name: "",
                                    sendTime: 999, messageID: "forged")
        _ = system.world.deviceNodes[1].store.updateRemote(forged)
        let phantom = system.check().findings(of: .noPhantom)
        #expect(phantom.count == 1 && phantom[0].kind == .safety && phantom[0].message.hasPrefix("D2 holds"))
        #expect(system.check().safetyFailed)
    }

    @Test func offlineDeviceIsNamedAsTheReason() throws {
        let system = try Self.system()
        system.setOnline(false, device: 1, at: .zero)
        system.update(device: 0, objectID: "a", size: 10, at: SimTime.zero + .seconds(Int64(1)))
        system.run(until: SimTime.zero + .minutes(5))
        let f = system.check().findings(of: .convergence)
        #expect(f.count == 1 && f[0].kind == .liveness && f[0].message.contains("D2 is offline"))
        #expect(f[0].messageIDs == [system.writes[0].messageID])
    }
}
