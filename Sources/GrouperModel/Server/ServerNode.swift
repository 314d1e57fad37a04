import SimKernel

/// A server on the simulated network: availability state, processing time, TTL sweep,
/// push delivery for `user/notify`, and the TTL checker's observations.
final class ServerNode: SimComponent {
    typealias Event = GrouperEvent
    let name: String
    let index: Int
    /// The run's shared state, held strongly (see `DeviceNode.world`).
    let world: World
    var server: UntrustedServer
    public private(set) var state: ServerState = .up
    /// The reasons the server is down (`Outages`): up while none holds.
    var down = Outages<ServerState>()
    /// Off only in checker canaries: a server that never sweeps must be caught by the TTL checker.
    var sweepEnabled = true
    /// Shares held over time (updated after every event the server handles); an observation,
    /// not part of the fingerprint.
    private(set) var heldShares = TimeWeightedAverage()
    /// Bytes of the shares held over time, kept only with `config.trackExposure`.
    var heldBytes = TimeWeightedAverage()
    /// Hostile behaviours active now (docs/adversaries.md); empty for an honest server.
    var misbehaviours = ActiveMisbehaviours()
    /// `keep` / `early-delete` behaviours this server ever had, for the TTL checker's findings.
    var ttlMisbehaviours: [ServerMisbehaviour] = []
    /// On a `stale` server: share id → the bytes of the share it replaced.
    var staleShares: [Int: [UInt8]] = [:]
    /// Message ids this server holds shares of (sorted), when it is in a coalition; else nil.
    var coalitionHeld: [String]?
    /// With `server.holdings`: the message ids held after the last event, and the costed
    /// bytes of the held shares (`SharedStores.costed`, per share).
    var heldIDs: Set<String> = []
    var heldCostedBytes = 0
    /// Shares a `keep` server served or held past TTL + sweep period.
    var keptPastTTL = 0
    /// Devices of the nodes a requester's last multicast notification went to.
    var pushMemo = PushMemo()

    init(index: Int, world: World, rng: Xoshiro256StarStar) {
        self.index = index
        self.name = "server-\(serverNumber(index))"
        self.world = world
        self.server = UntrustedServer(index: index, rng: rng, keying: world.config.variant.shareKeying)
        server.incrementalLists = world.config.compactState
    }

    func handle(_ event: GrouperEvent, in sim: Simulation<GrouperEvent>) {
        handle(event, sim, in: world)
    }

    func handle(_ event: GrouperEvent, _ sim: Simulation<GrouperEvent>, in world: World) {
        switch event {
        case .request(let r): serve(r, sim, in: world)
        case .sweep:
            // A refusing or blackholed server is unreachable, not stopped: its deletion job
            // runs on (docs/protocol.md), so the TTL holds on every server, up or down.
            if sweepEnabled && !misbehaviours.keep { sweep(sim.now) }
            sim.schedule(.sweep, to: world.serverComponents[index], after: world.config.sweepPeriod)
        case .serverCommand(.setState(let change, let reason)):
            // Down while any reason holds (overlapping windows nest). A server coming back up
            // sweeps before serving, as a restart does, so it serves no share that expired since
            // its last periodic sweep.
            let s = down.set(reason, change == .up ? nil : change) ?? .up
            if s == .up && state != .up && sweepEnabled && !misbehaviours.keep { server.sweep(now: sweepTime(sim.now)) }
            state = s
        case .serverCommand(.restart(let keep)):
            if !keep { world.record.recordRestartLoss(server: index, messageIDs: server.shares.map(\.messageID)) }
            if !keep { server.dropAllShares() }
            down = Outages()   // a restart brings the server up: it ends every down reason holding now
            state = .up
            if !misbehaviours.keep { server.sweep(now: sweepTime(sim.now)) }  // catches up before serving anything
        case .serverCommand(.misbehave(let id, let behaviour)):
            setMisbehaviour(id, behaviour)
        default: break
        }
        heldShares.set(Double(server.shares.count), at: sim.now)
        if server.holdings != nil { observeHoldingChanges(sim.now); return }
        if world.config.trackExposure { heldBytes.set(Double(server.shares.reduce(0) { $0 + $1.share.count + world.stores.costed($1.messageID) }), at: sim.now) }
        if coalitionHeld != nil { trackCoalitionHoldings(sim.now) }
    }

    /// Calls the service directly (group setup and face-to-face invitation are not timed).
    func directCall(_ r: ServerRequest, now: SimTime) -> Result<ServerReply, ServerError>? {
        state == .up ? server.handle(r, now: now) : nil
    }

