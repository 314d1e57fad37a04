import SimKernel

/// A whole simulated Grouper system: D devices (device 0 owns the group), n untrusted servers,
/// the network, on one `Simulation`. The real sender/receiver/server code runs; only the
/// network, clocks and CPU are simulated.
///
/// Control calls schedule a command at a virtual time (a time in the past means "now");
/// `run(until:)` advances. Observations (`counters`, `log`, `timings`, `check()`,
/// `fingerprint`) are values. One instance per run; not thread-safe, not shared.
/// Device and server indices must be in range (a precondition: the scenario layer validates
/// its input and reports bad indices as errors before calling).
public final class GrouperSystem {
    public let config: SystemConfig
    let sim: Simulation<GrouperEvent>
    let world: World
    /// Debug flag: check `_checkInvariants()` after every event (slow; property suites set it).
    public var checksInvariants = false
    /// The first invariant violation found while `checksInvariants` was set.
    public internal(set) var invariantViolation: String?

    /// Builds the system and creates the group: the owner registers and initialises it on every
    /// server, then invites the other start members face to face (setup traffic is not timed).
    public convenience init(config: SystemConfig) throws(SystemConfigError) {
        try self.init(config: config, scheme: config.scheme.makeScheme())
    }

    /// The same with another sharing scheme (tests inject a failing one).
    init(config: SystemConfig, scheme: any SecretSharingScheme) throws(SystemConfigError) {
        try config.validate()
        self.config = config
        sim = Simulation(seed: config.seed, reservingEvents: 4096)
        world = World(config: config, scheme: scheme, streams: sim.streams)
        for j in 0..<config.servers {
            let node = ServerNode(index: j, world: world, rng: sim.randomStream(for: "server-\(j)"))
            if world.record.coalitions.isMember(j) || config.trackExposure {
                node.coalitionHeld = []
                // Compact bookkeeping reads what the server holds from a tally kept on every
                // store and deletion; plain bookkeeping passes over the shares after each event.
                if config.compactState { node.server.holdings = HoldingsTally() }
            }
            world.serverNodes.append(node)
            world.serverComponents.append(sim.add(node))
        }
        for i in 0..<config.devices {
            let node = DeviceNode(index: i, world: world, rng: sim.randomStream(for: "device-\(i)"))
            world.deviceNodes.append(node)
            let adapter = SimulatedDeviceNode(node, world: world, sim: sim)
            world.deviceAdapters.append(adapter)
            world.deviceComponents.append(sim.add(adapter))
        }
        var phases = sim.randomStream(for: "sweep-phases")
        for j in 0..<config.servers {
            let phase = SimDuration(nanoseconds: Int64(phases.nextDouble() * Double(config.sweepPeriod.nanoseconds)))
            sim.schedule(.sweep, to: world.serverComponents[j], after: config.alignedSweeps ? .zero : phase)
        }
        let owner = world.deviceAdapters[0]
        owner.device.createGroup(owner.sink)
        for i in config.startMembers.dropFirst() { owner.device.invite(i, owner.sink) }
        for a in world.deviceAdapters { a.device.startTimers(a) }
    }

    deinit { world.releaseNodes() }

    // MARK: Clock

    public var now: SimTime { sim.now }
    public var eventsProcessed: UInt64 { sim.eventsProcessed }
    /// Runs every event up to and including `time` (checking invariants after each one when
    /// `checksInvariants` is set: GrouperSystem+Invariants.swift).
    public func run(until time: SimTime) {
        if let limit = eventLimit {
            if !sim.run(until: time, maxEvents: limit) { exceededEventLimit = true }
            return
        }
        if checksInvariants { runCheckingInvariants(until: time) } else { sim.run(until: time) }
    }

    /// `run(until:)` that asks `stop` after every `slice` events (never between them, so it
    /// processes the same events as `run(until:)` until `stop` says true). Returns false when
    /// `stop` gave the run up, with the clock at the last event handled. Lets a caller with
    /// a wall-clock deadline give up a heavy run within a bounded number of events.
    public func run(until time: SimTime, stop: () -> Bool, every slice: UInt64) -> Bool {
        precondition(slice > 0, "a slice of at least one event")
        if checksInvariants { return runCheckingInvariants(until: time, stop: stop, every: slice) }
        return sim.run(until: time, inSlicesOf: slice, budget: eventLimit, stop: stop, plain: { run(until: time) })
    }

