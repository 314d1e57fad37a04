import SimKernel

/// The adapter between the kernel and a device, and the simulator's side of the seam: the
/// device's context on the kernel, the network model and the server components. The kernel
/// delivers an event, and the device handles it with this component as its host
/// (`DeviceHost`), the one reference its sink holds. The only place in `Client/` that touches
/// `Simulation`, and where what a device reports (log, counters, timings, internal failures)
/// reaches `World`.
final class SimulatedDeviceNode: SimComponent, DeviceHost {
    typealias Event = GrouperEvent
    let device: DeviceNode
    /// The run's simulation side, held strongly (a `let`: reading it needs no retain); the
    /// world holds the adapters only until `World.releaseNodes`.
    let world: World
    /// The kernel this component is added to. It holds the component, so the component lets it
    /// go when the run is dropped (`detach`, from `World.releaseNodes`).
    private var simulation: Simulation<GrouperEvent>?

    init(_ device: DeviceNode, world: World, sim: Simulation<GrouperEvent>) {
        self.device = device
        self.world = world
        self.simulation = sim
    }

    var name: String { device.name }

    /// Breaks the cycle through the kernel (it holds its components).
    func detach() { simulation = nil }

    private var sim: Simulation<GrouperEvent> { simulation! }

    /// The device's sink is this component (borrowed from the kernel): nothing is retained to
    /// build it.
    func handle(_ event: consuming GrouperEvent, in sim: Simulation<GrouperEvent>) {
        device.handle(event, DeviceNode.Performing(host: self))
    }

    /// The sink of an input that does not come from the kernel (the group's setup).
    var sink: DeviceNode.Performing<SimulatedDeviceNode> { DeviceNode.Performing(host: self) }

    @inline(__always)
    func perform(_ effect: consuming ClientEffect) { device.perform(effect, self) }

    @inline(__always)
    func performRequest(_ call: consuming ServerCall, server: Int, purpose: RequestPurpose,
                        credentials: consuming RequestCredentials, connected: Bool) {
        device.perform(call, server: server, purpose: purpose, credentials: credentials, connected: connected, self)
    }

    // MARK: DeviceContext

    var node: DeviceNode { device }

    var now: SimTime { sim.now }

    var logging: Bool { world.logEnabled }

    var component: ComponentID { world.deviceComponents[device.index] }

    func schedule(_ event: consuming GrouperEvent, at time: SimTime) {
        sim.schedule(event, to: component, at: time)
    }

    func schedule(_ event: consuming GrouperEvent, after delay: SimDuration) {
        sim.schedule(event, to: component, after: delay)
    }

    func useCPU(_ work: SimDuration) -> SimTime {
        let now = sim.now
        return world.cpu.use(device: device.index, work, now: now)
    }

    /// The request reaches the server when the network model says (its faults' jitter
    /// included, `NetworkFaults`); the request timeout is
    /// delivered by the server side when it applies (see `ServerNode.serve`).
    func send(_ request: consuming ServerRequest, bytes: Int, to server: Int) {
        let device = device.index
        let arrival = world.network.requestArrival(device: device, server: server, bytes: bytes, at: request.sentAt)
            + world.network.requestDelay(device: device, sentAt: request.sentAt)
        sim.schedule(.request(request), to: world.serverComponents[server], at: arrival)
    }

    func log(_ text: @autoclosure () -> String) { world.log(sim.now, device.index, text()) }

    func count(_ kind: CounterKind, type: MessageType) { count(kind, type: type, amount: 1) }

    func count(_ kind: CounterKind, type: MessageType, amount: Int) {
        world.counters.add(kind, device: device.index, type: type, at: sim.now, amount)
    }

    func recordTiming(_ timing: TransferTiming) {
        world.recordTiming(timing)
    }

    func internalFailure(_ text: String) { world.internalFailure(sim.now, device.index, text) }

    func takeRequestID() -> Int { world.takeRequestID() }

    func directCall(_ request: ServerRequest, to server: Int) -> Result<ServerReply, ServerError>? {
        world.serverNodes[server].directCall(request, now: sim.now)
    }

    func peer(_ device: Int) -> (node: DeviceNode, context: SimulatedDeviceNode) {
        (world.deviceNodes[device], world.deviceAdapters[device])
    }
}

extension DeviceNode {
    /// A device of `world`'s run: its directory, stores and record.
    convenience init(index: Int, world: World, rng: Xoshiro256StarStar) {
        self.init(index: index, directory: world.directory, stores: world.stores, record: world.record, rng: rng)
    }
}
