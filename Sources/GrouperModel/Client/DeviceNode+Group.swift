import SimKernel

extension DeviceNode {
    /// The owner creates the group on every server (`group/register`, `group/init`, `user/add`
    /// for itself, `user/deviceToken`). Setup calls are direct, not timed.
    func createGroup(_ ctx: some DeviceContext) {
        let now = ctx.now
        for (j, server) in world.serverNodes.enumerated() {
            let reg = ServerRequest(requestID: 0, device: index, groupID: world.groupID, key: "",
                                    call: .groupRegister(groupID: world.groupID, name: "group", ownerNode: node))
            guard case .success(.masterKey(let master))? = server.directCall(reg, now: now) else { continue }
            masterKeys[j] = master
            _ = server.directCall(ServerRequest(requestID: 0, device: index, groupID: world.groupID, key: master,
                                                call: .groupInit(k: config.k, n: config.servers, s: config.s,
                                                                 ttl: config.ttl)), now: now)
            if case .success(.accessKey(let key))? = server.directCall(
                ServerRequest(requestID: 0, device: index, groupID: world.groupID, key: master,
                              call: .userAdd(node: node, isOwner: true)), now: now) {
                accessKeys[j] = key
            }
        }
        isMember = true
        joinedAt = now
        members = [node]
        registerDeviceToken(now: now)
        ctx.log("create group")
    }

    func registerDeviceToken(now: SimTime) {
        for (j, server) in world.serverNodes.enumerated() {
            guard let key = accessKeys[j] else { continue }
            _ = server.directCall(ServerRequest(requestID: 0, device: index, groupID: world.groupID, key: key,
                                                call: .userDeviceToken("token-\(node)")), now: now)
        }
    }

    /// Face-to-face invitation: the owner registers `invitee` on every server, then hands it the
    /// access keys, the server list, the member list and every normal message it holds.
    func invite(_ invitee: Int, _ ctx: some DeviceContext) {
        let guest = world.deviceNodes[invitee]
        guard isMember, !guest.isMember, invitee != index else { return }
        guard online else {
            if !pendingInvitations.contains(invitee) { pendingInvitations.append(invitee) }
            ctx.log("invite \(deviceLabel(invitee)) postponed: owner offline")
            return
        }
        var keys: [String?] = Array(repeating: nil, count: config.servers)
        for j in 0..<config.servers {
            keys[j] = register(guest.node, on: j, now: ctx.now)
            if keys[j] == nil { pendingRegistrations.append((invitee, j)) }
        }
        members.append(guest.node)
        let handover = held.handover(index: world.heldIndex).map { world.registry[$0] }
        ctx.log("invite \(deviceLabel(invitee)): \(keys.compactMap { $0 }.count) keys, "
            + "\(handover.count) messages")
        guest.join(keys: keys, members: members, messages: handover, ctx.peer(invitee))
    }

    /// `user/add` of `node` on server `j` with the master key; nil if the server is down.
    func register(_ node: String, on j: Int, now: SimTime) -> String? {
        guard let master = masterKeys[j] else { return nil }
        let add = ServerRequest(requestID: 0, device: index, groupID: world.groupID, key: master,
                                call: .userAdd(node: node, isOwner: false))
        guard case .success(.accessKey(let key))? = world.serverNodes[j].directCall(add, now: now) else { return nil }
        return key
    }

    /// Registrations that failed at an invitation because the server was down: the owner tries
    /// again (with its unsent retries) and hands the key to the member when it succeeds.
    func retryRegistrations(_ ctx: some DeviceContext) {
        guard !pendingRegistrations.isEmpty else { return }
        var still: [(invitee: Int, server: Int)] = []
        for (invitee, j) in pendingRegistrations {
            let guest = world.deviceNodes[invitee]
            guard let key = register(guest.node, on: j, now: ctx.now) else { still.append((invitee, j)); continue }
            guest.accessKeys[j] = key
            guest.registerDeviceToken(now: ctx.now)
            ctx.log("late key for \(deviceLabel(invitee)) on server \(j)")
        }
        pendingRegistrations = still
    }

    /// Invitations postponed while the owner was offline, in the order they were asked for.
    func retryInvitations(_ ctx: some DeviceContext) {
        let waiting = pendingInvitations
        pendingInvitations = []
        for invitee in waiting { invite(invitee, ctx) }
    }

    /// The invitee's side: keys, members, and the handed-over messages run through Algorithm 1.
    func join(keys: [String?], members: [String], messages: [GrouperMessage], _ ctx: some DeviceContext) {
        accessKeys = keys
        self.members = members
        isMember = true
        joinedAt = ctx.now
        registerDeviceToken(now: ctx.now)
        _ = handleAll(order(messages), ctx)
        if online { requestReceive(ctx) }
    }
}
