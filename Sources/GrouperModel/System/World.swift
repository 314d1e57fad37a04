import SimKernel

extension ObjectWrite {
    /// "by D<writer> at <time>" for the write of `writes` with `version` (devices from 1).
    static func describe(_ version: ObjectVersion, among writes: [ObjectWrite]) -> String {
        guard let w = writes.first(where: { $0.version == version }) else { return "of a version nobody wrote" }
        return "by D\(w.device + 1) at \(w.time)"
    }
}

/// One write issued through `sender.update` / `sender.delete`: the reference for checkers.
public struct ObjectWrite: Equatable, Sendable {
    public var device: Int
    public var messageID: String
    public var objectID: String
    public var version: ObjectVersion
    /// The content, compact when it is what the store marshalls for this write (`MarshalledContent`);
    /// nil for a delete.
    var storedContent: MarshalledContent?
    public var time: SimTime

    /// nil for a delete.
    public var content: String? {
        storedContent?.content(objectID: objectID, updater: version.sender, time: version.time)
    }

    public init(device: Int, messageID: String, objectID: String, version: ObjectVersion, content: String?, time: SimTime) {
        self.device = device; self.messageID = messageID; self.objectID = objectID; self.version = version
        self.storedContent = content.map { MarshalledContent($0, objectID: objectID, updater: version.sender, time: version.time) }
        self.time = time
    }

    /// Whether this write's content is `content` (nil: a delete), without rebuilding it.
    func hasContent(_ content: String?) -> Bool {
        guard let stored = storedContent, let content else { return storedContent == nil && content == nil }
        return stored.matches(content, objectID: objectID, updater: version.sender, time: version.time)
    }
}

/// State shared by the components of one run: configuration, links, ids, counters, logs.
///
/// Owned by `GrouperSystem`; devices and servers hold it strongly (a `let`, so reading it
/// through a node needs no retain), and the world holds them in `deviceNodes` and
/// `serverNodes`: `releaseNodes()` breaks that cycle when the system goes away. Single-threaded.
final class World {
    let config: SystemConfig
    let scheme: any SecretSharingScheme
    var network: NetworkModel
    /// The devices' CPUs (the simulator's side of `DeviceContext.useCPU`).
    var cpu: CPUModel
    var deviceComponents: [ComponentID] = []
    var serverComponents: [ComponentID] = []
    var deviceNodes: [DeviceNode] = []
    var serverNodes: [ServerNode] = []
    /// Node id of device i (UUID-shaped, from the seeded stream "nodes").
    let nodeIDs: [String]
    let deviceByNode: [String: Int]
    let groupID: String
    var counters: ProtocolCounters
    /// One shared copy of each message the devices hold.
    let registry: MessageRegistry
    /// Called with every message a device creates (`GrouperSystem.observeMessages`); nil: off.
    var messageObserver: ((GrouperMessage) -> Void)?
    /// The first message held under each (sender, sequence), shared by the devices' `HeldMessages`.
    let heldIndex: HeldIndex
    /// The receiver's memoised or plain steps (speed only: `ReceivePipeline`), chosen by
    /// `config.compactState`.
    let pipeline: any ReceivePipeline
    var log: [ProtocolLogEntry] = []
    var logEnabled = true
    /// Every timing record while `keepTimings` (else only `timingStats`).
    var timings: [TransferTiming] = []
    var keepTimings = true
    var timingStats = TimingStats()
    var writes: [ObjectWrite] = []
    /// Per sender node: the indices in `writes` of its writes, in order (`writeIndex(of:)`).
    var writesBySender: [String: [Int32]] = [:]
    /// Costed bytes of chunk messages (`ChunkingConfig`) by message id; empty without chunking.
    var costedBytes: [String: Int] = [:]
    /// Safety findings of the TTL checker (shares served or stored past TTL + sweep period).
    var ttlViolations: [String] = []
    /// The message ids stored on ≥ s servers at some time, as bits over the registry's id numbers.
    var uploaded = IDBitset()
    /// Servers (each once, in the order they lost it) that lost a message's shares in a data-losing restart.
    var restartLosses: [String: [Int]] = [:]
    /// Servers (each once) that listed a share of a message but left it out of a reply or a list:
    /// the hostile `withhold` behaviour, for the checkers' findings.
    var withheldBy: [String: [Int]] = [:]
    /// Devices the owner was asked to invite (after the initial members), with the time asked.
    var invitations: [(device: Int, at: SimTime)] = []
    var nextRequestID = 1
    /// Failures that are bugs in the model, not outcomes of the protocol (see `internalFailure`).
    var internalFailures: [String] = []
    /// Unicast re-upload copies stored, by (message, requester): when, and on how many servers.
    var reuploadsStored: [ReuploadKey: (at: SimTime, servers: Int)] = [:]
    /// Copies stored for a requester while an earlier copy of the same message for it was
    /// stored less than a TTL before on enough servers to rebuild (`noteReuploadStored`).
    var repeatedReuploads = 0
    /// The first few of those, described.
    var repeatedReuploadExamples: [String] = []
    /// Digests of every message uploaded, kept only when some server may alter shares
    /// (`verifyDeliveries`): the reference for corrupted deliveries.
    var sentDigests: Set<UInt64> = []
    var verifyDeliveries = false
    /// What each uploaded message was, by registry id number, kept only when receivers rebuild
    /// with `check` or `correct` (the only ones that leave messages unrebuilt because their
    /// shares disagree): what `GrouperSystem.unrecoverableMessages` asks of such a message.
    var sentInfo: [Int32: SentInfo] = [:]
    /// Exposure of messages to colluding servers (issue #11).
    var coalitions: CoalitionTracker
    /// Each server alone as a "coalition": what one server could read (issue #10); nil unless
    /// `config.trackExposure`.
    var singles: CoalitionTracker?

