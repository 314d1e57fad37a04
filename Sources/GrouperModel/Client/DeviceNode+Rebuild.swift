import SimKernel

/// The receiver's rebuild policy (issue #11): `first-k` joins whatever it has (the thesis);
/// `check` and `correct` wait for k + 1 shares, refuse shares that disagree (`correct` first
/// decodes around up to ⌊(m − k)/2⌋ bad ones), keep them, and try again when more arrive.
extension DeviceNode {
    /// Shares a message needs before the receiver tries to rebuild it.
    var sharesToTry: Int { config.rebuild.minimumShares(k: config.k) }

    /// The secret of message number `n` from its collected shares `p`, or nil: dropped as
    /// corrupt (`first-k`, or malformed shares), or kept for a later round (`check`/`correct`).
    /// Removes `n` from `partial` unless it is kept. `work` gains the join's work.
    func rebuildShares(_ n: Int32, _ p: PartialMessage, work: inout SharingWork, _ ctx: some DeviceContext) -> [UInt8]? {
        let shares = p.shares, mid = p.messageID
        if config.rebuild == .firstK {
            partial[n] = nil
            guard let (secret, w) = try? join(shares, number: n) else { corrupt(mid, ctx); return nil }
            work = work + w
            return secret
        }
        if undecodable[n] == p.shareIDs { return nil }   // no new or replaced share since the last try
        guard let r = try? world.scheme.rebuild(shares, k: config.k, policy: config.rebuild) else {
            partial[n] = nil
            corrupt(mid, ctx)
            return nil
        }
        work = work + r.work
        if !r.consistent && undecodable[n] == nil {
            ctx.count(.tamperDetected, type: .update)
        }
        guard let secret = r.secret else {
            if undecodable[n] == nil {
                ctx.log("cannot rebuild message \(mid) from \(p.count) shares (\(config.rebuild.rawValue)): "
                    + "they disagree; waiting for more")
            }
            undecodable[n] = p.shareIDs
            return nil
        }
        partial[n] = nil
        undecodable[n] = nil
        if !r.badShares.isEmpty {
            ctx.count(.tamperCorrected, type: .update)
            ctx.log("corrected message \(mid) around bad shares from servers "
                + "\(r.badShares.map { serverOfShare(p, $0) })")
        }
        return secret
    }

    /// The `first-k` join of message number `n`'s shares: through the run's shared memo of
    /// joins, or joined here when `compactState` is off.
    func join(_ shares: [[UInt8]], number n: Int32) throws(SharingError) -> (secret: [UInt8], work: SharingWork) {
        guard config.compactState else { return try world.scheme.join(shares, k: config.k) }
        return try world.joins.join(shares, k: config.k, number: n, scheme: world.scheme)
    }

    /// Server index of the `i`-th collected share of `p`.
    private func serverOfShare(_ p: PartialMessage, _ i: Int) -> Int {
        var seen = -1
        for (j, s) in p.slots.enumerated() where s != nil {
            seen += 1
            if seen == i { return j }
        }
        return -1
    }

    /// The message in rebuilt bytes (nil if they do not decode): through the run's shared
    /// cache of decoded messages, or decoded here when `compactState` is off.
    func decode(_ secret: [UInt8], number: Int32) -> GrouperMessage? {
        config.compactState ? world.decoded.decode(secret, number: number) : try? GrouperMessage.decode(secret)
    }

    /// A rebuilt message that parsed but is not what any device sent: accepted corrupted content.
    func checkGenuine(_ m: GrouperMessage, _ ctx: some DeviceContext) {
        // Re-encoded, so bytes that differ only in JSON layout are the same message.
        guard world.verifyDeliveries, !world.sentDigests.contains(StableHash.fnv1a64(bytes: m.encoded())) else { return }
        ctx.count(.corruptedDeliveries, type: m.type)
        ctx.log("accepted corrupted content as message \(m.messageID)")
    }
}
