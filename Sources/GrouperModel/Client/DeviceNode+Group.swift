import SimKernel

extension DeviceNode {
    /// The owner creates the group on every server (`group/register`, `group/init`, `user/add`
    /// for itself, `user/deviceToken`). Setup calls are direct, not timed.
    func createGroup(_ ctx: some DeviceContext) {
        for j in 0..<config.servers {
            let reg = ServerRequest(requestID: 0, device: index, groupID: directory.groupID, key: "",
                                    call: .groupRegister(groupID: directory.groupID, name: "group", ownerNode: node))
            guard case .success(.masterKey(let master))? = ctx.directCall(reg, to: j) else { continue }
            masterKeys[j] = master
            _ = ctx.directCall(ServerRequest(requestID: 0, device: index, groupID: directory.groupID, key: master,
                                             call: .groupInit(k: config.k, n: config.servers, s: config.s,
                                                              ttl: config.ttl)), to: j)
            if case .success(.accessKey(let key))? = ctx.directCall(
                ServerRequest(requestID: 0, device: index, groupID: directory.groupID, key: master,
                              call: .userAdd(node: node, isOwner: true)), to: j) {
                accessKeys[j] = key
            }
        }
        isMember = true
        joinedAt = ctx.now
        members = [node]
        registerDeviceToken(ctx)
        ctx.log("create group")
    }

    func registerDeviceToken(_ ctx: some DeviceContext) {
        for j in 0..<config.servers {
            guard let key = accessKeys[j] else { continue }
            _ = ctx.directCall(ServerRequest(requestID: 0, device: index, groupID: directory.groupID, key: key,
                                             call: .userDeviceToken("token-\(node)")), to: j)
        }
    }

    /// Face-to-face invitation: the owner registers `invitee` on every server, then hands it the
    /// access keys, the server list, the member list and every normal message it holds.
    func invite(_ invitee: Int, _ ctx: some DeviceContext) {
        let (guest, guestContext) = ctx.peer(invitee)
        guard isMember, !guest.isMember, invitee != index else { return }
        guard online else {
            if !pendingInvitations.contains(invitee) { pendingInvitations.append(invitee) }
            ctx.log("invite \(deviceLabel(invitee)) postponed: owner offline")
            return
        }
        var keys: [String?] = Array(repeating: nil, count: config.servers)
        for j in 0..<config.servers {
            keys[j] = register(guest.node, on: j, ctx)
            if keys[j] == nil { pendingRegistrations.append((invitee, j)) }
        }
        members.append(guest.node)
        let handover = held.handover(index: stores.heldIndex).map { stores.registry[$0] }
        ctx.log("invite \(deviceLabel(invitee)): \(keys.compactMap { $0 }.count) keys, "
            + "\(handover.count) messages")
        guest.join(keys: keys, members: members, messages: handover, guestContext)
    }

    /// `user/add` of `node` on server `j` with the master key; nil if the server is down.
    func register(_ node: String, on j: Int, _ ctx: some DeviceContext) -> String? {
        guard let master = masterKeys[j] else { return nil }
        let add = ServerRequest(requestID: 0, device: index, groupID: directory.groupID, key: master,
                                call: .userAdd(node: node, isOwner: false))
        guard case .success(.accessKey(let key))? = ctx.directCall(add, to: j) else { return nil }
        return key
    }

    /// Registrations that failed at an invitation because the server was down: the owner tries
    /// again (with its unsent retries) and hands the key to the member when it succeeds.
    func retryRegistrations(_ ctx: some DeviceContext) {
        guard !pendingRegistrations.isEmpty else { return }
        var still: [(invitee: Int, server: Int)] = []
        for (invitee, j) in pendingRegistrations {
            let (guest, guestContext) = ctx.peer(invitee)
            guard let key = register(guest.node, on: j, ctx) else { still.append((invitee, j)); continue }
            guest.accessKeys[j] = key
            guest.registerDeviceToken(guestContext)
            ctx.log("late key for \(deviceLabel(invitee)) on server \(serverNumber(j))")
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
        registerDeviceToken(ctx)
        let out = performing(ctx)
        _ = handleAll(order(messages), out)
        if online { requestReceive(out) }
    }
}
