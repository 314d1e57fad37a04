import SimKernel

/// What a pending request was for; routes its outcome.
enum RequestPurpose: Sendable {
    case put(jobID: Int, server: Int, count: Int)
    case list(roundID: Int, server: Int)
    case get(roundID: Int, server: Int)
    case existence(taskID: Int, server: Int)
    case notify
}

/// A message waiting to be uploaded, with the seed of its sharing polynomial (re-used on a
/// retry so every upload of a message writes the same shares; see docs/protocol.md).
struct OutboxItem: Sendable {
    var message: GrouperMessage
    var splitSeed: UInt64
    /// Upload's receiver attribute on the servers: nil = multicast, else a node id.
    var shareReceiver: String?
    var isReupload: Bool
    /// True once an upload of this item failed (so `uploadFailures` counts a message once).
    var failedBefore = false
}

/// One device running the Grouper client (sender, receiver, Algorithm 1, sync store,
/// membership).
///
/// It reads the run's `GroupDirectory`, shares the run's message stores (`SharedStores`),
/// writes what it really did to the `RunRecord`, and reaches everything else — its clock,
/// timers, CPU, the servers, the other device of a face-to-face invitation, the log and
/// counters — through the `DeviceContext` each call is given: no simulator, network or CPU
/// model in it (`SimulatedDeviceNode` feeds it from the kernel). Its sender, receiver and
/// membership are cores: each input (`reply(to:_:_:)`, `cpuDone`, `setupAnswered`,
/// `handedOver`, a command) hands its effects to an `EffectSink`, which `handle` makes the
/// adapter (`Performing`) that performs them (docs/architecture.md). All behaviour-relevant iteration is over arrays or sorted keys.
final class DeviceNode {
    let index: Int
    let directory: GroupDirectory
    let stores: SharedStores
    let record: RunRecord

    // What most requests and replies read, declared first: stored properties are laid out in
    // declaration order, so an event loads a few neighbouring lines of this object, not one
    // line per field spread over it.
    var isMember = false
    var online = true
    var pending = PendingRequests()
    /// Per server the group id and its access key ("" where none) that requests carry, built
    /// when that server's key changes, so a request retains one shared box and a server's
    /// sender memo sees the same box on every request (a pointer test).
    private(set) var credentials: [RequestCredentials]

    // Receiver.
    var round: ReceiveRound?
    /// The messages the current round handled, from its processing until it ends (then emptied,
    /// keeping its buffer for the next round's rebuilt messages).
    var roundHandled: [GrouperMessage] = []
    var roundAgain = false
    /// Per server, the share ids downloaded from it and what the current round asked of it.
    var receiving: [ServerReceiveState]
    /// Per server, ids it listed and was asked for but did not serve (withheld, or deleted since
    /// the list): passed over by the rounds that continue a cut list, asked again by the next
    /// round something else starts (a timer, a push, a reconnect), so a withholding window
    /// that ends does not hide those shares for good.
    var passedOver: [[Int]] = []
    /// A receive was asked for while a round ran: the next round is a fresh one.
    var freshRoundPending = false
    var nextRoundID = 1
    /// Collected shares per message id number (`MessageRegistry`): one slot per server.
    var partial = PartialTable()
    /// Id numbers of the messages that received shares in the current round (only they can
    /// become ready).
    var touched: [Int32] = []

    let name: String
    /// The `email` and `name` fields of this device's messages (built once, not per message).
    let email: String, wireName: String
    var rng: Xoshiro256StarStar
    var node: String { directory.nodeIDs[index] }
    var config: SystemConfig { directory.config }

    // Membership and connectivity (`isMember`, `online` and `credentials` above).
    /// The reasons this device is offline (`Outages`): online while none holds.
    var offline = Outages<Bool>()
    /// Access key per server; nil where this device is not registered.
    var accessKeys: [String?] { didSet { credentials = Self.credentials(directory.groupID, accessKeys, keeping: credentials) } }
    /// Master key per server (owner only).
    var masterKeys: [String?]
    var members: [String] = []
    /// (invitee, server) pairs whose `user/add` failed at the invitation (owner only).
    var pendingRegistrations: [(invitee: Int, server: Int)] = []
    /// Invitations asked for while the owner was offline, made when it is back (owner only).
    var pendingInvitations: [Int] = []
    /// Invitations waiting for the servers' answers to their registrations (owner only).
    var openInvitations: [OpenInvitation] = []
    /// Servers whose part of creating the group is not over yet (owner only).
    var groupSetupsDue = 0
    /// When this device became a member (nil: not a member).
    var joinedAt: SimTime?

