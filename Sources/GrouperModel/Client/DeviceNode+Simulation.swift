import SimKernel

/// The simulator's side of the seam: a device's context on the kernel, the network model
/// and the server components. The only place in `Client/` that touches `Simulation`, and
/// where what a device reports (log, counters, timings, internal failures) reaches `World`.
struct SimulatedDevice: DeviceContext {
    let sim: Simulation<GrouperEvent>
    let world: World
    let device: Int

    var now: SimTime { sim.now }

    var logging: Bool { world.logEnabled }

    var component: ComponentID { world.deviceComponents[device] }

    func schedule(_ event: consuming GrouperEvent, at time: SimTime) {
        sim.schedule(event, to: component, at: time)
    }

    func schedule(_ event: consuming GrouperEvent, after delay: SimDuration) {
        sim.schedule(event, to: component, after: delay)
    }

    func useCPU(_ work: SimDuration) -> SimTime {
        let now = sim.now
        return world.cpu.use(device: device, work, now: now)
    }

    /// The request reaches the server when the network model says (its faults' jitter
    /// included, `NetworkFaults`); the request timeout is
    /// delivered by the server side when it applies (see `ServerNode.serve`).
    func send(_ request: consuming ServerRequest, bytes: Int, to server: Int) {
        let arrival = world.network.requestArrival(device: device, server: server, bytes: bytes, at: request.sentAt)
            + world.network.requestDelay(device: device, sentAt: request.sentAt)
        sim.schedule(.request(request), to: world.serverComponents[server], at: arrival)
    }

    func log(_ text: @autoclosure () -> String) { world.log(sim.now, device, text()) }

    func count(_ kind: CounterKind, type: MessageType) { count(kind, type: type, amount: 1) }

    func count(_ kind: CounterKind, type: MessageType, amount: Int) {
        world.counters.add(kind, device: device, type: type, at: sim.now, amount)
    }

    func recordTiming(_ timing: TransferTiming) {
        world.recordTiming(timing)
    }

    func internalFailure(_ text: String) { world.internalFailure(sim.now, device, text) }

    func takeRequestID() -> Int { world.takeRequestID() }

    func directCall(_ request: ServerRequest, to server: Int) -> Result<ServerReply, ServerError>? {
        world.serverNodes[server].directCall(request, now: sim.now)
    }

    func peer(_ device: Int) -> (node: DeviceNode, context: SimulatedDevice) {
        (world.deviceNodes[device], SimulatedDevice(sim: sim, world: world, device: device))
    }
}

/// The adapter between the kernel and a device: the kernel delivers an event, and the device
/// handles it through its simulated context.
final class SimulatedDeviceNode: SimComponent {
    typealias Event = GrouperEvent
    let device: DeviceNode
    /// The run's simulation side, held strongly (a `let`: reading it needs no retain); the
    /// world does not hold the adapters (`sim` does), so there is no cycle through them.
    let world: World

    init(_ device: DeviceNode, world: World) {
        self.device = device
        self.world = world
    }

    var name: String { device.name }

    /// The device's sink is built here, once per event, where the device and the world are
    /// this component's own fields.
    func handle(_ event: consuming GrouperEvent, in sim: Simulation<GrouperEvent>) {
        device.handle(event, device.performing(SimulatedDevice(sim: sim, world: world, device: device.index)))
    }
}

extension DeviceNode {
    /// A device of `world`'s run: its directory, stores and record.
    convenience init(index: Int, world: World, rng: Xoshiro256StarStar) {
        self.init(index: index, directory: world.directory, stores: world.stores, record: world.record, rng: rng)
    }
}
