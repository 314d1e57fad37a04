import SimKernel

/// A device of a central-server run: writes objects, uploads each message once to the server
/// (in order, one at a time), and fetches what the server holds for it on a push, a periodic
/// pull or a reconnect, acknowledging each file or declining it when it holds a newer version.
final class CentralDeviceNode: SimComponent {
    typealias Event = CentralEvent
    enum Purpose { case upload, list, fetch, close }

    let name: String
    let index: Int
    unowned let world: CentralWorld
    var rng: Xoshiro256StarStar
    private(set) var online = true
    var isMember: Bool
    /// Invitations asked for while this (owner) device was offline, made when it comes back.
    var pendingInvitations: [Int] = []
    /// The reasons this device is offline (`Outages`): online while none holds.
    var offline = Outages<Bool>()
    /// Object id → (version, content; nil = deleted), last writer wins.
    var store: [String: (version: ObjectVersion, content: String?)] = [:]
    var sequence = 0
    /// Messages not yet stored on the server, oldest first.
    var unsent: [CentralUpload] = []
    /// Chunks received of objects not complete yet (`ChunkingConfig`).
    var chunks = CentralChunkAssembly()
    private var uploading = false
    /// Listings of the current receive round still to handle; nil when no round runs.
    private var round: [CentralListing]?
    private var roundAgain = false
    private var inflight: [Int: Purpose] = [:]
    /// When the device's CPU is next free (requests and file handling queue on it).
    var cpuFreeAt = SimTime.zero
    var onDelivered: (([String]) -> Void)?

    init(index: Int, world: CentralWorld, member: Bool) {
        self.index = index
        self.world = world
        self.name = "central-device-\(index + 1)"
        self.isMember = member
        rng = world.streams.stream(named: "central-device-\(index)")
    }

    func handle(_ event: CentralEvent, in sim: Simulation<CentralEvent>) {
        switch event {
        case .command(let c): command(c, sim)
        case .response(let id, let outcome):
            guard let purpose = inflight.removeValue(forKey: id) else { return }  // sent before going offline, late or a duplicate
            response(purpose, outcome, sim)
        case .push: if online && world.config.receive.onPush { startRound(sim) }
        case .pull:
            if online { startRound(sim) }
            if let p = world.config.receive.pullPeriod { sim.schedule(.pull, to: world.deviceComponents[index], after: p) }
        case .retry:
            if online { uploadNext(sim) }
            if let p = world.config.unsentRetryPeriod { sim.schedule(.retry, to: world.deviceComponents[index], after: p) }
        case .joined: if online { uploadNext(sim); startRound(sim) }
        default: break
        }
    }

    func startTimers(_ sim: Simulation<CentralEvent>) {
        for (e, p) in [(CentralEvent.pull, world.config.receive.pullPeriod), (.retry, world.config.unsentRetryPeriod)] {
            guard let p else { continue }
            let phase = SimDuration(nanoseconds: Int64(rng.nextDouble() * Double(p.nanoseconds)))
            sim.schedule(e, to: world.deviceComponents[index], after: phase)
        }
        deriveStoreKey(sim)
    }

    func command(_ c: DeviceCommand, _ sim: Simulation<CentralEvent>) {
        switch c {
        // A device outside the group does nothing until it joins (as a Grouper device: its writes
        // are dropped), and an invitation waits for the owner to be online.
        case .update(let objectID, let size):
            guard isMember else { return }
            if let c = world.config.chunking { writeChunked(objectID, size: size, c, sim) } else { write(objectID, size: size, sim) }
        case .delete(let objectID): if isMember { write(objectID, size: nil, sim) }
        case .setOnline(let on, let reason): setOnline(offline.set(reason, on ? nil : true) == nil, sim)
        case .invite(let invitee): invite(invitee, sim)
        case .receive: if online { startRound(sim) }
        case .confirm, .answerResend: break   // no confirms or resends: the server's outbox tracks delivery
        }
    }

    /// The owner invites `invitee` now, or when it is next online.
    func invite(_ invitee: Int, _ sim: Simulation<CentralEvent>) {
        guard isMember, invitee != index, world.joinedAt[invitee] == nil else { return }
        guard online else {
            if !pendingInvitations.contains(invitee) { pendingInvitations.append(invitee) }
            return
        }
        world.join(invitee, sim)
    }

    func setOnline(_ on: Bool, _ sim: Simulation<CentralEvent>) {
        guard on != online else { return }
        online = on
        if on { deriveStoreKey(sim) }
        if !on { inflight = [:]; uploading = false; round = nil; roundAgain = false; return }
        let waiting = pendingInvitations
        pendingInvitations = []
        for invitee in waiting { invite(invitee, sim) }
        uploadNext(sim)
        if world.config.receive.onReconnect { startRound(sim) }
    }

