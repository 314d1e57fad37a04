import Testing
import SimKernel
@testable import GrouperModel

@Suite struct ProtocolStoryTests {
    /// Thesis Fig 4.4: f(2,4,3), server 3 down: the upload succeeds on three servers and the
    /// receiver rebuilds the message from the shares it can reach.
    @Test func fig44OneServerDownUploadSucceeds() throws {
        var c = SystemConfig(devices: 2, servers: 4, k: 2, s: 3, ttl: .hours(1))
        c.confirm = ConfirmPolicy(period: nil, onReconnect: false)
        c.receive = ReceivePolicy(onPush: true, pullPeriod: nil, onReconnect: true)
        let system = try GrouperSystem(config: c)
        system.setServerState(.refusing, server: 3, at: .zero)
        system.update(device: 0, objectID: "r1", size: 323, at: SimTime.zero + .seconds(Int64(1)))
        system.run(until: SimTime.zero + .seconds(Int64(30)))
        #expect(system.counters.total(.messagesUploaded, device: 0, type: .update) == 1)
        #expect(system.counters.total(.sharesStored, device: 0) == 3)
        #expect(system.counters.total(.messagesRebuilt, device: 1, type: .update) == 1)
        #expect(system.objects(device: 1).map(\.id) == ["r1"])
        #expect(system.objects(device: 1).map(\.content) == system.objects(device: 0).map(\.content))
        #expect(system.check().passed, "\(system.check().findings)")
        let uploads = system.timings.filter { $0.direction == .upload }
        #expect(uploads.count == 1 && uploads[0].succeeded)
    }
}