    init(config: SystemConfig, scheme: any SecretSharingScheme, streams: RandomStreams) {
        self.config = config
        self.scheme = scheme
        network = NetworkModel(profile: config.network, devices: config.devices, faults: config.networkFaults, streams: streams)
        cpu = CPUModel(devices: config.devices)
        var rng = streams.stream(named: "nodes")
        nodeIDs = (0..<config.devices).map { _ in MessageIDGenerator.make(using: &rng) }
        var byNode: [String: Int] = [:]
        for (i, n) in nodeIDs.enumerated() { byNode[n] = i }
        deviceByNode = byNode
        var grng = streams.stream(named: "group")
        groupID = MessageIDGenerator.make(using: &grng)
        counters = ProtocolCounters(ttl: config.ttl)
        let registry = MessageRegistry(), heldIndex = HeldIndex()
        self.registry = registry
        self.heldIndex = heldIndex
        pipeline = config.compactState
            ? MemoisedPipeline(scheme: scheme, registry: registry, heldIndex: heldIndex)
            : PlainPipeline(scheme: scheme, registry: registry, heldIndex: heldIndex)
        coalitions = CoalitionTracker(coalitions: config.coalitions, servers: config.servers, k: config.k)
        if config.trackExposure {
            singles = CoalitionTracker(coalitions: (0..<config.servers).map { Coalition(name: "server-\($0)", servers: [$0]) },
                                       servers: config.servers, k: config.k)
        }
    }

    /// Drops the world's references to its nodes, which hold it in turn.
    func releaseNodes() {
        deviceNodes = []
        serverNodes = []
    }

    /// Records a failure of the model's own code (an operation that cannot fail on valid
    /// state did): the run goes on, and its executor reports it as an internal error.
    func internalFailure(_ time: SimTime, _ device: Int, _ text: String) {
        internalFailures.append("\(time) D\(device): \(text)")
        log(time, device, "internal error: " + text)
    }

    func log(_ time: SimTime, _ device: Int, _ text: @autoclosure () -> String) {
        if logEnabled { log.append(ProtocolLogEntry(time: time, device: device, text: text())) }
    }

    /// "D3" for a known node id, the id itself otherwise.
    func name(ofNode node: String) -> String {
        deviceByNode[node].map { "D\($0)" } ?? node
    }

    func noteSent(_ bytes: [UInt8]) {
        if verifyDeliveries { sentDigests.insert(StableHash.fnv1a64(bytes: bytes)) }
    }

    /// Records message `m` (registry number `number`) uploaded by device `sender`, once, when
    /// `sentInfo` is kept.
    func noteSentInfo(_ m: GrouperMessage, number: Int32, sender: Int) {
        guard config.rebuild != .firstK, sentInfo[number] == nil else { return }
        sentInfo[number] = SentInfo(messageID: m.messageID, type: m.type, sender: sender, receiver: m.receiver,
                                    sequence: m.sequence, content: m.type.isNormal ? "" : m.content, order: sentInfo.count)
    }

    func takeRequestID() -> Int {
        defer { nextRequestID += 1 }
        return nextRequestID
    }

    func recordTiming(_ t: TransferTiming) {
        timingStats.add(t)
        if keepTimings { timings.append(t) }
    }

    func recordWithheld(server: Int, messageID: String) {
        if !(withheldBy[messageID]?.contains(server) ?? false) { withheldBy[messageID, default: []].append(server) }
    }

    func recordRestartLoss(server: Int, messageIDs: [String]) {
        for id in messageIDs where !(restartLosses[id]?.contains(server) ?? false) {
            restartLosses[id, default: []].append(server)
        }
    }

    func recordWrite(_ w: ObjectWrite) {
        writesBySender[w.version.sender, default: []].append(Int32(writes.count))
        writes.append(w)
    }

    /// The index in `writes` of the write of version `v` (a sender's sequence numbers are
    /// unique, so at most one), if `recordWrite` recorded one.
    func writeIndex(of v: ObjectVersion) -> Int? {
        guard let mine = writesBySender[v.sender] else { return nil }
        var lo = 0, hi = mine.count   // a sender's sequences grow with its writes
        while lo < hi {
            let mid = (lo + hi) / 2
            if writes[Int(mine[mid])].version.sequence < v.sequence { lo = mid + 1 } else { hi = mid }
        }
        guard lo < mine.count, writes[Int(mine[lo])].version == v else { return nil }
        return Int(mine[lo])
    }

    /// Records that message `id` is stored on ≥ s servers.
    func markUploaded(_ id: String) { uploaded.insert(registry.idNumber(id)) }

    /// Whether message `id` was ever stored on ≥ s servers.
    func wasUploaded(_ id: String) -> Bool { registry.knownNumber(id).map(uploaded.contains) ?? false }
}

/// An uploaded message as `World.sentInfo` keeps it.
struct SentInfo {
    var messageID: String
    var type: MessageType
    var sender: Int
    /// A node id, or `GrouperMessage.multicast`.
    var receiver: String
    var sequence: Int
    /// A control message's content (a confirm's highest sequence, a resend request's range).
    var content: String
    /// Upload order (first upload) among the kept messages.
    var order: Int
}
