import SimKernel

/// The Grouper web service of one provider: entities, endpoints and the TTL sweep.
///
/// Pure state machine: `handle(_:now:)` answers one request at a virtual time. It does not
/// know about the network or about being down (that is `ServerNode`). Invariants: at most one
/// share per `ShareKey` (see `ShareKeying`); `shares` is sorted by share id; a refused request
/// changes nothing. Lookups use dictionaries, but every listing iterates the sorted `shares` array.
public struct UntrustedServer: Sendable {
    public let index: Int
    /// What one stored share is keyed by (the published server: by message id).
    public let keying: ShareKeying
    public internal(set) var groups: [GroupEntity] = []
    public internal(set) var users: [UserEntity] = [] { didSet { pushTargets.removeAll() } }
    /// Sorted by `id` (ids only grow); the sweep removes from the front.
    public internal(set) var shares = FrontTrimmedArray<ShareEntity>()
    var groupByID: [String: Int] = [:]
    var userByKey: [String: Int] = [:]
    var shareIDByMessage: [ShareKey: Int] = [:]
    var nextShareID = 1
    var rng: Xoshiro256StarStar
    /// Keep each group's ids and each user's hidden ids up to date (`UntrustedServer+Lists.swift`); off, every
    /// list is a pass over the shares (the uncompacted switch, `SystemConfig.compactState`).
    public var incrementalLists = true
    /// Per group index: its kept share ids, built on a member's first list (`isBuilt`).
    var groupLists: [GroupShareList] = []
    /// Per user index: how many ids of its group's kept list it may not see, counted on its
    /// first list (−1 until then).
    var hiddenCounts: [Int] = []
    /// Every share was stored no earlier than the one before it (puts store at `now`), so
    /// the first share is the oldest.
    var saveTimesAscend = true
    /// Each device's last resolved (group id, key) (`UntrustedServer+Lookup.swift`).
    var senderMemo = RequestSenderMemo()
    /// Per group: its members with a device token, by node id (`UntrustedServer+Lookup.swift`);
    /// emptied whenever `users` changes.
    var pushTargets: [Int: [(node: String, user: Int)]] = [:]
    /// Shares held per message id, kept on every store and deletion while not nil
    /// (`HoldingsTally`; turned on by observers of exposure and coalitions).
    public var holdings: HoldingsTally?

    public init(index: Int, rng: Xoshiro256StarStar, keying: ShareKeying = .perMessage) {
        self.index = index; self.rng = rng; self.keying = keying
    }

    /// Handles one request. Errors are values; on error nothing changed.
    public mutating func handle(_ request: ServerRequest, now: SimTime) -> Result<ServerReply, ServerError> {
        if case .groupRegister(let gid, let name, let owner) = request.call {
            return register(groupID: gid, name: name, ownerNode: owner, now: now)
        }
        guard let (g, user) = resolveSender(request) else { return .failure(.unknownGroup(request.groupID)) }
        // Compared only where an endpoint takes the master key (not on every member request).
        func isMaster() -> Bool { request.key == groups[g].masterKey }
        switch request.call {
        case .groupRegister: return .failure(.invalidParameters("unreachable"))
        case .groupInfo:
            guard user != nil || isMaster() else { return .failure(.badKey(endpoint: request.call.endpoint)) }
            return .success(.info(info(g)))
        case .groupInit(let k, let n, let s, let ttl):
            guard isMaster() else { return .failure(.masterKeyRequired(endpoint: request.call.endpoint)) }
            return initialise(g, k: k, n: n, s: s, ttl: ttl)
        case .userAdd(let node, let isOwner):
            guard isMaster() else { return .failure(.masterKeyRequired(endpoint: request.call.endpoint)) }
            return addUser(g, node: node, isOwner: isOwner)
        default:
            guard let user else { return .failure(.badKey(endpoint: request.call.endpoint)) }
            return handleMember(request.call, group: g, user: user, now: now)
        }
    }

