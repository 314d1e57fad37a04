import SimKernel

/// The central server on the simulated network: availability, processing time, retention
/// sweep, push notifications, and the storage observations (bytes held over time).
final class CentralServerNode: SimComponent {
    typealias Event = CentralEvent
    let name = "central-server"
    unowned let world: CentralWorld
    var store: CentralStore
    private(set) var state: ServerState = .up
    /// The reasons the server is down (`Outages`): up while none holds.
    var down = Outages<ServerState>()
    /// Bytes stored over time (an observation, not part of the fingerprint).
    private(set) var bytesAtRest = TimeWeightedAverage()

    init(world: CentralWorld) {
        self.world = world
        store = CentralStore(devices: world.config.devices)
    }

    func handle(_ event: CentralEvent, in sim: Simulation<CentralEvent>) {
        switch event {
        case .request(let r): serve(r, sim)
        case .retention:
            // Like Grouper's TTL sweep, the retention job runs whether or not clients can reach the server.
            if let limit = world.config.retention, sim.now.nanoseconds >= limit.nanoseconds {
                world.expired += store.expire(createdBy: sim.now - limit, now: sim.now).count
            }
            sim.schedule(.retention, to: world.serverComponent, after: world.config.retentionSweep)
        case .serverCommand(.setState(let change, let reason)): state = down.set(reason, change == .up ? nil : change) ?? .up
        case .serverCommand(.restart(let keep)):
            if !keep { world.lostInRestart += store.dropAll(now: sim.now).count }
            down = Outages()   // a restart brings the server up: it ends every down reason holding now
            state = .up
        default: break
        }
        bytesAtRest.set(Double(store.bytesStored), at: sim.now)
    }

    func serve(_ r: CentralRequest, _ sim: Simulation<CentralEvent>) {
        let device = world.deviceComponents[r.device]
        let deadline = r.sentAt + world.config.requestTimeout
        if let a = RequestAnswer.unserved(state, deadline: deadline, now: sim.now, latency: world.config.network.latency(server: 0)) {
            sim.schedule(.response(requestID: r.requestID, outcome: a.timedOut ? .timedOut : .refused), to: device, at: a.at)
            return
        }
        let reply = respond(r, now: sim.now)
        let done = sim.now + world.config.server.processingTime(shares: 1)
        if case .upload(let u) = r.call { push(u.receivers, at: done, sim) }
        let arrival = world.network.responseArrival(device: r.device, server: 0, bytes: Self.size(reply), at: done)
        // Network faults (`NetworkFaults`) may delay the reply, hold it past the deadline or deliver it twice.
        let a = world.network.servedReply(device: r.device, sentAt: r.sentAt, arrival: arrival, deadline: deadline, now: sim.now)
        sim.schedule(.response(requestID: r.requestID, outcome: a.answer.timedOut ? .timedOut : .reply(reply)), to: device, at: a.answer.at)
        if let again = a.again { sim.schedule(.response(requestID: r.requestID, outcome: .reply(reply)), to: device, at: again) }
    }

    func respond(_ r: CentralRequest, now: SimTime) -> CentralReply {
        switch r.call {
        case .upload(let u):
            guard !store.holds(messageID: u.messageID) else { return .stored }   // a retry after a lost reply
            store.store(messageID: u.messageID, objectID: u.objectID, version: u.version, content: u.content,
                        size: u.size, from: r.device, receivers: u.receivers, now: now)
            return .stored
        case .list:
            return .transfers(store.openTransfers(to: r.device).compactMap { t in
                store.file(t.fileID).map { CentralListing(transfer: t.id, objectID: $0.objectID, version: $0.version, size: $0.size) }
            })
        case .fetch(let t): return store.initiate(t).map { .file($0) } ?? .gone
        case .close(let t, let status): return store.close(t, as: status, now: now) ? .closed : .gone
        }
    }

    /// Push notifications reach the devices that are online when they arrive.
    func push(_ devices: [Int], at time: SimTime, _ sim: Simulation<CentralEvent>) {
        for d in devices {
            sim.schedule(.push, to: world.deviceComponents[d], at: time + .nanoseconds(world.config.network.pushLatencyNanos))
        }
    }

    /// Approximate wire size of a reply body (JSON, the file as binary).
    static func size(_ r: CentralReply) -> Int {
        switch r {
        case .transfers(let ts): 2 + ts.count * 120
        case .file(let f): f.size + 200
        default: 60
        }
    }
}