    // Sender.
    var sequence = 0
    /// My normal messages, index = sequence − 1, with their polynomial seeds (`SentRecord`).
    var sent: [SentRecord] = []
    var outbox: [OutboxItem] = []
    var unsent: [OutboxItem] = []
    var job: UploadJob?
    /// Jobs decided before every server answered: their message types and answers still due.
    var lateJobs: [Int: LateJob] = [:]
    /// Messages (registry id numbers) already counted as `failedButRebuildable`.
    var rebuildableCounted = IDBitset()
    var nextJobID = 1
    var wedged = false
    /// Messages of jobs that wedged the sender (as-built): never finalised, never retried.
    var wedgedItems: [OutboxItem] = []
    /// Messages per upload job now: `batchLimit`, halved after a job that timed out, doubled
    /// back after a success (not in as-built, which repeats the same batch).
    var batchCap: Int
    /// Messages I re-uploaded as unicast (their stored shares may be invisible to others).
    var unicastOverwritten: Set<String> = []
    var resendTasks: [Int: ResendTask] = [:]
    /// Who asked for each of my messages lately, and since when (`resendMulticastAfter`).
    var askedBy: [String: (requesters: [String], since: SimTime)] = [:]
    /// My messages with a multicast re-upload queued or in flight.
    var multicastReuploads: Set<String> = []
    /// (message, requester) pairs being answered: existence check running, or the unicast copy
    /// queued, unsent or in flight (`answerResend`). Each requester gets one copy at a time.
    var reuploading: Set<ReuploadKey> = []
    var nextTaskID = 1
    var lastConfirmAt: SimTime?

    // Receiver, continued.
    /// Id numbers (`MessageRegistry`) of the messages rebuilt so far.
    var rebuilt = IDBitset()
    /// `check`/`correct`: messages whose shares disagreed, with the share ids last tried.
    var undecodable: [Int32: [Int?]] = [:]
    var delivery = DeliveryState()
    var store = NewestVersionWinsStore()
    /// Every normal message held (received or sent), by sender then sequence: handed to invitees.
    var held = HeldMessages()
    /// Chunks of objects not complete yet (`ChunkingConfig`).
    var chunks = ChunkAssembly()
    var onReceive: ((Int, [GrouperMessage]) -> Void)?

    init(index: Int, directory: GroupDirectory, stores: SharedStores, record: RunRecord, rng: Xoshiro256StarStar) {
        self.index = index
        self.name = "device-\(index + 1)"
        email = "d\(index)@group.test"
        wireName = "D\(index)"
        self.directory = directory
        self.stores = stores
        self.record = record
        self.rng = rng
        let config = directory.config
        accessKeys = Array(repeating: nil, count: config.servers)
        credentials = Self.credentials(directory.groupID, accessKeys)
        masterKeys = Array(repeating: nil, count: config.servers)
        receiving = Array(repeating: ServerReceiveState(), count: config.servers)
        batchCap = config.batchLimit
        delivery.plantedGapOffByOne = config.plantedBug == .gapOffByOne
    }

    /// Everything the device does starts here: `ctx` is where it runs (a scripted context in
    /// tests; the simulator's adapter, `SimulatedDeviceNode`, hands its own sink).
    func handle(_ event: consuming GrouperEvent, _ ctx: some DeviceContext) { handle(event, performing(ctx)) }

    /// An event with the sink its effects go to, built once by the caller (the kernel
    /// component is the sink's host). Inlined
    /// into the component, which measured fewer instructions per event (docs/performance.md).
    /// The event is consumed: a reply's payload moves on to the core that takes it, uncopied.
    @inline(__always)
    func handle<C: DeviceHost>(_ event: consuming GrouperEvent, _ out: Performing<C>) {
        switch consume event {
        case .response(let id, let outcome): complete(id, outcome, out)
        case .timeout(let id): complete(id, .timedOut, out)
        case .push:
            if online && isMember && config.receive.onPush { requestReceive(out) }
        case .timer(let t): timer(t, out)
        case .command(let c): command(c, out)
        case .uploadReady(let id): cpuDone(.uploadReady(jobID: id), out)
        case .roundProcessed(let id): cpuDone(.roundProcessed(roundID: id), out)
        case .request, .sweep, .serverCommand: break
        }
    }

    func command<C: DeviceHost>(_ c: DeviceCommand, _ out: Performing<C>) {
        switch c {
        case .update(let id, let size):
            if isMember, let c = config.chunking { senderUpdateChunked(objectID: id, size: size, c, out) }
            else if isMember { senderUpdate(objectID: id, size: size, out) }
        case .delete(let id): if isMember { senderDelete(objectID: id, out) }
        case .confirm: if isMember { senderConfirm(out) }
        case .receive: if isMember && online { requestReceive(out) }
        case .setOnline(let on, let reason): connectivity(offline.set(reason, on ? nil : true) == nil, out)
        case .invite(let invitee): invite(invitee, out)
        case .answerResend(let requester, let range):
            if isMember { answerResend(requester: directory.nodeIDs[requester], range: range, out) }
        }
    }

