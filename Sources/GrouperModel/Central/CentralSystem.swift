import SimKernel

/// A whole simulated central-server system (CloudDrop-style, docs/architectures.md): D devices and one trusted
/// server on one `Simulation`, with the same network, device and server profiles as a Grouper
/// run. The control calls mirror `GrouperSystem`'s, so one scenario drives either.
/// One instance per run; not thread-safe, not shared.
public final class CentralSystem {
    public let config: CentralConfig
    let sim: Simulation<CentralEvent>
    let world: CentralWorld
    let server: CentralServerNode

    public init(config: CentralConfig) throws(SystemConfigError) {
        try config.validate()
        self.config = config
        sim = Simulation(seed: config.seed, reservingEvents: 1024)
        world = CentralWorld(config: config, streams: sim.streams)
        server = CentralServerNode(world: world)
        world.serverComponent = sim.add(server)
        for i in 0..<config.devices {
            let node = CentralDeviceNode(index: i, world: world, member: config.members.contains(i))
            world.deviceNodes.append(node)
            world.deviceComponents.append(sim.add(node))
        }
        for d in world.deviceNodes { sim.registerForFingerprint { [unowned d] in d.rng } }
        if config.retention != nil { sim.schedule(.retention, to: world.serverComponent, after: config.retentionSweep) }
        for d in world.deviceNodes { d.startTimers(sim) }
    }

    // MARK: Clock

    public var now: SimTime { sim.now }
    public var eventsProcessed: UInt64 { sim.eventsProcessed }
    public func run(until time: SimTime) {
        if let limit = eventLimit {
            if !sim.run(until: time, maxEvents: limit) { exceededEventLimit = true }
            return
        }
        sim.run(until: time)
    }
    /// `run(until:)` that asks `stop` after every `slice` events (`GrouperSystem.run(until:stop:every:)`);
    /// false when `stop` gave the run up.
    public func run(until time: SimTime, stop: () -> Bool, every slice: UInt64) -> Bool {
        precondition(slice > 0, "a slice of at least one event")
        return sim.run(until: time, inSlicesOf: slice, budget: eventLimit, stop: stop, plain: { run(until: time) })
    }
    /// A budget of events for the whole run (`grouper-sim explore`); nil: no budget.
    public var eventLimit: UInt64?
    /// Whether `run(until:)` stopped at `eventLimit`: the run did not reach its end.
    public private(set) var exceededEventLimit = false

    /// Each member's live objects at the end, one line per (member, object): "D<n> <object>
    /// by D<writer> at <time of the write>", devices numbered from 1. Deleted objects are left
    /// out: the same list as `GrouperSystem.finalObjects` for the same final state.
    public var finalObjects: [String] {
        let byObject = Dictionary(grouping: world.writes, by: \.objectID)
        return world.deviceNodes.enumerated().filter { $0.element.isMember }.flatMap { i, d in
            d.store.compactMap { id, e -> String? in
                guard e.content != nil else { return nil }
                return "\(deviceLabel(i)) \(id) " + ObjectWrite.describe(e.version, among: byObject[id] ?? [])
            }.sorted()
        }
    }
    public func traceEvents(to sink: TraceSink?) { sim.trace = sink }

    // MARK: Control

