import SimKernel

/// An invitation the owner has started: the invitee's access keys per server as the servers
/// answer, and how many answers are still due.
struct OpenInvitation {
    var invitee: Int
    var keys: [String?]
    var answersDue: Int
}

/// The membership core: creating the group, the face-to-face invitation, keys registered
/// late, and the invitee's side. Setup calls are effects (`setup`) whose answers come back as
/// `setupAnswered`; what the owner hands an invitee is an effect (`handOver`) that arrives
/// there as `handedOver`. The adapter answers a setup call at once, so each step ends where
/// the same steps made in one go would.
extension DeviceNode {
    /// The owner creates the group on every server: `group/register`, then `group/init` and
    /// `user/add` for itself with the master key; once every server has answered, it registers
    /// its device token with each access key it got.
    func createGroup(_ out: some EffectSink) {
        groupSetupsDue = config.servers
        for j in 0..<config.servers {
            out.setup(.groupRegister(groupID: directory.groupID, name: "group", ownerNode: node), on: j, key: "",
                      answer: .groupRegistered(server: j))
        }
    }

    /// The answer to a setup call the core asked for (`answer` nil: the server could not
    /// answer now).
    func setupAnswered(_ purpose: SetupPurpose, _ answer: Result<ServerReply, ServerError>?, _ out: some EffectSink) {
        switch purpose {
        case .groupRegistered(let j):
            guard case .success(.masterKey(let master))? = answer else { return groupServerDone(out) }
            masterKeys[j] = master
            out.setup(.groupInit(k: config.k, n: config.servers, s: config.s, ttl: config.ttl), on: j, key: master)
            out.setup(.userAdd(node: node, isOwner: true), on: j, key: master, answer: .ownerAdded(server: j))
        case .ownerAdded(let j):
            if case .success(.accessKey(let key))? = answer { accessKeys[j] = key }
            groupServerDone(out)
        case .memberAdded(let invitee, let j):
            guard let i = openInvitations.firstIndex(where: { $0.invitee == invitee }) else { return }
            if case .success(.accessKey(let key))? = answer { openInvitations[i].keys[j] = key }
            openInvitations[i].answersDue -= 1
            if openInvitations[i].answersDue == 0 { handOverInvitation(openInvitations.remove(at: i), out) }
        case .lateMemberAdded(let invitee, let j):
            guard case .success(.accessKey(let key))? = answer else { pendingRegistrations.append((invitee, j)); return }
            out.handOver(.accessKey(server: j, key: key), to: invitee)
            out.log("late key for \(deviceLabel(invitee)) on server \(serverNumber(j))")
        }
    }

    /// One server's part of the group's creation is over; after the last one the owner is a
    /// member.
    private func groupServerDone(_ out: some EffectSink) {
        groupSetupsDue -= 1
        guard groupSetupsDue == 0 else { return }
        isMember = true
        joinedAt = out.now
        members = [node]
        registerDeviceToken(out)
        out.log("create group")
    }

    /// `user/deviceToken` on every server where this device has an access key.
    func registerDeviceToken(_ out: some EffectSink) {
        for j in 0..<config.servers {
            guard let key = accessKeys[j] else { continue }
            out.setup(.userDeviceToken("token-\(node)"), on: j, key: key)
        }
    }

    /// Face-to-face invitation: the owner registers `invitee` (`user/add` with the master key)
    /// on every server it created the group on, then hands it the access keys, the server
    /// list, the member list and every normal message it holds. Offline, the invitation waits
    /// until the owner is back.
    func invite(_ invitee: Int, _ out: some EffectSink) {
        let guest = directory.nodeIDs[invitee]
        guard isMember, !members.contains(guest), invitee != index,
              !openInvitations.contains(where: { $0.invitee == invitee }) else { return }
        guard online else {
            if !pendingInvitations.contains(invitee) { pendingInvitations.append(invitee) }
            out.log("invite \(deviceLabel(invitee)) postponed: owner offline")
            return
        }
        let servers = (0..<config.servers).filter { masterKeys[$0] != nil }
        let invitation = OpenInvitation(invitee: invitee, keys: Array(repeating: nil, count: config.servers),
                                        answersDue: servers.count)
        guard !servers.isEmpty else { return handOverInvitation(invitation, out) }
        openInvitations.append(invitation)
        for j in servers {
            out.setup(.userAdd(node: guest, isOwner: false), on: j, key: masterKeys[j]!,
                      answer: .memberAdded(invitee: invitee, server: j))
        }
    }

