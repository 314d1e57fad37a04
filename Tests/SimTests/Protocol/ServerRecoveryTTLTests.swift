import Testing
import SimKernel
@testable import GrouperModel

@Suite struct ServerRecoveryTTLTests {
    /// A server that was refusing (or blackholed) for longer than the TTL did not sweep while
    /// down; when it comes back up it must drop expired shares before serving anything, or it
    /// would serve a share older than TTL + sweep period (a TTL safety violation).
    @Test(arguments: [ServerState.refusing, .blackhole])
    func serverBackUpAfterLongOutageSweepsFirst(_ downState: ServerState) throws {
        var c = try SystemConfig(devices: 2, servers: 3, k: 2, s: 2, ttl: .hours(1))
        c.receive = ReceivePolicy(onPush: true, pullPeriod: .minutes(10), onReconnect: true)
        let system = try GrouperSystem(config: c)
        system.update(device: 0, objectID: "r1", size: 100, at: SimTime.zero + .seconds(Int64(1)))
        system.setServerState(downState, server: 1, at: SimTime.zero + .minutes(2))
        system.setServerState(.up, server: 1, at: SimTime.zero + .hours(3))
        system.run(until: SimTime.zero + .hours(4))
        let ttl = system.check().findings(of: .ttl)
        #expect(ttl.isEmpty, "\(ttl)")
        #expect(system.objects(device: 1).map(\.id) == ["r1"])
    }
}
