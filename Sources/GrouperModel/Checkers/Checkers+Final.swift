import SimKernel

/// The one notion of "final version" that the convergence checker and the `delivery_ratio`
/// metric share.
extension GrouperSystem {
    /// The newest write per object: what every member must end with (newest version wins).
    func expectedFinal() -> [String: ObjectWrite] {
        var best: [String: ObjectWrite] = [:]
        for w in world.writes where best[w.objectID].map({ $0.version < w.version }) ?? true { best[w.objectID] = w }
        return best
    }

    /// Whether a store entry shows the final state of its object: the final update's version,
    /// or, when the final write is a delete, no live object (no entry, or any tombstone: an
    /// older delete looks the same to the user; a missed message is the delivery checker's).
    static func holdsFinal(_ entry: StoredObject?, _ final: ObjectWrite) -> Bool {
        final.storedContent == nil ? entry?.content == nil : entry?.version == final.version
    }

    /// Fraction of (member, object) pairs holding the object's final state (`holdsFinal`);
    /// nil when nothing was written or there is no member.
    public var deliveryRatio: Double? {
        let expected = expectedFinal()
        let ids = expected.keys.sorted()
        var good = 0, pairs = 0
        for d in world.deviceNodes where d.isMember {
            let entries = d.store.entries
            for id in ids {
                pairs += 1
                if Self.holdsFinal(entries[id], expected[id]!) { good += 1 }
            }
        }
        return pairs == 0 ? nil : Double(good) / Double(pairs)
    }

    /// Why a device could not rebuild write `w`'s message from the servers (`holding`: the
    /// servers that hold a share it could fetch): a data-losing restart (naming the servers),
    /// the TTL (only once the write is older than the TTL), servers that withheld it, servers
    /// down at the end, or too few holders for the rebuild policy — every cause that applies.
    func lossCause(_ w: ObjectWrite, holding: [Int]) -> String {
        var causes: [String] = []
        let needed = config.rebuild.minimumShares(k: config.k)
        let ttlPassed = sim.now - w.time > config.ttl
        if let servers = world.restartLosses[w.messageID], !servers.isEmpty {
            let restart = "dropped by a data-losing restart of \(Self.servers(servers))"
            causes.append(servers.count < config.servers && ttlPassed ? restart + " (and deleted by the TTL elsewhere)" : restart)
        } else if ttlPassed && holding.count < needed {
            causes.append("deleted by the servers' TTL")
        }
        if let servers = world.withheldBy[w.messageID], !servers.isEmpty {
            causes.append("withheld by \(Self.servers(servers)), which list\(servers.count == 1 ? "s" : "") it but do\(servers.count == 1 ? "es" : "") not serve it")
        }
        let down = holding.filter { world.serverNodes[$0].state != .up }
        if !down.isEmpty { causes.append("\(Self.servers(down)) down at the end") }
        if causes.isEmpty {
            causes.append(holding.count < needed
                ? "held by only \(holding.count) server\(holding.count == 1 ? "" : "s") it can fetch from, fewer than the \(needed) "
                    + "its \(config.rebuild.rawValue) rebuild needs"
                : "not fetched though \(Wording.count(holding.count, "server")) \(holding.count == 1 ? "holds" : "hold") it")
        }
        return causes.joined(separator: ", and ")
    }

    /// "server 3" or "servers 1, 2" (numbered as the scenario file numbers them) for model
    /// indices `list`.
    static func servers(_ list: [Int]) -> String {
        "server\(list.count == 1 ? "" : "s") " + list.sorted().map { "\(serverNumber($0))" }.joined(separator: ", ")
    }

    /// Thesis variant: why recovery has not delivered write `w`'s message to device `d`. "Recovery
    /// still in progress" only when something can still move it: enough shares for `d`'s next
    /// receive round, a resend or re-upload for `d` on its way, or a way for `d` to ask again.
    /// Otherwise the stall: poll-only receivers slower than the TTL, shares that disagree under
    /// check/correct, a withholding server, the sender offline, nothing that makes `d` ask.
    func stallCause(_ w: ObjectWrite, device d: Int, holding: [Int]) -> String {
        let needed = config.rebuild.minimumShares(k: config.k), node = world.nodeIDs[d]
        let sender = world.deviceNodes[w.device], device = world.deviceNodes[d]
        if !config.receive.onPush, config.receive.pullPeriod.map({ $0 >= config.ttl }) ?? true {
            let every = config.receive.pullPeriod.map { "polls only every \($0)" } ?? "never polls"
            return "not recoverable: \(deviceLabel(d)) is not notified and \(every) (not within the TTL \(config.ttl)), "
                + "so a re-upload for it expires before it looks"
        }
        if let n = world.registry.knownNumber(w.messageID), device.undecodable[n] != nil {
            return "not recoverable: the shares \(deviceLabel(d)) collected disagree (a server alters them), so its "
                + "\(config.rebuild.rawValue) rebuild refuses them, and a re-upload brings the same shares"
        }
        let withheld = world.withheldBy[w.messageID] ?? []
        if !withheld.isEmpty {
            return "stalled: \(lossCause(w, holding: holding)), and the sender counts servers that list a message "
                + "as holding it, so it re-uploads only once fewer than \(needed) do"
        }
        if holding.count >= needed {
            return "not delivered yet: recovery still in progress (\(deviceLabel(d))'s next receive round can rebuild it)"
        }
        let onItsWay = sender.reuploading.contains(ReuploadKey(messageID: w.messageID, requester: node))
            || device.outbox.contains { $0.message.type == .resend && $0.shareReceiver == sender.node }
        if onItsWay {
            return "not delivered yet: recovery still in progress (a resend for \(deviceLabel(d)) is on its way)"
        }
        if !sender.online { return "lost: \(lossCause(w, holding: holding)), and its sender \(deviceLabel(w.device)) is offline at the end" }
        let confirms = config.variant.sendsConfirms && config.confirm.period != nil
        guard config.recovery.receiverAsks && confirms else {
            return "lost: \(lossCause(w, holding: holding)), and nothing makes \(deviceLabel(d)) ask for it again "
                + "(no periodic confirms, no later message)"
        }
        return "not delivered yet: \(lossCause(w, holding: holding)), recovery still in progress "
            + "(\(deviceLabel(d)) asks again after the sender's next confirm)"
    }
}