    func timer<C: DeviceHost>(_ t: DeviceTimer, _ out: Performing<C>) {
        switch t {
        case .confirm:
            if let p = config.confirm.period {
                let asBuiltDemo = config.variant == .asBuilt && config.asBuilt.confirmAfterReceiveOncePerTTL
                if isMember && online && !asBuiltDemo { senderConfirm(out) }
                out.ctx.schedule(.timer(.confirm), after: p)
            }
        case .pull:
            if let p = config.receive.pullPeriod {
                if isMember && online { requestReceive(out) }
                out.ctx.schedule(.timer(.pull), after: p)
            }
        case .unsentRetry:
            if let p = config.unsent.period {
                let onlyLaunch = config.variant == .asBuilt && config.asBuilt.retryOnlyOnLaunch
                if isMember && online { retryRegistrations(out) }
                if isMember && online && !onlyLaunch { retryUnsent(out) }
                out.ctx.schedule(.timer(.unsentRetry), after: p)
            }
        }
    }

    /// Starts each periodic timer at a random phase within its period.
    func startTimers(_ ctx: some DeviceContext) {
        for (t, p) in [(DeviceTimer.confirm, config.confirm.period), (.pull, config.receive.pullPeriod),
                       (.unsentRetry, config.unsent.period)] {
            guard let p else { continue }
            let phase = SimDuration(nanoseconds: Int64(rng.nextDouble() * Double(p.nanoseconds)))
            ctx.schedule(.timer(t), after: phase)
        }
        deriveStoreKey(performing(ctx))
    }

    /// Going offline or back online (`setOnline` of the membership core); going offline breaks
    /// every open connection, whose requests fail in request order.
    func connectivity<C: DeviceHost>(_ on: Bool, _ out: Performing<C>) {
        let wasOnline = online
        setOnline(on, out)
        guard wasOnline && !online else { return }
        for id in pending.sortedIDs { complete(id, .disconnected, out) }
    }

    // MARK: Requests

    /// A request to server `server` with my access key there; its outcome comes back through
    /// `complete`.
    @inline(__always)
    func request(_ call: ServerCall, to server: Int, purpose: RequestPurpose) -> ClientRequest {
        ClientRequest(call: call, server: server, purpose: purpose, credentials: credentials[server], connected: online)
    }

    /// Each server's credentials for group `groupID` with `keys` (a missing key sends ""):
    /// the box of `old` where it already holds those strings, else a new one.
    static func credentials(_ groupID: String, _ keys: [String?], keeping old: [RequestCredentials] = [])
        -> [RequestCredentials] {
        keys.indices.map { j in
            let key = keys[j] ?? ""
            if j < old.count && old[j].groupID == groupID && old[j].key == key { return old[j] }
            return RequestCredentials(groupID: groupID, key: key)
        }
    }

    /// Asks for a request to server `server` (an effect of `out`, the parts of
    /// `request(_:to:purpose:)`).
    @inline(__always)
    func send(_ call: consuming ServerCall, to server: Int, purpose: RequestPurpose, _ out: some EffectSink) {
        out.takeRequest(call, server: server, purpose: purpose, credentials: credentials[server], connected: online)
    }

    func complete<C: DeviceHost>(_ id: Int, _ outcome: consuming RequestOutcome, _ out: Performing<C>) {
        guard let purpose = pending.remove(id) else { return }  // late or duplicate
        reply(to: purpose, outcome, out)
    }

    // MARK: The cores' inputs

    /// The outcome of a request the sender or the receiver asked for (`ClientEffect.request`).
    @inline(__always)
    func reply(to purpose: RequestPurpose, _ outcome: consuming RequestOutcome, _ out: some EffectSink) {
        switch purpose {
        case .put(let job, let server, let count): putDone(job: job, server: server, count: count, outcome, out)
        case .list(let r, let server): listDone(round: r, server: server, outcome, out)
        case .get(let r, let server): getDone(round: r, server: server, outcome, out)
        case .existence(let t, let server): existenceDone(task: t, server: server, outcome, out)
        case .notify: break
        }
    }

    /// The continuation of CPU work (`ClientEffect.cpu`): an upload job's puts may leave, or a
    /// receive round's rebuild and handling are done.
    func cpuDone(_ event: GrouperEvent, _ out: some EffectSink) {
        switch event {
        case .uploadReady(let id): uploadReady(id, out)
        case .roundProcessed(let id): roundProcessed(id, out)
        default: break
        }
    }
}

extension DeviceNode {
    /// `delivery.hasReceived(from:sequence:)`, read in place through `inout` (the observers ask
    /// it per stored re-upload; a read of `delivery` out of the node retains every array of it).
    func hasReceived(from sender: String, sequence: Int) -> Bool {
        func ask(_ d: inout DeliveryState) -> Bool { d.hasReceived(from: sender, sequence: sequence) }
        return ask(&delivery)
    }
}
