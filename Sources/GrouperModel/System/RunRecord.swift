import SimKernel

extension ObjectWrite {
    /// "by D<writer> at <time>" for the write of `writes` with `version` (devices from 1).
    static func describe(_ version: ObjectVersion, among writes: [ObjectWrite]) -> String {
        guard let w = writes.first(where: { $0.version == version }) else { return "of a version nobody wrote" }
        return "by \(deviceLabel(w.device)) at \(w.time)"
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

    /// A write whose content's compact form is already known (`MarshalledContent.marshalled`).
    init(device: Int, messageID: String, objectID: String, version: ObjectVersion, storedContent: MarshalledContent?,
         time: SimTime) {
        self.device = device; self.messageID = messageID; self.objectID = objectID; self.version = version
        self.storedContent = storedContent; self.time = time
    }

    /// Whether this write's content is `content` (nil: a delete), without rebuilding it.
    func hasContent(_ content: String?) -> Bool {
        guard let stored = storedContent, let content else { return storedContent == nil && content == nil }
        return stored.matches(content, objectID: objectID, updater: version.sender, time: version.time)
    }

    /// `hasContent`, each content parsed once (`FillerSizeMemo`).
    func hasContent(_ content: String?, sizes: inout FillerSizeMemo) -> Bool {
        guard let stored = storedContent, let content else { return storedContent == nil && content == nil }
        return stored.matches(content, objectID: objectID, updater: version.sender, time: version.time, sizes: &sizes)
    }
}

/// What really happened in a run, for the checkers and the metrics: every write issued, the
/// messages stored on enough servers, what hostile or restarting servers did, what was sent
/// (digests and summaries, kept only when a checker needs them), exposure to coalitions.
/// The nodes write it as they act; nothing in the protocol reads it to decide. No simulator in it.
final class RunRecord {
    let registry: MessageRegistry
    /// The receivers' rebuild policy (`sentInfo` is kept only for `check` and `correct`).
    let rebuild: RebuildPolicy
    /// Called with every message a device creates (`GrouperSystem.observeMessages`); nil: off.
    var messageObserver: ((GrouperMessage) -> Void)?
    var writes: [ObjectWrite] = []
    /// Per sender node, by its number in `senderNumbers`: the indices in `writes` of its
    /// writes, in order (`writeIndex(of:)`).
    private(set) var writesBySender: [[Int32]] = []
    private var senderNumbers = StringNumbering()
    /// Per device index, the sender it last recorded a write under and that sender's number:
    /// a device writes as one node, in the very same string, which `==` finds equal at its
    /// first compare, where numbering it hashes its bytes.
    private var senderOfDevice: [(sender: String, number: Int32)?] = []
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
    /// Unicast re-upload copies stored, by (message, requester): when, and on how many servers.
    var reuploadsStored = StoredReuploads()
    /// Copies stored for a requester while an earlier copy of the same message for it was
    /// stored less than a TTL before on enough servers to rebuild (`noteReuploadStored`).
    var repeatedReuploads = 0
    /// The first few of those, described.
    var repeatedReuploadExamples: [String] = []
    /// Every stored re-upload by part (`noteReuploadPart`).
    var reuploadParts: ReuploadParts
    /// Device index of a requester node and whether it holds a normal message (`World.requesterHolds`).
    var requesterHolds: ((String, GrouperMessage) -> (index: Int, holds: Bool)?)?
    /// Digests of every message uploaded, kept only when some server may alter shares
    /// (`verifyDeliveries`): the reference for corrupted deliveries.
    var sentDigests: Set<UInt64> = []
    var verifyDeliveries = false
    /// What each uploaded message was, by registry id number, kept only when receivers rebuild
    /// with `check` or `correct` (the only ones that leave messages unrebuilt because their
    /// shares disagree): what `GrouperSystem.unrecoverableMessages` asks of such a message.
    var sentInfo: [Int32: SentInfo] = [:]
    /// Exposure of messages to colluding servers.
    var coalitions: CoalitionTracker
    /// Each server alone as a "coalition": what one server could read; nil unless
    /// `config.trackExposure`.
    var singles: CoalitionTracker?

    init(config: SystemConfig, registry: MessageRegistry) {
        self.registry = registry
        rebuild = config.rebuild
        reuploadParts = ReuploadParts(ttl: config.ttl)
        coalitions = CoalitionTracker(coalitions: config.coalitions, servers: config.servers, k: config.k)
        if config.trackExposure {
            singles = CoalitionTracker(coalitions: (0..<config.servers).map { Coalition(name: "server-\($0)", servers: [$0]) },
                                       servers: config.servers, k: config.k)
        }
    }

    func noteSent(_ bytes: [UInt8]) {
        if verifyDeliveries { sentDigests.insert(StableHash.fnv1a64(bytes: bytes)) }
    }

    /// Records message `m` (registry number `number`) uploaded by device `sender`, once, when
    /// `sentInfo` is kept.
    func noteSentInfo(_ m: GrouperMessage, number: Int32, sender: Int) {
        guard rebuild != .firstK, sentInfo[number] == nil else { return }
        sentInfo[number] = SentInfo(messageID: m.messageID, type: m.type, sender: sender, receiver: m.receiver,
                                    sequence: m.sequence, content: m.type.isNormal ? "" : m.content, order: sentInfo.count)
    }

    func recordWithheld(server: Int, messageID: String) {
        if !(withheldBy[messageID]?.contains(server) ?? false) { withheldBy[messageID, default: []].append(server) }
    }

    func recordRestartLoss(server: Int, messageIDs: [String]) {
        for id in messageIDs where !(restartLosses[id]?.contains(server) ?? false) {
            restartLosses[id, default: []].append(server)
        }
    }

    func recordWrite(_ w: consuming ObjectWrite) {
        let n = senderNumber(w.version.sender, device: w.device)
        if Int(n) == writesBySender.count { writesBySender.append([]) }
        writesBySender[Int(n)].append(Int32(writes.count))
        writes.append(w)
    }

    /// `senderNumbers.number(of: sender)`, remembered per device.
    private func senderNumber(_ sender: String, device: Int) -> Int32 {
        if device >= 0 && device < senderOfDevice.count, let known = senderOfDevice[device], known.sender == sender {
            return known.number
        }
        let n = senderNumbers.number(of: sender)
        if device >= 0 {
            if device >= senderOfDevice.count { senderOfDevice += Array(repeating: nil, count: device + 1 - senderOfDevice.count) }
            senderOfDevice[device] = (sender, n)
        }
        return n
    }

    /// The index in `writes` of the write of version `v` (a sender's sequence numbers are
    /// unique, so at most one), if `recordWrite` recorded one.
    func writeIndex(of v: ObjectVersion) -> Int? {
        guard let n = senderNumbers.number(ifKnown: v.sender) else { return nil }
        let mine = writesBySender[Int(n)]
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

/// An uploaded message as `RunRecord.sentInfo` keeps it.
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