    mutating func handleMember(_ call: ServerCall, group g: Int, user u: Int, now: SimTime)
        -> Result<ServerReply, ServerError> {
        switch call {
        case .userState: return .success(.state("up"))
        case .userDeviceToken(let token):
            users[u].deviceToken = token
            return .success(.success)
        case .userNotify(let receiver, _, _): return notify(g, from: u, receiver: receiver)
        case .transferPut(let uploads): return put(uploads, group: g, sender: u, now: now)
        case .transferList: return .success(.shareIDs(listShareIDs(group: g, user: u)))
        case .transferGet(let ids): return .success(.shares(get(ids, group: g, user: u)))
        case .transferConfirm(let messageIDs, let requester):
            // Under `.perReceiver` the nil-receiver key is the multicast share: a message is
            // "held" only if every member can fetch it, or, asked for a requester, if the
            // multicast or that requester's own copy is here (docs/protocol.md).
            let r = requester.flatMap { node in users.indices.first { users[$0].group == g && users[$0].node == node } }
            return .success(.missing(messageIDs.filter { id in
                shareIDByMessage[ShareKey(group: g, messageID: id)] == nil
                    && (keying != .perReceiver || r.map { shareIDByMessage[ShareKey(group: g, messageID: id, receiver: $0)] == nil } ?? true)
            }))
        default: return .failure(.invalidParameters("\(call.endpoint) is not a member endpoint"))
        }
    }

    /// A 32-hex-digit key from the server's seeded stream.
    mutating func newKey() -> String {
        let a = rng.next(), b = rng.next()
        return StableHash.hex(a) + StableHash.hex(b)
    }

    mutating func register(groupID: String, name: String, ownerNode: String, now: SimTime)
        -> Result<ServerReply, ServerError> {
        guard !groupID.isEmpty else { return .failure(.invalidParameters("group id must not be empty")) }
        guard groupByID[groupID] == nil else { return .failure(.groupExists(groupID)) }
        let key = newKey()
        groups.append(GroupEntity(id: groups.count + 1, groupID: groupID, name: name, members: 0,
                                  masterKey: key, createAt: now))
        groupByID[groupID] = groups.count - 1
        return .success(.masterKey(key))
    }

    mutating func initialise(_ g: Int, k: Int, n: Int, s: Int, ttl: SimDuration) -> Result<ServerReply, ServerError> {
        if let v = ShareThreshold.violations(k: k, n: n, s: s).first { return .failure(.invalidParameters(v.description)) }
        guard ttl.nanoseconds > 0 else { return .failure(.invalidParameters("ttl: got \(ttl), expected TTL > 0")) }
        groups[g].threshold = k; groups[g].servers = n; groups[g].safe = s; groups[g].ttl = ttl
        return .success(.success)
    }

    mutating func addUser(_ g: Int, node: String, isOwner: Bool) -> Result<ServerReply, ServerError> {
        guard !node.isEmpty else { return .failure(.invalidParameters("node id must not be empty")) }
        guard !users.contains(where: { $0.group == g && $0.node == node }) else { return .failure(.nodeExists(node)) }
        let key = newKey()
        users.append(UserEntity(id: users.count + 1, node: node, accessKey: key, deviceToken: nil, group: g))
        userByKey[key] = users.count - 1
        groups[g].members += 1
        if isOwner { groups[g].owner = users.count - 1 }
        return .success(.accessKey(key))
    }

    func info(_ g: Int) -> GroupInfo {
        let e = groups[g]
        return GroupInfo(groupID: e.groupID, name: e.name, members: e.members, createAt: e.createAt,
                         servers: e.servers, threshold: e.threshold, safe: e.safe, ttl: e.ttl,
                         ownerNode: e.owner.map { users[$0].node } ?? "")
    }

    mutating func notify(_ g: Int, from u: Int, receiver: String) -> Result<ServerReply, ServerError> {
        if receiver == GrouperMessage.multicast {
            let targets = pushTargets(group: g)
            var nodes: [String] = []
            nodes.reserveCapacity(targets.count)
            for t in targets where t.user != u { nodes.append(t.node) }
            return .success(.notified(nodes))
        }
        let members = users.indices.filter { users[$0].group == g && $0 != u }
        guard let r = members.first(where: { users[$0].node == receiver }) else {
            return .failure(.unknownReceiver(receiver))
        }
        return .success(.notified(users[r].deviceToken == nil ? [] : [receiver]))
    }
}

