import Testing
import SimKernel
@testable import GrouperModel

/// Devices hold the run's parts and servers the run's `World` strongly, and a `GrouperSystem` breaks the
/// world's references back to its nodes (and the device adapters' to the kernel) when it goes away: a device needs nobody else to
/// keep its parts alive, and a finished run frees its world and nodes.
@Suite struct NodeLifetimeTests {
    /// A member device built on a world nobody else references.
    static func lonelyDevice() throws -> DeviceNode {
        let config = try SystemConfig(devices: 2, servers: 3, k: 2, s: 2, ttl: .hours(1))
        let world = World(config: config, scheme: config.scheme.makeScheme(), streams: RandomStreams(rootSeed: 5))
        let d = DeviceNode(index: 0, world: world, rng: Xoshiro256StarStar(seed: 9))
        d.isMember = true
        d.accessKeys = ["key-0", "key-1", "key-2"]
        d.members = Array(world.nodeIDs)
        return d
    }

    @Test func aDeviceKeepsTheRunsPartsAlive() throws {
        let d = try Self.lonelyDevice()
        let ctx = ScriptedContext()
        d.handle(.command(.update(objectID: "obj", size: 100)), ctx)
        let ready = try #require(ctx.wakeups.last)
        guard case .uploadReady(let job) = ready.event else { Issue.record("expected uploadReady, got \(ready.event)"); return }
        ctx.now = ready.at
        d.handle(.uploadReady(jobID: job), ctx)
        #expect(ctx.requests.map(\.server) == [0, 1, 2])
        #expect(ctx.requests.allSatisfy { $0.request.groupID == d.directory.groupID })
        #expect(d.directory.nodeIDs.count == 2 && d.node == d.directory.nodeIDs[0])
    }

    @Test func aFinishedSystemFreesItsWorldAndNodes() throws {
        weak var world: World?
        weak var device: DeviceNode?
        weak var server: ServerNode?
        weak var adapter: SimulatedDeviceNode?
        do {
            let system = try GrouperSystem(config: SystemConfig(devices: 3, servers: 3, k: 2, s: 2, ttl: .hours(1)))
            system.update(device: 0, objectID: "o", size: 50, at: .zero)
            system.run(until: SimTime.zero + .minutes(5))
            world = system.world
            device = system.world.deviceNodes[1]
            server = system.world.serverNodes[2]
            adapter = system.world.deviceAdapters[2]
            #expect(world != nil && device != nil && server != nil && adapter != nil)
        }
        #expect(world == nil)
        #expect(device == nil)
        #expect(server == nil)
        #expect(adapter == nil, "the adapters hold the kernel, which holds them: the system breaks that cycle")
    }
}
