import SimKernel

/// One share in a `transfer/put` body: the share bytes, its receiver and its message id.
public struct ShareUpload: Equatable, Sendable {
    public var messageID: String
    /// `nil` = multicast (the thesis stores a null receiver); otherwise the receiver's node id.
    public var receiver: String?
    public var share: [UInt8]
    /// The message id's dense number in the run (`MessageRegistry`), carried through the server
    /// back to receivers so that they need not hash the id string; −1: not known (it is then
    /// looked up from `messageID`). Not part of the thesis's API: bookkeeping of the simulator.
    public var messageNumber: Int32
    public init(messageID: String, receiver: String?, share: [UInt8], messageNumber: Int32 = -1) {
        self.messageID = messageID; self.receiver = receiver; self.share = share
        self.messageNumber = messageNumber
    }
}


/// Group attributes as `group/info` returns them (thesis Table 5.1, minus the master key).
public struct GroupInfo: Equatable, Sendable {
    public var groupID: String
    public var name: String
    public var members: Int
    public var createAt: SimTime
    public var servers: Int
    public var threshold: Int
    public var safe: Int
    public var ttl: SimDuration
    public var ownerNode: String
}

/// The RESTful endpoints of the thesis's server (docs/protocol.md, Server), with their parameters. The rare calls with large
/// parameters are `indirect` (boxed), so every request event stays small.
public enum ServerCall: Equatable, Sendable {
    /// No key: returns the master key.
    indirect case groupRegister(groupID: String, name: String, ownerNode: String)
    /// Master or access key.
    case groupInfo
    /// Master key: sets k, n, s, TTL.
    indirect case groupInit(k: Int, n: Int, s: Int, ttl: SimDuration)
    /// Master key: returns the new user's access key.
    case userAdd(node: String, isOwner: Bool)
    /// Access key: "up".
    case userState
    /// Access key.
    case userDeviceToken(String)
    /// Access key: push to `receiver` ("*" = every other member).
    indirect case userNotify(receiver: String, category: String, content: String)
    /// Access key: stores shares; returns how many were saved.
    case transferPut([ShareUpload])
    /// Access key: ids of the shares visible to the caller.
    case transferList
    /// Access key: contents of the given share ids (unknown ids are skipped).
    case transferGet(ShareIDs)
    /// Access key: the message ids among these that the server does not hold (for everyone,
    /// or, naming `for` a member, for everyone or for that member: docs/protocol.md).
    case transferConfirm([String], for: String? = nil)

    public var endpoint: String {
        switch self {
        case .groupRegister: "group/register"
        case .groupInfo: "group/info"
        case .groupInit: "group/init"
        case .userAdd: "user/add"
        case .userState: "user/state"
        case .userDeviceToken: "user/deviceToken"
        case .userNotify: "user/notify"
        case .transferPut: "transfer/put"
        case .transferList: "transfer/list"
        case .transferGet: "transfer/get"
        case .transferConfirm: "transfer/confirm"
        }
    }
}

/// A successful answer (`info`, rare and large, is boxed so every response event stays small).
public enum ServerReply: Equatable, Sendable {
    case masterKey(String)
    case accessKey(String)
    indirect case info(GroupInfo)
    case success
    case state(String)
    case stored(Int)
    case shareIDs(ShareIDList)
    case shares(ShareDownloads)
    case missing([String])
    /// Receivers the notification went to (node ids, sorted); the server pushes them.
    case notified([String])
}

/// A refused request. The server changes nothing when it answers with an error.
public enum ServerError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownGroup(String)
    case groupExists(String)
    case badKey(endpoint: String)
    case masterKeyRequired(endpoint: String)
    case unknownReceiver(String)
    case nodeExists(String)
    case invalidParameters(String)
    case groupNotInitialised

    public var description: String {
        switch self {
        case .unknownGroup(let g): "unknown group \(g)"
        case .groupExists(let g): "group \(g) is already registered"
        case .badKey(let e): "\(e): key not valid for this group (send the master key or a member's access key)"
        case .masterKeyRequired(let e): "\(e): requires the group's master key"
        case .unknownReceiver(let r): "unknown receiver \(r) (not a member of this group)"
        case .nodeExists(let n): "node \(n) is already a member"
        case .invalidParameters(let m): "invalid parameters: \(m)"
        case .groupNotInitialised: "group not initialised (call group/init first)"
        }
    }
}

/// One request as it travels: who sent it, with which key, for which group.
public struct ServerRequest: Equatable, Sendable {
    public var requestID: Int
    public var device: Int
    /// The group id and key, in one shared box: a device sends every request to a server with
    /// the same two strings, so a request retains one object instead of two strings.
    public var credentials: RequestCredentials
    public var call: ServerCall
    /// When the device sent it: the request times out at `sentAt + requestTimeout`.
    public var sentAt: SimTime

    public var groupID: String {
        get { credentials.groupID }
        set { credentials = RequestCredentials(groupID: newValue, key: credentials.key) }
    }
    public var key: String {
        get { credentials.key }
        set { credentials = RequestCredentials(groupID: credentials.groupID, key: newValue) }
    }

    public init(requestID: Int, device: Int, groupID: String, key: String, call: ServerCall, sentAt: SimTime = .zero) {
        self.init(requestID: requestID, device: device, credentials: RequestCredentials(groupID: groupID, key: key),
                  call: call, sentAt: sentAt)
    }

    public init(requestID: Int, device: Int, credentials: RequestCredentials, call: ServerCall, sentAt: SimTime = .zero) {
        self.requestID = requestID; self.device = device; self.credentials = credentials; self.call = call
        self.sentAt = sentAt
    }
}

/// A request's group id and key (immutable). Equal when both strings are equal, whichever box
/// holds them.
public final class RequestCredentials: Equatable, Sendable {
    public let groupID: String
    public let key: String

    public init(groupID: String, key: String) {
        self.groupID = groupID
        self.key = key
    }

    public static func == (a: RequestCredentials, b: RequestCredentials) -> Bool {
        a === b || (a.groupID == b.groupID && a.key == b.key)
    }
}
