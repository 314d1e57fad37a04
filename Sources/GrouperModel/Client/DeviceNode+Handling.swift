import SimKernel

/// A resend being answered: asking the servers (`transfer/confirm`) which messages are gone.
struct ResendTask: Sendable {
    let id: Int
    let requester: String
    var items: [OutboxItem]
    /// Servers that said they still hold item i.
    var holders: [Int]
    var waiting: Int
}

extension DeviceNode {
    /// Runs Algorithm 1 on each message in order; returns the messages handled (not dropped)
    /// and the number of store writes.
    func handleAll(_ messages: [GrouperMessage], _ out: some EffectSink) -> ([GrouperMessage], Int) {
        var handled = HandledMessages(given: messages), writes = 0
        let pipeline = stores.pipeline
        for m in messages {
            let hints = pipeline.deliveryHints(m)
            let actions = delivery.decide(m, now: out.now, variant: config.variant, asBuilt: config.asBuilt,
                                          resendRetry: config.resendRetry, ownSequence: sequence,
                                          idNumber: hints.idNumber, senderSlot: hints.senderSlot,
                                          ranges: config.resendRanges)
            if !m.type.isNormal, !actions.isDuplicate {
                out.log("handle \(label(m)) from \(directory.name(ofNode: m.sender))")
                handled.append(m)
            }
            if let a = actions.request { perform(request: a, out) }
            switch actions.verdict {
            case .apply: apply(m, pipeline, handled: &handled, writes: &writes, out)
            case .duplicate: out.count(.duplicatesDropped, type: m.type)
            case .absent, .needsNothing: break
            }
        }
        return (handled.messages, writes)
    }

    /// Algorithm 1's request for a message: ask its sender to resend, or answer a resend.
    private func perform(request a: DeliveryAction, _ out: some EffectSink) {
        switch a {
        case .askResend(let sender, let range, let holes):
            if config.recovery.receiverAsks { sendResendRequest(to: sender, range: range, holes: holes, out) }
        case .answerResend(let requester, let range, let holes):
            answerResend(requester: requester, range: range, holes: holes, out)
        case .apply, .duplicate, .none:
            preconditionFailure("not a request: \(a)")
        }
    }

    /// Algorithm 1's apply of normal message `msg`: held, then written to the store once its
    /// object is whole. `pipeline` is the run's (`stores.pipeline`, read once per round).
    private func apply(_ msg: GrouperMessage, _ pipeline: any ReceivePipeline, handled: inout HandledMessages,
                       writes: inout Int, _ out: some EffectSink) {
        writes += 1
        _ = pipeline.hold(msg, in: &held)
        out.log("handle \(label(msg)) from \(directory.name(ofNode: msg.sender))")
        switch assemble(msg, out) {
        case .itself:
            pipeline.apply(msg, to: &store)
            handled.append(msg)
        case .whole(let whole):
            pipeline.apply(whole, to: &store)
            handled.append(whole)
        case .nothing:
            break   // a chunk of an incomplete object
        }
    }

    /// Looks up my normal messages in `range` (only those in `holes` when given: a request of
    /// `ResendRanges.holes`) and asks every server which are gone for the requester. A message already being answered for this requester (its existence check
    /// running, or its copy for it queued, unsent or in flight: `reuploading`) is left out, so
    /// overlapping requests merge and each requester gets one copy at a time.
    func answerResend(requester: String, range: ClosedRange<Int>, holes: [ClosedRange<Int>]? = nil,
                      _ out: some EffectSink) {
        guard range.lowerBound <= sent.count else { return }
        var items = (holes ?? [range]).flatMap { r in
            r.lowerBound <= sent.count ? sentItems((r.lowerBound - 1)..<min(r.upperBound, sent.count)) : []
        }
        let id = nextTaskID
        nextTaskID += 1
        guard config.recovery.senderChecksServers else {
            return reupload(ResendTask(id: id, requester: requester, items: items,
                                       holders: Array(repeating: 0, count: items.count), waiting: 0), out)
        }
        if !reuploading.isEmpty && config.plantedBug != .duplicateReupload {
            items.removeAll { reuploading.contains(ReuploadKey(messageID: $0.message.messageID, requester: requester)) }
            if items.isEmpty {
                out.log("resend(\(DeliveryState.formatRanges(range, holes: holes))) from \(directory.name(ofNode: requester)): "
                    + "already being answered")
                return
            }
        }
        for item in items { reuploading.insert(ReuploadKey(messageID: item.message.messageID, requester: requester)) }
        resendTasks[id] = ResendTask(id: id, requester: requester, items: items,
                                     holders: Array(repeating: 0, count: items.count), waiting: config.servers)
        let ids = items.map(\.message.messageID)
        for j in 0..<config.servers {
            send(.transferConfirm(ids, for: requester), to: j, purpose: .existence(taskID: id, server: j), out)
        }
    }

