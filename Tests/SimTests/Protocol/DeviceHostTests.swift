import Testing
import SimKernel
@testable import GrouperModel

/// A plain context paired with its device (`BoundContext`) is a host that forwards every
/// requirement to the context's own implementation, so a scripted test drives the cores
/// through the same sink type the simulator's adapter (`SimulatedDeviceNode`) is.
@Suite struct DeviceHostTests {
    /// Records which requirement was called, so a forwarded call cannot pass for another.
    final class Recording: DeviceContext {
        var now: SimTime = SimTime.zero + .seconds(7)
        var logging: Bool { false }
        var calls: [String] = []
        let guest: DeviceNode
        init(guest: DeviceNode) { self.guest = guest }
        func schedule(_ event: GrouperEvent, at time: SimTime) { calls.append("at \(time.nanoseconds)") }
        func schedule(_ event: GrouperEvent, after delay: SimDuration) { calls.append("after \(delay.nanoseconds)") }
        func useCPU(_ work: SimDuration) -> SimTime { calls.append("cpu \(work.nanoseconds)"); return now + work + work }
        func send(_ request: ServerRequest, bytes: Int, to server: Int) { calls.append("send \(request.requestID) \(bytes) \(server)") }
        func takeRequestID() -> Int { calls.append("id"); return 41 }
        func directCall(_ request: ServerRequest, to server: Int) -> Result<ServerReply, ServerError>? {
            calls.append("direct \(server)"); return .success(.success)
        }
        func log(_ text: @autoclosure () -> String) { calls.append("log " + text()) }
        func count(_ kind: CounterKind, type: MessageType) { calls.append("count \(kind) \(type)") }
        func count(_ kind: CounterKind, type: MessageType, amount: Int) { calls.append("count \(kind) \(type) x\(amount)") }
        func recordTiming(_ timing: TransferTiming) { calls.append("timing \(timing.messages)") }
        func internalFailure(_ text: String) { calls.append("failure " + text) }
        func peer(_ device: Int) -> (node: DeviceNode, context: Recording) { calls.append("peer \(device)"); return (guest, self) }
    }

    @Test func aBoundContextForwardsEveryRequirement() throws {
        let a = try NodeLifetimeTests.lonelyDevice(), b = try NodeLifetimeTests.lonelyDevice()
        let ctx = Recording(guest: b)
        let host = BoundContext(node: a, context: ctx)
        #expect(host.node === a && host.now == SimTime.zero + .seconds(7) && !host.logging)
        host.schedule(.push, at: SimTime.zero + .seconds(9))
        host.schedule(.push, after: .seconds(2))
        #expect(host.useCPU(.seconds(1)) == SimTime.zero + .seconds(9))
        host.send(ServerRequest(requestID: 3, device: 0, groupID: "g", key: "k", call: .transferList), bytes: 70, to: 2)
        #expect(host.takeRequestID() == 41)
        #expect(host.directCall(ServerRequest(requestID: 0, device: 0, groupID: "g", key: "k", call: .userState), to: 1) == .success(.success))
        host.log("line")
        host.count(.messagesRebuilt, type: .update)
        host.count(.messagesRebuilt, type: .delete, amount: 3)
        host.internalFailure("bad")
        let (guest, guestHost) = host.peer(1)
        #expect(guest === b && guestHost.node === b, "the peer's host names the guest device")
        #expect(ctx.calls == ["at 9000000000", "after 2000000000", "cpu 1000000000", "send 3 70 2", "id", "direct 1",
                              "log line", "count messagesRebuilt update", "count messagesRebuilt delete x3",
                              "failure bad", "peer 1"])
    }

    /// The sink the simulator builds per event is its adapter itself: a device's host is its
    /// own kernel component, and a peer's host is the peer's.
    @Test func theSimulatorsHostIsTheDevicesOwnAdapter() throws {
        let system = try GrouperSystem(config: SystemConfig(devices: 3, servers: 3, k: 2, s: 2, ttl: .hours(1)))
        for (i, a) in system.world.deviceAdapters.enumerated() {
            #expect(a.node === system.world.deviceNodes[i] && a.sink.node === a.node)
            #expect(system.sim.component(system.world.deviceComponents[i]) as AnyObject === a)
            let (guest, guestHost) = a.peer((i + 1) % 3)
            #expect(guest === guestHost.node && guestHost === system.world.deviceAdapters[(i + 1) % 3])
        }
    }
}
