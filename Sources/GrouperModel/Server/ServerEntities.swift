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

/// Share entity (thesis Table 5.1). At most one per (group, message id) on a server.
public struct ShareEntity: Equatable, Sendable {
    /// Fresh on every put, so a re-put is a new id for lists.
    public var id: Int
    public var share: [UInt8]
    public var saveAt: SimTime
    public var messageID: String
    /// Index into `users` of the sender.
    public var sender: Int
    /// Index into `users` of the receiver; nil = multicast.
    public var receiver: Int?
    public var group: Int
}