    /// Each member's live objects at the end, one line per (member, object): "D<n> <object>
    /// by D<writer> at <time of the write>", devices numbered from 1, deleted objects left out
    /// (`CentralSystem.finalObjects` for comparing the two architectures, whose contents and
    /// node names differ).
    public var finalObjects: [String] {
        let byObject = Dictionary(grouping: world.writes, by: \.objectID)
        return world.deviceNodes.filter(\.isMember).flatMap { d in
            d.store.entries.compactMap { id, e -> String? in
                guard e.content != nil else { return nil }
                return "\(deviceLabel(d.index)) \(id) " + ObjectWrite.describe(e.version, among: byObject[id] ?? [])
            }.sorted()
        }
    }

    /// Unicast re-upload copies stored again for a requester while an earlier copy should
    /// still be on enough servers (`DeviceNode.noteReuploadsStored`), with the first few.
    public var repeatedReuploads: (count: Int, examples: [String]) {
        (world.record.repeatedReuploads, world.record.repeatedReuploadExamples)
    }

    /// A budget of events for the whole run (`grouper-sim explore`: a run far beyond its
    /// estimate is a finding, not a hang); nil: no budget. Not combined with invariant checks.
    public var eventLimit: UInt64?
    /// Whether `run(until:)` stopped at `eventLimit`: the run did not reach its end.
    public private(set) var exceededEventLimit = false

    // MARK: Control (Grouper API and faults)

    func at(_ t: SimTime) -> SimTime { max(t, sim.now) }

    func command(_ c: DeviceCommand, device: Int, at t: SimTime) {
        precondition(world.deviceComponents.indices.contains(device), "device \(device) out of range")
        sim.scheduleAhead(.command(c), to: world.deviceComponents[device], at: at(t))
    }

    /// `sender.update`: device creates or modifies `objectID` with a `size`-byte payload.
    public func update(device: Int, objectID: String, size: Int, at t: SimTime) {
        command(.update(objectID: objectID, size: size), device: device, at: t)
    }
    /// `sender.delete`.
    public func delete(device: Int, objectID: String, at t: SimTime) {
        command(.delete(objectID: objectID), device: device, at: t)
    }
    /// `sender.confirm`.
    public func confirm(device: Int, at t: SimTime) { command(.confirm, device: device, at: t) }
    /// A receive round (pull-to-refresh).
    public func receive(device: Int, at t: SimTime) { command(.receive, device: device, at: t) }
    /// Device `device` goes offline (or comes back) at `t` for `reason`: it is offline while
    /// any of its reasons holds (`Outages`), so overlapping windows nest.
    public func setOnline(_ online: Bool, device: Int, reason: Int = defaultOutageReason, at t: SimTime) {
        command(.setOnline(online, reason: reason), device: device, at: t)
    }
    /// The owner (device 0) invites `device` face to face.
    public func invite(device: Int, at t: SimTime) {
        precondition(world.deviceComponents.indices.contains(device), "device \(device) out of range")
        world.record.invitations.append((device, at(t)))
        command(.invite(invitee: device), device: 0, at: t)
    }

    /// Server `server` goes down in `state` (or, with `.up`, comes back) at `t` for `reason`: it
    /// is down while any of its reasons holds (`Outages`).
    public func setServerState(_ state: ServerState, server: Int, reason: Int = defaultOutageReason, at t: SimTime) {
        precondition(world.serverComponents.indices.contains(server), "server \(server) out of range")
        sim.scheduleAhead(.serverCommand(.setState(state, reason: reason)), to: world.serverComponents[server], at: at(t))
    }
    /// Switches hostile behaviour `id` on a server on (or off with nil) at `t` (docs/adversaries.md).
    public func setMisbehaviour(_ behaviour: ServerMisbehaviour?, id: Int, server: Int, at t: SimTime) {
        precondition(world.serverComponents.indices.contains(server), "server \(server) out of range")
        world.record.verifyDeliveries = true
        sim.scheduleAhead(.serverCommand(.misbehave(id: id, behaviour)), to: world.serverComponents[server], at: at(t))
    }
    /// The server comes back up, with or without the shares it stored.
    public func restartServer(_ server: Int, keepData: Bool, at t: SimTime) {
        precondition(world.serverComponents.indices.contains(server), "server \(server) out of range")
        sim.scheduleAhead(.serverCommand(.restart(keepData: keepData)), to: world.serverComponents[server], at: at(t))
    }

    /// `receiver.receive(callback)`: called after each receive round that handled messages.
    public func onReceive(device: Int, _ callback: @escaping (Int, [GrouperMessage]) -> Void) {
        world.deviceNodes[device].onReceive = callback
    }

    // MARK: Observations

