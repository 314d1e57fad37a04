import SimKernel

/// One `sendMessages` call: ≤ batchLimit messages with the same share receiver, put on every
/// server in parallel (one request per server).
struct UploadJob: Sendable {
    let id: Int
    var items: [OutboxItem]
    var shareReceiver: String?
    var perServer: [[ShareUpload]]
    var okServers: [Int] = []
    var failed = 0
    var answered = 0
    var lastAnswerFailed = false
    /// Servers whose put timed out (the batch may be too large to get through in time).
    var timedOut = 0
    var decided = false
    let start: SimTime
    /// When the puts left (the CPU finished encoding and splitting; set by `uploadReady`).
    var ready: SimTime
    var syncTime: SimDuration
    var sharingTime: SimDuration
}

extension DeviceNode {
    func seconds(_ time: SimTime) -> Int64 { time.nanoseconds / 1_000_000_000 }

    func makeMessage(_ type: MessageType, content: String, sequence: Int, objectID: String, receiver: String,
                     at now: SimTime) -> GrouperMessage {
        let m = GrouperMessage(type: type, content: content, sequence: sequence, objectClass: "Record",
                               objectID: objectID, receiver: receiver, sender: node, email: email, name: wireName,
                               sendTime: seconds(now), messageID: MessageIDGenerator.make(using: &rng))
        record.messageObserver?(m)
        return m
    }

    /// `sender.update(object)`: writes locally, then multicasts an update message.
    func senderUpdate(objectID: String, size: Int, _ out: some EffectSink) {
        sequence += 1
        let content = store.marshall(objectID: objectID, size: size, updater: node, time: seconds(out.now))
        let m = makeMessage(.update, content: content, sequence: sequence, objectID: objectID,
                            receiver: GrouperMessage.multicast, at: out.now)
        _ = store.updateRemote(m)
        chargeAtRest(bytes: content.utf8.count, out)
        // What the registry and the write record keep of `content`, known from `size`.
        let compact = MarshalledContent.marshalled(content, size: size)
        assert(compact == MarshalledContent(content, objectID: objectID, updater: m.sender, time: m.sendTime))
        sendNormal(m, compactContent: compact, out)
    }

    /// `sender.delete(object)`: deletes locally, then multicasts a delete message.
    func senderDelete(objectID: String, _ out: some EffectSink) {
        sequence += 1
        let m = makeMessage(.delete, content: objectID, sequence: sequence, objectID: objectID,
                            receiver: GrouperMessage.multicast, at: out.now)
        _ = store.deleteRemote(m)
        sendNormal(m, out)
    }

    /// `compactContent`: the compact form of an update's content (`MarshalledContent`) when
    /// the caller knows it; nil: read from the content.
    func sendNormal(_ m: GrouperMessage, compactContent: MarshalledContent? = nil, _ out: some EffectSink) {
        recordWrite(m, compactContent: compactContent, out)
        enqueueNormal(m, compactContent: compactContent, out)
        kickOutbox(out)
    }

    /// The reference record of a write (`m` is what every member must end with);
    /// `compactContent` as in `sendNormal`.
    func recordWrite(_ m: GrouperMessage, compactContent: MarshalledContent? = nil, _ out: some EffectSink) {
        let content = m.type != .update ? nil
            : compactContent ?? MarshalledContent(m.content, objectID: m.objectID, updater: m.sender, time: m.sendTime)
        record.recordWrite(ObjectWrite(device: index, messageID: m.messageID, objectID: m.objectID,
                                      version: ObjectVersion(of: m), storedContent: content, time: out.now))
    }

    /// Holds, remembers and queues one of my normal messages for upload; `compactContent` as
    /// in `sendNormal`.
    func enqueueNormal(_ m: GrouperMessage, compactContent: MarshalledContent? = nil, _ out: some EffectSink) {
        let handle = stores.pipeline.hold(m, compactContent: compactContent, in: &held)
        let item = OutboxItem(message: m, splitSeed: rng.next(), shareReceiver: nil, isReupload: false)
        sent.append(SentRecord(handle: handle, splitSeed: item.splitSeed))
        out.log("create \(m.type.rawValue)#\(m.sequence) \(m.objectID)")
        outbox.append(item)
    }

    /// `sender.confirm()`: multicasts my highest normal sequence (nothing to confirm at 0).
    func senderConfirm(_ out: some EffectSink) {
        guard config.variant.sendsConfirms, sequence > 0 else { return }
        lastConfirmAt = out.now
        let m = makeMessage(.confirm, content: String(sequence), sequence: 0, objectID: "",
                            receiver: GrouperMessage.multicast, at: out.now)
        out.log("create confirm(\(sequence))")
        if config.variant != .asBuilt {  // a newer confirm supersedes any not yet uploaded
            outbox.removeAll { $0.message.type == .confirm }
            unsent.removeAll { $0.message.type == .confirm }
        }
        outbox.append(OutboxItem(message: m, splitSeed: rng.next(), shareReceiver: nil, isReupload: false))
        kickOutbox(out)
    }

    /// Asks `sender` (a node id) to resend `range` (only its `holes` when given).
    func sendResendRequest(to sender: String, range: ClosedRange<Int>, holes: [ClosedRange<Int>]? = nil,
                           _ out: some EffectSink) {
        let m = makeMessage(.resend, content: DeliveryState.formatRanges(range, holes: holes), sequence: 0, objectID: "",
                            receiver: sender, at: out.now)
        out.count(.resendRequests, type: .resend)
        out.log("create resend(\(m.content)) to \(directory.name(ofNode: sender))")
        outbox.append(OutboxItem(message: m, splitSeed: rng.next(), shareReceiver: sender, isReupload: false))
        kickOutbox(out)
    }

    /// Moves the unsent queue back to the outbox (a fresh polynomial in as-built).
    func retryUnsent(_ out: some EffectSink) {
        guard !unsent.isEmpty else { return }
        let fresh = config.variant == .asBuilt && config.asBuilt.freshPolynomialOnRetry
        for var item in unsent {
            out.count(.unsentRetries, type: item.message.type)
            if fresh { item.splitSeed = rng.next() }
            outbox.append(item)
        }
        out.log("retry \(unsent.count) unsent")
        unsent.removeAll()
        kickOutbox(out)
    }

    func label(_ m: GrouperMessage) -> String {
        switch m.type {
        case .update, .delete: "\(m.type.rawValue)#\(m.sequence)"
        case .confirm: "confirm(\(m.content))"
        case .resend: "resend(\(m.content))"
        }
    }
}