    func serve(_ r: ServerRequest, _ sim: Simulation<GrouperEvent>, in world: World) {
        let device = world.deviceComponents[r.device]
        let deadline = r.sentAt + world.config.requestTimeout
        // A blackholed request's time-out is scheduled here, instead of a timer per request on
        // the device: that halves the events of a run.
        if let a = RequestAnswer.unserved(state, deadline: deadline, now: sim.now, latency: world.config.network.latency(server: index)) {
            sim.schedule(.response(requestID: r.requestID, outcome: a.timedOut ? .timedOut : .refused), to: device, at: a.at)
            return
        }
        let result = respond(r, now: sim.now)
        let done = sim.now + world.config.server.processingTime(shares: WireSize.shareCount(r.call))
        let bytes = answered(result, device: r.device, at: done, sim, in: world)
        let arrival = world.network.responseArrival(device: r.device, server: index, bytes: bytes, at: done)
        guard world.network.faulty(sentAt: r.sentAt) else {
            let a = RequestAnswer.served(arrival: arrival, deadline: deadline, now: sim.now)
            sim.schedule(.response(requestID: r.requestID, outcome: a.timedOut ? .timedOut : RequestOutcome(consume result)),
                         to: device, at: a.at)
            return
        }
        // Network faults (`NetworkFaults`): the reply may be delayed, late or delivered twice.
        let reply = world.network.servedReply(device: r.device, sentAt: r.sentAt, arrival: arrival, deadline: deadline, now: sim.now)
        let outcome = RequestOutcome(consume result)
        sim.schedule(.response(requestID: r.requestID, outcome: reply.answer.timedOut ? .timedOut : outcome), to: device, at: reply.answer.at)
        if let again = reply.again { sim.schedule(.response(requestID: r.requestID, outcome: outcome), to: device, at: again) }
    }

    /// What a served request's answer sets off, in one pass over the result (borrowed, so no
    /// reply payload is copied): the TTL check of the shares served, the pushes of a
    /// notification; returns the answer's wire bytes.
    func answered(_ result: borrowing Result<ServerReply, ServerError>, device: Int, at done: SimTime,
                  _ sim: Simulation<GrouperEvent>, in world: World) -> Int {
        switch result {
        case .success(.shares(let ss)):
            checkTTL(ss, now: sim.now)
            return WireSize.shares(ss, scheme: world.config.scheme) + world.stores.costedWireBytes(result)
        case .success(.notified(let nodes)):
            push(nodes, from: device, at: done, sim, in: world)
            return WireSize.response(result, scheme: world.config.scheme)
        default:
            return WireSize.response(result, scheme: world.config.scheme)
        }
    }

    /// Schedules a push to each notified node's device. The devices of a requester's last
    /// multicast are kept (`PushMemo`): the next one from it usually names the same nodes.
    func push(_ nodes: [String], from requester: Int, at time: SimTime, _ sim: Simulation<GrouperEvent>,
              in world: World) {
        let at = time + .nanoseconds(world.config.network.pushLatencyNanos)
        for d in pushMemo.devices(of: nodes, from: requester, world.directory.deviceByNode) {
            sim.schedule(.push, to: world.deviceComponents[d], at: at)
        }
    }

    func sweep(_ now: SimTime) {
        if let oldest = server.oldestSaveAt, now - oldest > world.config.ttl + world.config.sweepPeriod {
            ttlViolation("server \(serverNumber(index)) held a share saved at \(oldest) at \(now), "
                + "older than TTL \(world.config.ttl) + sweep period \(world.config.sweepPeriod)")
        }
        server.sweep(now: sweepTime(now))
        pruneStale()
    }

    /// TTL honoured: a share served must not be older than TTL + sweep period.
    func checkTTL(_ ss: ShareDownloads, now: SimTime) {
        let limit = world.config.ttl + world.config.sweepPeriod
        for s in ss where now - s.saveAt > limit {
            ttlViolation("server \(serverNumber(index)) served share \(s.shareID) of message \(s.messageID) "
                + "saved at \(s.saveAt) at \(now), older than TTL + sweep period \(limit)")
        }
    }
}

extension RequestOutcome {
    /// A served request's result as the device sees it.
    init(_ result: consuming Result<ServerReply, ServerError>) {
        switch consume result {
        case .success(let reply): self = .reply(reply)
        case .failure(let e): self = .error(e)
        }
    }
}