    public var counters: ProtocolCounters { world.counters }
    /// What the network faults (`SystemConfig.networkFaults`) did so far: delayed messages,
    /// duplicated and late replies (all 0 when they are off).
    public var networkFaultCounts: NetworkFaultCounts { world.network.faultCounts }
    public var log: [ProtocolLogEntry] { world.log }
    /// Failures of the model itself (a bug, never bad input): a non-empty list makes the run fail.
    public var internalFailures: [String] { world.internalFailures }
    /// Turns the protocol log on or off (on by default; off for long sweeps).
    public var loggingEnabled: Bool {
        get { world.logEnabled }
        set { world.logEnabled = newValue }
    }
    /// Sends every event delivered from now on to `sink`, one JSON line each (kinds and
    /// fields: `GrouperEvent+Trace.swift`); nil turns tracing off. Tracing changes nothing
    /// in the run, its counters or its fingerprint.
    public func traceEvents(to sink: TraceSink?) { sim.trace = sink }
    /// Every upload job and receive round so far (while `keepsTimingRecords`).
    public var timings: [TransferTiming] { world.timings }
    /// Keep every timing record (on by default); off, only `timingStats` is kept (long runs).
    public var keepsTimingRecords: Bool {
        get { world.keepTimings }
        set { world.keepTimings = newValue }
    }
    /// Means of the timings that started at or after `timingsSince`.
    public var timingStats: TimingStats { world.timingStats }
    /// Start of the window `timingStats` counts; set it before the run reaches it.
    public var timingsSince: SimTime {
        get { world.timingStats.since }
        set { world.timingStats.since = newValue }
    }
    /// Bytes and requests each device has exchanged with the servers so far (by device index).
    public var traffic: [DeviceTraffic] { world.network.traffic }
    public var writes: [ObjectWrite] { world.writes }
    public var nodeIDs: [String] { world.nodeIDs }
    public var groupID: String { world.groupID }

    /// Shares all servers hold right now (stored and not yet deleted by a TTL sweep).
    public var sharesOnServers: Int { world.serverNodes.reduce(0) { $0 + $1.server.shares.count } }
    /// ∫ (shares all servers hold) dt from the start to now, in share·seconds: the exposure
    /// the TTL bounds. Its increase over an interval divided by the interval's length is the
    /// time-average number of shares held.
    public var shareSecondsOnServers: Double {
        world.serverNodes.reduce(0) { $0 + $1.heldShares.area(upTo: sim.now) }
    }
    /// Messages colluding servers could rebuild at some moment so far (any coalition).
    public var coalitionExposedMessages: Int { world.record.coalitions.exposedIDs.count }
    /// Σ over coalitions and messages of the time the message was exposed, up to now (seconds).
    public var coalitionExposureSeconds: Double { world.record.coalitions.exposureSeconds(upTo: sim.now) }
    /// (member, message) pairs a member needed but could not rebuild because the shares disagree
    /// (`DeviceNode.neededUnrecoverable`).
    public var unrecoverableMessages: Int { world.deviceNodes.reduce(0) { $0 + $1.neededUnrecoverable(among: world.deviceNodes) } }
    /// Devices online right now.
    public var devicesOnline: Int { world.deviceNodes.reduce(0) { $0 + ($1.online ? 1 : 0) } }
    /// Messages waiting in all devices' unsent queues right now.
    public var unsentMessages: Int { world.deviceNodes.reduce(0) { $0 + $1.unsent.count } }

    public func isOnline(device: Int) -> Bool { world.deviceNodes[device].online }
    public func isMember(device: Int) -> Bool { world.deviceNodes[device].isMember }
    /// Live objects of a device, sorted by object id.
    public func objects(device: Int) -> [(id: String, content: String)] {
        let live = world.deviceNodes[device].store.liveObjects
        return live.keys.sorted().map { ($0, live[$0]!) }
    }
    /// Messages in a device's unsent queue.
    public func unsentCount(device: Int) -> Int { world.deviceNodes[device].unsent.count }
    public func serverState(_ server: Int) -> ServerState { world.serverNodes[server].state }
    /// The server's stored state (entities), for inspection and tests.
    public func serverSnapshot(_ server: Int) -> UntrustedServer { world.serverNodes[server].server }
    /// Sends a request to a server directly (no network), as a test client would.
    public func callServer(_ server: Int, _ request: ServerRequest) -> Result<ServerReply, ServerError>? {
        world.serverNodes[server].directCall(request, now: sim.now)
    }
    /// Access key of `device` on `server` (nil if not registered).
    public func accessKey(device: Int, server: Int) -> String? { world.deviceNodes[device].accessKeys[server] }
    /// Master key of the owner on `server`.
    public func masterKey(server: Int) -> String? { world.deviceNodes[0].masterKeys[server] }
}
