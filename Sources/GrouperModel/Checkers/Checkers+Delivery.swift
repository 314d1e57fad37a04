import SimKernel

/// Checkers that cannot pass vacuously: every member-to-be joined, every message reached
/// everyone who was a member when it was written, and nothing is left to send.
extension GrouperSystem {
    /// Devices that should be members by now: the initial members and every device whose
    /// invitation time has come, in device order.
    var membersToBe: [Int] {
        var want = Array(repeating: false, count: config.devices)
        for d in config.startMembers { want[d] = true }
        for i in world.invitations where i.at <= sim.now { want[i.device] = true }
        return want.indices.filter { want[$0] }
    }

    /// Liveness (part of convergence): a member-to-be that is not a member is a finding, so
    /// convergence cannot pass by skipping it.
    func checkMembership() -> [CheckFinding] {
        let owner = world.deviceNodes[0]
        return membersToBe.filter { !world.deviceNodes[$0].isMember }.map { d in
            let why = owner.pendingInvitations.contains(d)
                ? "its invitation waits for the owner \(deviceLabel(0)), offline since it was asked for"
                : "its invitation did not happen"
            return CheckFinding(checker: .convergence, kind: .liveness,
                                message: "\(deviceLabel(d)) is outside the group: \(why)", messageIDs: [])
        }
    }

    /// Liveness: every normal message was handled by every member that was in the group when
    /// it was written (the sender aside), or was provably superseded before it could be: never
    /// stored on ≥ s servers while the device holds a newer version of its object. Catches
    /// lost intermediate writes that newest-version-wins hides from convergence. A chunked
    /// write is one message per chunk: every chunk must have been handled (or be superseded so),
    /// and the object reassembled from them. One finding per device, naming the first few
    /// messages and listing them all.
    public func checkDelivery() -> [CheckFinding] {
        var out: [CheckFinding] = []
        let writes = world.writes
        let chunkCounts = config.chunking == nil ? [] : writes.map { $0.content.flatMap(Self.objectChunkCount) ?? 1 }
        // Each write's sender as an index into `senders`, so a device's delivery state is asked
        // by its local sender number (`senderNumbers`): one hash per sender and device instead
        // of one per write and device.
        var senders: [String] = [], senderOfWrite: [Int] = [], indexOfSender: [String: Int] = [:]
        senderOfWrite.reserveCapacity(writes.count)
        for i in writes.indices {
            let s = writes[i].version.sender
            if let k = indexOfSender[s] { senderOfWrite.append(k); continue }
            indexOfSender[s] = senders.count
            senderOfWrite.append(senders.count)
            senders.append(s)
        }
        for d in world.deviceNodes where d.isMember {
            guard let joined = d.joinedAt else { continue }
            let numbers = d.delivery.senderNumbers(senders)
            var storeEntries: [String: StoredObject]?   // built only for a device that lacks a write
            var entries: [String: StoredObject] {
                get {
                    if let e = storeEntries { return e }
                    storeEntries = d.store.entries
                    return storeEntries!
                }
            }
            var missing: [(write: ObjectWrite, why: String)] = []
            for i in writes.indices where writes[i].device != d.index && writes[i].time >= joined {
                let chunks = chunkCounts.isEmpty ? 1 : chunkCounts[i]
                if chunks > 1 {
                    let w = writes[i]
                    if let why = missingChunks(of: w, count: chunks, device: d, newer: entries[w.objectID]?.version) {
                        missing.append((w, why))
                    }
                    continue
                }
                guard !d.delivery.hasNormal(number: numbers[senderOfWrite[i]], writes[i].version.sequence) else { continue }
                let w = writes[i]
                let superseded = !world.wasUploaded(w.messageID)
                    && (entries[w.objectID].map { $0.version > w.version } ?? false)
                if !superseded { missing.append((w, reason(write: w, device: d.index))) }
            }
            guard !missing.isEmpty else { continue }
            let named = missing.prefix(3).map { w, why in
                "\(w.content == nil ? "delete" : "update") of \(w.objectID) by \(deviceLabel(w.device)) "
                    + "(message \(w.messageID)): \(why)"
            }.joined(separator: "; ")
            out.append(CheckFinding(checker: .delivery, kind: .liveness,
                                    message: "\(deviceLabel(d.index)) never handled \(missing.count) message(s) written while "
                                        + "it was a member: \(named)" + (missing.count > 3 ? "; …" : ""),
                                    messageIDs: missing.map(\.write.messageID)))
        }
        return out
    }

