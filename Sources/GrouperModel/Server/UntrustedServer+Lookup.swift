/// Who a request is from, without hashing its group id and key on every call; whom a
/// multicast notification goes to, without sorting the members on every call.
///
/// `handle` resolves a request's group id to a group and its key to a member of that group
/// through two string-keyed dictionaries. Both only grow (groups and users are never removed,
/// a user's group never changes), so a resolution that found a member stays true for that
/// exact (group id, key) pair forever. Each sending device's last such resolution is kept and
/// reused when its next request carries equal credentials. A device sends one box per server
/// (`DeviceNode.credentials`), and an equal box that is not the kept one replaces it, so the
/// comparison is a pointer check, not a read of a cold box's strings. Requests that resolve
/// to no member are never memoized, so every answer is the dictionaries' answer.
struct RequestSenderMemo: Sendable {
    /// A device's last resolution: the box's identity (kept alive by `boxes`, so never another
    /// box's) and what it resolved to. Plain integers: a lookup retains nothing.
    struct Entry: Sendable {
        var box: ObjectIdentifier
        var group: Int
        var user: Int
    }

    private var byDevice: [Entry?] = []
    /// Per device, the box its entry names (read only when an equal box replaces it).
    private var boxes: [RequestCredentials?] = []
    static let maxDevices = 1 << 16

    mutating func lookup(device: Int, credentials: RequestCredentials) -> (group: Int, user: Int)? {
        guard device >= 0 && device < byDevice.count, let e = byDevice[device] else { return nil }
        if e.box == ObjectIdentifier(credentials) { return (e.group, e.user) }
        guard let kept = boxes[device], kept == credentials else { return nil }
        remember(device: device, credentials: credentials, group: e.group, user: e.user)   // the box it sends now
        return (e.group, e.user)
    }

    mutating func remember(device: Int, credentials: RequestCredentials, group: Int, user: Int) {
        guard device >= 0 && device < Self.maxDevices else { return }
        if device >= byDevice.count {
            byDevice.append(contentsOf: repeatElement(nil, count: device + 1 - byDevice.count))
            boxes.append(contentsOf: repeatElement(nil, count: device + 1 - boxes.count))
        }
        byDevice[device] = Entry(box: ObjectIdentifier(credentials), group: group, user: user)
        boxes[device] = credentials
    }
}

extension UntrustedServer {
    /// The group of `request.groupID` and the member whose access key is `request.key` (nil:
    /// not a member of that group), as `groupByID` and `userByKey` give them.
    mutating func resolveSender(_ request: ServerRequest) -> (group: Int, user: Int?)? {
        if let hit = senderMemo.lookup(device: request.device, credentials: request.credentials) {
            return (hit.group, hit.user)
        }
        guard let g = groupByID[request.groupID] else { return nil }
        let user = userByKey[request.key].flatMap { users[$0].group == g ? $0 : nil }
        if let user { senderMemo.remember(device: request.device, credentials: request.credentials, group: g, user: user) }
        return (g, user)
    }
}

extension UntrustedServer {
    /// The members of group `g` with a device token, sorted by node id: whom a multicast
    /// `user/notify` pushes (minus the caller). Kept until `users` changes.
    mutating func pushTargets(group g: Int) -> [(node: String, user: Int)] {
        if let t = pushTargets[g] { return t }
        let t = users.indices.filter { users[$0].group == g && users[$0].deviceToken != nil }
            .map { (node: users[$0].node, user: $0) }.sorted { $0.node < $1.node }
        pushTargets[g] = t
        return t
    }
}
