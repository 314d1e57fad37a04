import SimKernel

extension DeviceNode {
    /// Where a re-upload of `messageID` for `requester` goes: `.some(requester)` (the thesis:
    /// to the requester only), `.some(nil)` (one multicast re-upload, once
    /// `resendMulticastAfter` different requesters asked within one TTL), or nil (skip: a
    /// multicast re-upload of it is already on its way and will reach the requester too).
    func reuploadReceiver(_ messageID: String, for requester: String, now: SimTime) -> String?? {
        guard let threshold = config.resendMulticastAfter else { return .some(requester) }
        if multicastReuploads.contains(messageID) { return nil }
        if askedBy.count > 4096 { askedBy = askedBy.filter { now - $0.value.since <= config.ttl } }  // bound
        var asked: (requesters: [String], since: SimTime) =
            askedBy[messageID].flatMap { now - $0.since <= config.ttl ? $0 : nil } ?? ([], now)
        if !asked.requesters.contains(requester) { asked.requesters.append(requester) }
        askedBy[messageID] = asked
        guard asked.requesters.count >= threshold else { return .some(requester) }
        askedBy[messageID] = nil
        multicastReuploads.insert(messageID)
        return .some(nil)
    }

    /// A multicast re-upload stored on ≥ s servers: later requests find it on the servers.
    func multicastReuploadDone(_ items: [OutboxItem]) {
        for item in items where item.isReupload && item.shareReceiver == nil {
            multicastReuploads.remove(item.message.messageID)
        }
    }

    /// Servers that must hold a message for the requester before a resend skips it: what the
    /// requester's rebuild policy needs (k for first-k, k + 1 for check and correct).
    var reuploadThreshold: Int { config.rebuild.minimumShares(k: config.k) }

    /// Unicast re-uploads that left the sender's hands (stored on ≥ s servers, where the
    /// existence check finds them for their requester) or never will (dropped, or wedged in
    /// as-built): no longer being answered.
    func reuploadsSettled(_ items: [OutboxItem]) {
        guard !reuploading.isEmpty else { return }
        for item in items where item.isReupload {
            guard let r = item.shareReceiver else { continue }
            reuploading.remove(ReuploadKey(messageID: item.message.messageID, requester: r))
        }
    }
}

extension DeviceNode {
    /// Records the unicast re-uploads of a job stored on `servers` servers, and counts a copy
    /// stored again while an earlier one for the same requester, stored less than a TTL ago
    /// on at least `reuploadThreshold` servers, should still be there: with honest servers
    /// that copy is wasted (the one-copy-per-requester rule of `answerResend`; explore's
    /// `reuploads` oracle reads the count on fault-free runs). Observation only.
    func noteReuploadsStored(_ items: [OutboxItem], servers: Int, now: SimTime) {
        for item in items where item.isReupload {
            let n = record.registry.idNumber(item.message.messageID)
            record.noteReuploadPart(item.message, number: n, device: index, requester: item.shareReceiver, at: now)
            guard let r = item.shareReceiver else { continue }
            let prev = record.reuploadsStored.store(number: n, requester: r, at: now, servers: servers, ttl: config.ttl)
            if let prev, prev.servers >= reuploadThreshold {
                record.repeatedReuploads += 1
                if record.repeatedReuploadExamples.count < 3 {
                    record.repeatedReuploadExamples.append("\(label(item.message)) by \(deviceLabel(index)) for \(directory.name(ofNode: r)) "
                        + "stored at \(now), an earlier copy at \(prev.at) on \(prev.servers) servers")
                }
            }
        }
    }
}

/// One of my messages being answered for one requester (`DeviceNode.reuploading`).
struct ReuploadKey: Hashable, Sendable {
    let messageID: String
    let requester: String

    /// The message id alone: equal keys have equal ids, a message is rarely answered for more
    /// than one requester at once, and each string hashed costs a pass of SipHash over it.
    func hash(into h: inout Hasher) { h.combine(messageID) }
}
