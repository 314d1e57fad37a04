import Testing
import SimKernel
@testable import GrouperModel

/// `_checkInvariants()` must hold on real runs and catch each kind of broken state.
@Suite struct InvariantCanaryTests {
    static func system() throws -> GrouperSystem {
        let c = try SystemConfig(devices: 3, servers: 3, k: 2, s: 2, ttl: .minutes(10))
        let system = try GrouperSystem(config: c)
        system.checksInvariants = true
        for (i, t) in [1, 2, 3].enumerated() {
            system.update(device: i, objectID: "o\(i)", size: 20, at: SimTime.zero + .seconds(Int64(t)))
        }
        system.run(until: SimTime.zero + .minutes(3))
        return system
    }

    @Test func aHealthyRunHoldsEveryInvariant() throws {
        let system = try Self.system()
        #expect(system.invariantViolation == nil && system._checkInvariants() == nil)
        #expect(system.sharesOnServers > 0)
    }

    @Test func aShareMissingFromTheKeyIndexIsCaught() throws {
        let system = try Self.system()
        let key = system.world.serverNodes[1].server.shareIDByMessage.keys.sorted { $0.messageID < $1.messageID }[0]
        system.world.serverNodes[1].server.shareIDByMessage[key] = nil
        #expect(system._checkInvariants()?.hasPrefix("server 2: share") == true)
    }

    @Test func sharesOutOfOrderAreCaught() throws {
        let system = try Self.system()
        system.world.serverNodes[0].server.shares.reverse()
        #expect(system._checkInvariants() == "server 1: shares out of id order at 1")
    }

    @Test func aSequenceThatShouldExtendThePrefixIsCaught() throws {
        let system = try Self.system()
        let d = system.world.deviceNodes[2]
        let sender = system.nodeIDs[0]
        d.delivery.above[sender] = [d.delivery.highestContiguous(from: sender) + 1]
        #expect(system._checkInvariants()?.hasPrefix("device 2: delivery: sequence") == true)
    }

    /// The flag stops the run at the first violation and says when.
    @Test func theFlagStopsAtTheFirstViolation() throws {
        let system = try Self.system()
        system.world.serverNodes[0].server.shares.reverse()
        let before = system.eventsProcessed
        system.update(device: 0, objectID: "x", size: 20, at: system.now + .seconds(Int64(1)))
        system.run(until: system.now + .minutes(5))
        #expect(system.eventsProcessed == before)
        #expect(system.invariantViolation?.contains("shares out of id order") == true)
    }
}