    /// Every server has answered the invitation: the servers that gave no key are retried
    /// later (`retryRegistrations`), and the invitee gets what the owner hands it.
    private func handOverInvitation(_ invitation: OpenInvitation, _ out: some EffectSink) {
        let invitee = invitation.invitee
        for j in 0..<config.servers where invitation.keys[j] == nil { pendingRegistrations.append((invitee, j)) }
        members.append(directory.nodeIDs[invitee])
        let handover = held.handover(index: stores.heldIndex).map { stores.registry[$0] }
        out.log("invite \(deviceLabel(invitee)): \(invitation.keys.compactMap { $0 }.count) keys, "
            + "\(handover.count) messages")
        out.handOver(.invitation(keys: invitation.keys, members: members, messages: handover), to: invitee)
    }

    /// Registrations that failed at an invitation because the server was down: the owner tries
    /// again (with its unsent retries) and hands the key to the member when it succeeds.
    func retryRegistrations(_ out: some EffectSink) {
        guard !pendingRegistrations.isEmpty else { return }
        let waiting = pendingRegistrations
        pendingRegistrations = []
        for (invitee, j) in waiting {
            guard let master = masterKeys[j] else { pendingRegistrations.append((invitee, j)); continue }
            out.setup(.userAdd(node: directory.nodeIDs[invitee], isOwner: false), on: j, key: master,
                      answer: .lateMemberAdded(invitee: invitee, server: j))
        }
    }

    /// Invitations postponed while the owner was offline, in the order they were asked for.
    func retryInvitations(_ out: some EffectSink) {
        let waiting = pendingInvitations
        pendingInvitations = []
        for invitee in waiting { invite(invitee, out) }
    }

    /// The invitee's side of the face-to-face step: with an invitation it becomes a member and
    /// runs the handed-over messages through Algorithm 1; a late key registers its device
    /// token once more.
    func handedOver(_ h: FaceToFace, _ out: some EffectSink) {
        switch h {
        case .invitation(let keys, let members, let messages):
            accessKeys = keys
            self.members = members
            isMember = true
            joinedAt = out.now
            registerDeviceToken(out)
            _ = handleAll(order(messages), out)
            if online { requestReceive(out) }
        case .accessKey(let j, let key):
            accessKeys[j] = key
            registerDeviceToken(out)
        }
    }

    /// The device goes offline (it leaves) or comes back. Back online, it derives its store
    /// key and, as a member, makes what waited for it: invitations and registrations, unsent
    /// messages, a confirmation, a receive, the outbox. The adapter fails the requests still
    /// open when it goes offline.
    func setOnline(_ on: Bool, _ out: some EffectSink) {
        guard on != online else { return }
        online = on
        out.log(on ? "online" : "offline")
        guard on else { return }
        deriveStoreKey(out)
        guard isMember else { return }
        if config.variant == .asBuilt { wedged = false }  // the app relaunches
        retryInvitations(out)
        retryRegistrations(out)
        if config.unsent.onReconnect { retryUnsent(out) }
        let asBuiltDemo = config.variant == .asBuilt && config.asBuilt.confirmAfterReceiveOncePerTTL
        if config.confirm.onReconnect && !asBuiltDemo { senderConfirm(out) }
        if config.receive.onReconnect { requestReceive(out) }
        kickOutbox(out)
    }
}
