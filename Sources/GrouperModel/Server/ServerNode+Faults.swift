import SimKernel

/// How a hostile server (docs/adversaries.md) changes what it serves and stores. The honest service
/// (`UntrustedServer`) runs unchanged; the server node rewrites its replies, remembers
/// replaced shares for `stale`, and shifts or skips its TTL sweep for `early-delete`/`keep`.
extension ServerNode {
    /// Switches behaviour `id` on (or off with nil) from now on.
    func setMisbehaviour(_ id: Int, _ behaviour: ServerMisbehaviour?) {
        misbehaviours.set(id, behaviour)
        switch behaviour {
        case .keep?, .earlyDelete?:
            if !ttlMisbehaviours.contains(behaviour!) { ttlMisbehaviours.append(behaviour!) }
        default: break
        }
    }

    /// The service's answer to `r` as this server sends it (honest unless misbehaving).
    func respond(_ r: ServerRequest, now: SimTime) -> Result<ServerReply, ServerError> {
        let replaced = misbehaviours.stale ? sharesBeingReplaced(r) : nil, firstID = server.nextShareID
        let result = server.handle(r, now: now)
        if let replaced, case .success = result { rememberStale(replaced, firstID: firstID) }
        return misbehaviours.isEmpty ? result : misbehave(result)
    }

    /// Whether a share is hit by a behaviour active on `fraction` of the shares: a pure
    /// function of (run seed, server, share id, salt), so a refetch meets the same answer.
    func hits(_ fraction: Double, shareID: Int, salt: UInt64) -> Bool {
        if fraction <= 0 { return false }
        if fraction >= 1 { return true }
        var sm = SplitMix64(seed: world.config.seed ^ (UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15)
                                ^ (UInt64(shareID) &* 0xBF58_476D_1CE4_E5B9) ^ salt)
        return Double(sm.next() >> 11) * 0x1p-53 < fraction
    }

    /// Before the service handles a put: on a `stale` server, the shares stored now under each
    /// uploaded message id (id and bytes), candidates for being replaced. Nil when not needed.
    func sharesBeingReplaced(_ r: ServerRequest) -> [[(id: Int, share: [UInt8])]]? {
        guard misbehaviours.stale, case .transferPut(let uploads) = r.call else { return nil }
        return uploads.map { up in server.shares.filter { $0.messageID == up.messageID }.map { ($0.id, $0.share) } }
    }

    /// After a successful put: each new share id (assigned in upload order from `firstID`)
    /// maps to the bytes of the share under its message id that the put removed, if any
    /// (whatever the service's keying of re-puts is).
    func rememberStale(_ candidates: [[(id: Int, share: [UInt8])]], firstID: Int) {
        for (i, old) in candidates.enumerated() {
            if let gone = old.last(where: { server.position(ofShare: $0.id) == nil }) { staleShares[firstID + i] = gone.share }
        }
    }

    /// The reply as this server sends it: lists without withheld ids; shares withheld,
    /// stale or tampered.
    func misbehave(_ result: Result<ServerReply, ServerError>) -> Result<ServerReply, ServerError> {
        guard !misbehaviours.isEmpty, case .success(let reply) = result else { return result }
        switch reply {
        case .shareIDs(let ids):
            let f = misbehaviours.withholdFraction(.list)
            return .success(.shareIDs(ShareIDList(ids.filter { id in
                guard hits(f, shareID: id, salt: 1) else { return true }
                if let i = server.position(ofShare: id) { world.record.recordWithheld(server: index, messageID: server.shares[i].messageID) }
                return false
            })))
        case .shares(let ss):
            let withheld = misbehaviours.withholdFraction(.get), tamper = misbehaviours.tamperFraction
            let stale = misbehaviours.stale
            let served = ss.compactMap { s -> ShareDownload? in
                if hits(withheld, shareID: s.shareID, salt: 2) {
                    world.record.recordWithheld(server: index, messageID: s.messageID)
                    return nil
                }
                var out = s
                if stale, let old = staleShares[s.shareID] { out.share = old }
                if hits(tamper, shareID: s.shareID, salt: 3) { out.share = tampered(out.share, messageID: s.messageID) }
                return out
            }
            return .success(.shares(ShareDownloads(served)))
        default: return result
        }
    }

