import SimKernel

/// Group entity (thesis Table 5.1).
public struct GroupEntity: Equatable, Sendable {
    public var id: Int
    public var groupID: String
    public var name: String
    public var members: Int
    public var masterKey: String
    public var createAt: SimTime
    /// n, k, s and TTL; zero until `group/init`.
    public var servers = 0, threshold = 0, safe = 0
    public var ttl = SimDuration.zero
    /// Index into `UntrustedServer.users` of the owner, once added.
    public var owner: Int?
}

/// User entity (thesis Table 5.1).
public struct UserEntity: Equatable, Sendable {
    public var id: Int
    public var node: String
    public var accessKey: String
    public var deviceToken: String?
    /// Index into `UntrustedServer.groups`.
    public var group: Int
}

/// Share entity (thesis Table 5.1). At most one per `ShareKeying` key on a server. Fixed once
/// stored (a re-put stores a new entity), so the download built at the put stays its answer.
///
/// Its bytes, message id, save time and message number live only in that download's box: the
/// entity keeps what a `transfer/get` and a list decide by (id, group, sender, receiver) beside
/// the box, in 48 bytes, so a get reads one line of the server's shares per id.
public struct ShareEntity: Equatable, Sendable {
    /// Fresh on every put, so a re-put is a new id for lists.
    public let id: Int
    /// What `transfer/get` returns for this share (one shared box for every get of it).
    public let download: ShareDownload
    public let group: Int
    /// Index into `users` of the sender.
    public let sender: Int
    /// Index into `users` of the receiver; nil = multicast.
    public let receiver: Int?

    public var share: [UInt8] { download.share }
    public var saveAt: SimTime { download.saveAt }
    public var messageID: String { download.messageID }
    /// `ShareUpload.messageNumber` of the put (simulator bookkeeping, −1: not known).
    public var messageNumber: Int32 { download.messageNumber }

    /// `senderNode` is the node id of user `sender` (the download names the sender by it).
    public init(id: Int, share: [UInt8], saveAt: SimTime, messageID: String, sender: Int, senderNode: String,
                receiver: Int?, group: Int, messageNumber: Int32 = -1) {
        self.id = id; self.sender = sender; self.receiver = receiver; self.group = group
        download = ShareDownload(shareID: id, messageID: messageID, sender: senderNode, share: share, saveAt: saveAt,
                                 messageNumber: messageNumber)
    }
}

/// What identifies one stored share, i.e. which re-put replaces which.
public enum ShareKeying: String, Sendable {
    /// The published server: one share per (group, message id); any re-put replaces it, so a
    /// unicast re-upload for one requester destroys the multicast share and every other
    /// requester's copy. Used by the `as-built` variant.
    case perMessage = "per-message"
    /// One share per (group, message id, receiver), the multicast share being the receiver
    /// "nobody": a re-upload for one requester replaces only that requester's earlier copy.
    /// `transfer/confirm` then reports a message as held only if its multicast share is there.
    /// The simulator's deviation from the published server (docs/protocol.md), used by every
    /// variant except `as-built`.
    case perReceiver = "per-receiver"
}