    func existenceDone(task id: Int, server: Int, _ outcome: RequestOutcome, _ out: some EffectSink) {
        guard var t = resendTasks[id] else { return }
        if case .reply(.missing(let gone)) = outcome {
            let goneSet = Set(gone)
            for (i, item) in t.items.enumerated() where !goneSet.contains(item.message.messageID) { t.holders[i] += 1 }
        }
        t.waiting -= 1
        guard t.waiting == 0 else { resendTasks[id] = t; return }
        resendTasks[id] = nil
        reupload(t, out)
    }

    /// Re-uploads, to the requester only, each message that fewer servers still hold for it
    /// (a multicast share or its own copy) than a rebuild needs (`reuploadThreshold`: k for
    /// first-k, k + 1 for check and correct). On a per-message server (as-built) also each
    /// whose stored shares I overwrote as unicast for someone else before; on a per-receiver
    /// server the multicast share is never overwritten. A message not re-uploaded to the
    /// requester is no longer being answered for it.
    func reupload(_ t: ResendTask, _ out: some EffectSink) {
        var chosen: [OutboxItem] = []
        let overwrites = config.variant.shareKeying == .perMessage, needed = reuploadThreshold
        for (i, item) in t.items.enumerated() {
            let key = ReuploadKey(messageID: item.message.messageID, requester: t.requester)
            guard t.holders[i] < needed || (overwrites && unicastOverwritten.contains(item.message.messageID)),
                  let receiver = reuploadReceiver(item.message.messageID, for: t.requester, now: out.now) else {
                reuploading.remove(key)
                continue
            }
            var copy = item
            copy.isReupload = true
            if config.recovery.multicastReuploads {
                copy.message.messageID = MessageIDGenerator.make(using: &rng)
                record.messageObserver?(copy.message)
                copy.shareReceiver = nil
            } else {
                copy.shareReceiver = receiver
                if overwrites && receiver != nil { unicastOverwritten.insert(item.message.messageID) }
            }
            if let r = copy.shareReceiver {
                record.noteReuploadChosen(copy.message, requester: r)   // its part: what the requester holds now
            } else {
                reuploading.remove(key)   // a multicast: `multicastReuploads` tracks it
            }
            chosen.append(copy)
        }
        let shared = chosen.filter { $0.shareReceiver == nil }, own = chosen.filter { $0.shareReceiver != nil }
        out.log(reuploadLog(shared: shared, own: own, requester: t.requester, needed: needed))   // built only when logged
        outbox.append(contentsOf: shared + own)  // one job each
        kickOutbox(out)
    }

    /// The log line of a resend task's re-uploads.
    func reuploadLog(shared: [OutboxItem], own: [OutboxItem], requester: String, needed: Int) -> String {
        func names(_ items: [OutboxItem]) -> String { items.map { label($0.message) }.joined(separator: ",") }
        var said: [String] = []
        if !shared.isEmpty { said.append("re-upload \(names(shared)) to * (asked for by several)") }
        if !own.isEmpty { said.append("re-upload \(names(own)) to \(directory.name(ofNode: requester))") }
        return said.isEmpty
            ? "resend to \(directory.name(ofNode: requester)): all still on ≥ \(needed) servers for it"
                + (config.resendMulticastAfter == nil ? "" : " or on their way")
            : said.joined(separator: "; ")
    }
}

/// The messages a round handled, in order. Usually exactly the messages it was given (none
/// dropped as a duplicate, none replaced by its reassembled object), and then those are
/// returned as they are instead of being copied into a new array.
struct HandledMessages {
    let given: [GrouperMessage]
    /// While `built` is nil, the handled messages are `given[..<prefix]`.
    private var prefix = 0
    private var built: [GrouperMessage]?

    init(given: [GrouperMessage]) { self.given = given }

    mutating func append(_ m: GrouperMessage) {
        if built == nil {
            if prefix < given.count && GrouperMessage.sameStorage(given[prefix], m) {
                prefix += 1
                return
            }
            built = Array(given[..<prefix])
        }
        built!.append(m)
    }

    var messages: [GrouperMessage] { built ?? (prefix == given.count ? given : Array(given[..<prefix])) }
}