    func command(_ c: DeviceCommand, device: Int, at t: SimTime) {
        precondition(world.deviceComponents.indices.contains(device), "device \(device) out of range")
        sim.scheduleAhead(.command(c), to: world.deviceComponents[device], at: max(t, sim.now))
    }
    public func update(device: Int, objectID: String, size: Int, at t: SimTime) {
        command(.update(objectID: objectID, size: size), device: device, at: t)
    }
    public func delete(device: Int, objectID: String, at t: SimTime) { command(.delete(objectID: objectID), device: device, at: t) }
    public func receive(device: Int, at t: SimTime) { command(.receive, device: device, at: t) }
    /// As `GrouperSystem.setOnline`: offline while any of the device's reasons holds.
    public func setOnline(_ online: Bool, device: Int, reason: Int = defaultOutageReason, at t: SimTime) {
        command(.setOnline(online, reason: reason), device: device, at: t)
    }
    /// The owner (device 0) invites `device`.
    public func invite(device: Int, at t: SimTime) {
        precondition(world.deviceComponents.indices.contains(device), "device \(device) out of range")
        world.invitations.append((device, max(t, sim.now)))
        command(.invite(invitee: device), device: 0, at: t)
    }
    public func setServerState(_ state: ServerState, reason: Int = defaultOutageReason, at t: SimTime) {
        sim.scheduleAhead(.serverCommand(.setState(state, reason: reason)), to: world.serverComponent, at: max(t, sim.now))
    }
    /// The server comes back up, with or without its files and outbox.
    public func restartServer(keepData: Bool, at t: SimTime) {
        sim.scheduleAhead(.serverCommand(.restart(keepData: keepData)), to: world.serverComponent, at: max(t, sim.now))
    }
    /// Called with the message ids of the updates a device applied from a fetched file.
    public func onDelivered(device: Int, _ callback: @escaping ([String]) -> Void) {
        world.deviceNodes[device].onDelivered = callback
    }

    // MARK: Observations

    public var writes: [ObjectWrite] { world.writes }
    public var traffic: [DeviceTraffic] { world.network.traffic }
    /// The server's files and outbox now.
    public var store: CentralStore { server.store }
    /// The counts of the run so far.
    public var counters: CentralCounters {
        CentralCounters(uploads: world.uploads, deleteUploads: world.deleteUploads, uploadFailures: world.uploadFailures,
                        fetched: world.fetched, declined: world.declined, expired: world.expired,
                        lostInRestart: world.lostInRestart)
    }
    public var uploads: Int { world.uploads }
    public var uploadFailures: Int { world.uploadFailures }
    /// Transfers declined by their receiver (it held a newer version).
    public var declinedTransfers: Int { world.declined }
    /// Transfers that expired under the retention limit (file lost for that receiver).
    public var expiredTransfers: Int { world.expired }
    /// Transfers whose file a restart without data destroyed before the receiver fetched it.
    public var transfersLostInRestart: Int { world.lostInRestart }
    public var devicesOnline: Int { world.deviceNodes.reduce(0) { $0 + ($1.online ? 1 : 0) } }
    public var unsentMessages: Int { world.deviceNodes.reduce(0) { $0 + $1.unsent.count } }
    public func isOnline(device: Int) -> Bool { world.deviceNodes[device].online }
    public func isMember(device: Int) -> Bool { world.deviceNodes[device].isMember }
    public func serverState() -> ServerState { server.state }
    /// Live objects of a device, sorted by object id.
    public func objects(device: Int) -> [(id: String, content: String)] {
        let s = world.deviceNodes[device].store
        return s.keys.sorted().compactMap { id in s[id]!.content.map { (id, $0) } }
    }
    /// ∫ (bytes the server stores) dt from the start to now, in byte·seconds.
    public var byteSecondsAtRest: Double { server.bytesAtRest.area(upTo: sim.now) }
    /// The most bytes the server ever stored at once.
    public var bytesAtRestMax: Double { server.bytesAtRest.max }
    /// Messages the server could read: every file it stored (the server is trusted, not blind).
    public var plaintextExposedMessages: Int { server.store.filesEverStored }
    /// Σ over messages of the time the server held the readable file, up to now (seconds).
    public var plaintextExposureSeconds: Double { server.store.fileSeconds(upTo: sim.now) }
    public var fingerprint: RunFingerprint { sim.fingerprint() }
    /// What the network faults (`CentralConfig.networkFaults`) did so far (all 0 when they are off).
    public var networkFaultCounts: NetworkFaultCounts { world.network.faultCounts }
}

/// Counts of a central-server run (a value: snapshot at warm-up, subtract at the end).
public struct CentralCounters: Equatable, Sendable {
    /// Messages stored on the server (a retried upload counts once).
    public var uploads = 0
    public var deleteUploads = 0
    /// Upload requests refused or timed out.
    public var uploadFailures = 0
    /// Files receivers downloaded.
    public var fetched = 0
    public var declined = 0
    public var expired = 0
    public var lostInRestart = 0
}