    /// `sender.update` / `sender.delete`: applies locally and queues one upload for the members.
    func write(_ objectID: String, size: Int?, _ sim: Simulation<CentralEvent>) {
        sequence += 1
        let version = ObjectVersion(time: sim.now.nanoseconds / 1_000_000_000, sender: world.nodeIDs[index], sequence: sequence)
        let content = size.map { "\(objectID)#\(version)#\($0)" }
        let messageID = MessageIDGenerator.make(using: &rng)
        world.writes.append(ObjectWrite(device: index, messageID: messageID, objectID: objectID, version: version,
                                        content: content, time: sim.now))
        apply(objectID, version, content)
        if let size { chargeAtRest(bytes: size, sim) }
        let receivers = world.members(at: sim.now).filter { $0 != index }
        world.addressed[messageID] = receivers
        unsent.append(CentralUpload(messageID: messageID, objectID: objectID, version: version, content: content,
                                    size: size ?? 0, receivers: receivers))
        uploadNext(sim)
    }

    func apply(_ objectID: String, _ version: ObjectVersion, _ content: String?) {
        if let e = store[objectID], e.version >= version { return }
        store[objectID] = (version, content)
    }

    func holds(_ objectID: String, atLeast version: ObjectVersion) -> Bool {
        store[objectID].map { $0.version >= version } ?? false
    }

    // MARK: Requests

    func send(_ call: CentralCall, _ purpose: Purpose, bytes: Int, cpu: SimDuration = .zero, _ sim: Simulation<CentralEvent>) {
        let id = world.takeRequestID()
        inflight[id] = purpose
        // Marshalling or storing (`cpu`) and the per-request cost of the device profile delay the send.
        let leave = max(sim.now, cpuFreeAt) + cpu + world.config.device.requestTime
        cpuFreeAt = leave
        let arrival = world.network.requestArrival(device: index, server: 0, bytes: bytes, at: leave)
            + world.network.requestDelay(device: index, sentAt: leave)
        sim.schedule(.request(CentralRequest(requestID: id, device: index, sentAt: leave, call: call)),
                     to: world.serverComponent, at: arrival)
    }

    func uploadNext(_ sim: Simulation<CentralEvent>) {
        guard online, isMember, !uploading, let u = unsent.first else { return }
        uploading = true
        let cpu = world.config.device.syncTime(jsonBytes: u.size, storeWrites: 1)
        send(.upload(u), .upload, bytes: u.size + 200 + 40 * u.receivers.count, cpu: cpu, sim)
    }

    func startRound(_ sim: Simulation<CentralEvent>) {
        guard isMember else { return }
        guard round == nil else { roundAgain = true; return }
        round = []
        send(.list, .list, bytes: 100, sim)
    }

    func response(_ purpose: Purpose, _ outcome: CentralOutcome, _ sim: Simulation<CentralEvent>) {
        guard case .reply(let reply) = outcome else {
            if purpose == .upload { uploading = false; world.uploadFailures += 1 } else { round = nil }
            return
        }
        switch (purpose, reply) {
        case (.upload, _):
            uploading = false
            let u = unsent.removeFirst()
            world.uploads += 1
            if u.content == nil { world.deleteUploads += 1 }
            uploadNext(sim)
        case (.list, .transfers(let listings)):
            round = listings
            nextTransfer(sim)
        case (.fetch, .file(let f)):
            world.fetched += 1
            if let (content, id) = received(f, sim) {
                apply(f.objectID, f.version, content)
                onDelivered?(content != nil ? [id] : [])   // a delete: no update, but the store changed
            }
            let cpu = world.config.device.syncTime(jsonBytes: f.size, storeWrites: 1)
            send(.close(transfer: round!.removeFirst().transfer, status: .delivered), .close, bytes: 100, cpu: cpu, sim)
        case (.fetch, _):
            round?.removeFirst()
            nextTransfer(sim)
        default: nextTransfer(sim)   // closed or gone
        }
    }

    /// Handles the next listing of the round: decline what is superseded, fetch the rest.
    func nextTransfer(_ sim: Simulation<CentralEvent>) {
        guard let listings = round else { return }
        guard let l = listings.first else {
            round = nil
            if roundAgain { roundAgain = false; startRound(sim) }
            return
        }
        let newer = listings.dropFirst().contains { $0.objectID == l.objectID && $0.version > l.version }
        if store[l.objectID]?.version == l.version {   // fetched before a disconnect cut the acknowledgement
            round!.removeFirst()
            send(.close(transfer: l.transfer, status: .delivered), .close, bytes: 100, sim)
        } else if newer || holds(l.objectID, atLeast: l.version) {
            round!.removeFirst()
            world.declined += 1
            send(.close(transfer: l.transfer, status: .declined), .close, bytes: 100, sim)
        } else {
            send(.fetch(transfer: l.transfer), .fetch, bytes: 100, sim)
        }
    }
}