    /// Why device `d` lacks chunked write `w` of `count` chunks (its last chunk's version), or
    /// nil when it handled every chunk and reassembled the object. A missing chunk that was never
    /// stored on ≥ s servers while `d` holds a newer version of the object (`newer`) was
    /// superseded before it could be delivered and does not count.
    func missingChunks(of w: ObjectWrite, count: Int, device d: DeviceNode, newer: ObjectVersion?) -> String? {
        let sender = world.deviceNodes[w.device], last = w.version.sequence, first = last - count + 1
        var lacking: [(index: Int, id: String)] = []
        for seq in first...last where !d.delivery.hasNormal(w.version.sender, seq) {
            guard sender.sent.indices.contains(seq - 1) else { continue }
            let id = world.registry[sender.sent[seq - 1].handle].messageID
            let superseded = !world.wasUploaded(id) && (newer.map { $0 > w.version } ?? false)
            if !superseded { lacking.append((seq - first, id)) }
        }
        if let head = lacking.first {
            var chunk = w
            chunk.messageID = head.id
            return "\(lacking.count) of its \(count) chunk messages never handled, first chunk \(head.index + 1) of \(count) "
                + "(message \(head.id)): \(reason(write: chunk, device: d.index))"
        }
        let handledAll = (first...last).allSatisfy { d.delivery.hasNormal(w.version.sender, $0) }
        if handledAll && d.chunks.partials["\(w.version.sender)/\(first)"] != nil {
            return "\(deviceLabel(d.index)) handled all \(count) chunk messages but never reassembled the object"
        }
        return nil
    }

    /// Liveness: nothing left to send. No device's outbox, unsent queue, upload job or jobs
    /// that wedged an as-built sender hold a normal message, resend request or re-upload (a
    /// confirm is periodic and superseded by the next, so it does not count), no resend is
    /// being answered, and the owner has no registration or invitation waiting.
    public func checkOutbox() -> [CheckFinding] {
        var out: [CheckFinding] = []
        for d in world.deviceNodes {
            let queued = (d.job?.items ?? []) + d.outbox + d.unsent + d.wedgedItems
            let left = queued.filter { $0.message.type != .confirm }
            var parts: [String] = []
            if !left.isEmpty {
                let names = left.prefix(5).map { d.label($0.message) }.joined(separator: ", ")
                parts.append("\(left.count) message(s) to send (\(names)\(left.count > 5 ? ", …" : ""))")
            }
            if !d.resendTasks.isEmpty { parts.append("\(d.resendTasks.count) resend(s) being answered") }
            if !d.pendingRegistrations.isEmpty { parts.append("\(d.pendingRegistrations.count) registration(s) to retry") }
            if !d.pendingInvitations.isEmpty { parts.append("\(d.pendingInvitations.count) invitation(s) to make") }
            guard !parts.isEmpty else { continue }
            let state = !d.online ? "offline" : d.wedged ? "wedged" : "online"
            out.append(CheckFinding(checker: .outbox, kind: .liveness,
                                    message: "\(deviceLabel(d.index)) (\(state)) still has " + parts.joined(separator: ", "),
                                    messageIDs: left.map(\.message.messageID)))
        }
        return out
    }

    /// The chunk count recorded in an object content written by `ChunkRecord.objectContent`
    /// (`{"file":…,"size":S,"chunks":N,…}`), else nil.
    static func objectChunkCount(_ content: String) -> Int? {
        guard content.hasPrefix("{\"file\":"), let r = content.range(of: ",\"chunks\":") else { return nil }
        return Int(content[r.upperBound...].prefix { $0.isNumber })
    }
}