    /// One symbol in the first half of the share shifted by a non-zero delta. The position
    /// comes from (run seed, message id), so every tampering server alters the same byte of
    /// a message (coordinated: the worst case for per-byte decoding); the delta also depends
    /// on the server. The first half of an encoded update holds its content, so a receiver
    /// that joins without checking often accepts altered content that still parses.
    func tampered(_ share: [UInt8], messageID: String) -> [UInt8] {
        var byMessage = SplitMix64(seed: world.config.seed ^ StableHash.fnv1a64(messageID))
        var byServer = SplitMix64(seed: byMessage.next() ^ (UInt64(index + 1) &* 0x94D0_49BB_1331_11EB))
        let kind = world.config.scheme
        let half = max(1, kind.symbolCount(ofShare: share) / 2)
        return kind.altered(share, symbol: Int(byMessage.next() % UInt64(half)), delta: Int(byServer.next() % 255) + 1)
    }

    /// The time the TTL sweep acts as of: `now`, or later by (group TTL − early TTL) on an
    /// `early-delete` server, which thus deletes shares older than the early TTL.
    func sweepTime(_ now: SimTime) -> SimTime {
        guard let early = misbehaviours.earlyDeleteTTL, early < world.config.ttl else { return now }
        return now + (world.config.ttl - early)
    }

    /// Forgets stale bytes of shares the server no longer stores.
    func pruneStale() {
        guard !staleShares.isEmpty else { return }
        staleShares = staleShares.filter { server.position(ofShare: $0.key) != nil }
    }
}

extension ServerNode {
    /// A share kept or served past TTL + sweep period: a protocol failure, unless this server
    /// runs `keep` (then it is the server's doing, counted for the TTL checker's server finding).
    func ttlViolation(_ text: String) {
        if ttlMisbehaviours.contains(.keep) { keptPastTTL += 1 } else { world.record.ttlViolations.append(text) }
    }

    /// The same observations from `server.holdings`, in O(shares stored or deleted by the
    /// event): the held bytes, and the message ids this server started or stopped holding
    /// (each list sorted, as `trackCoalitionHoldings` gives them).
    func observeHoldingChanges(_ now: SimTime) {
        let changes = server.holdings!.drain()
        var touched: [String] = []
        for c in changes {
            heldCostedBytes += c.delta * world.stores.costed(c.id)
            touched.append(c.id)
        }
        if world.config.trackExposure { heldBytes.set(Double(server.holdings!.shareBytes + heldCostedBytes), at: now) }
        guard coalitionHeld != nil, !touched.isEmpty else { return }
        var added: [String] = [], removed: [String] = []
        for id in Set(touched) {
            let holds = server.holdings!.holds(id)
            if holds && !heldIDs.contains(id) { added.append(id); heldIDs.insert(id) }
            else if !holds && heldIDs.contains(id) { removed.append(id); heldIDs.remove(id) }
        }
        guard !added.isEmpty || !removed.isEmpty else { return }
        added.sort(); removed.sort()
        world.record.coalitions.update(server: index, added: added, removed: removed, now: now)
        world.record.singles?.update(server: index, added: added, removed: removed, now: now)
    }

    /// Reports the message ids this coalition member started or stopped holding, by a pass
    /// over the shares: O(shares) per event (plain bookkeeping; compact bookkeeping uses
    /// `observeHoldingChanges`).
    func trackCoalitionHoldings(_ now: SimTime) {
        guard let before = coalitionHeld else { return }
        let after = Array(Set(server.shares.map(\.messageID))).sorted()
        if after == before { return }
        var added: [String] = [], removed: [String] = []
        var i = 0, j = 0
        while i < before.count || j < after.count {
            if j == after.count || (i < before.count && before[i] < after[j]) { removed.append(before[i]); i += 1 }
            else if i == before.count || after[j] < before[i] { added.append(after[j]); j += 1 }
            else { i += 1; j += 1 }
        }
        coalitionHeld = after
        world.record.coalitions.update(server: index, added: added, removed: removed, now: now)
        world.record.singles?.update(server: index, added: added, removed: removed, now: now)
    }
}
