import SimKernel

/// The receiver's rebuild policy (docs/adversaries.md): `first-k` joins whatever it has (the thesis);
/// `check` and `correct` wait for k + 1 shares, refuse shares that disagree (`correct` first
/// decodes around up to ⌊(m − k)/2⌋ bad ones), keep them, and try again when more arrive.
extension DeviceNode {
    /// Shares a message needs before the receiver tries to rebuild it.
    var sharesToTry: Int { config.rebuild.minimumShares(k: config.k) }

    /// Message number `n` rebuilt from its collected shares (`partial.values[i]`) and decoded,
    /// with the secret's length and the join's work (not yet in `work`), or nil: dropped as
    /// corrupt (the join failed or the secret did not decode; `work` gains the join's work),
    /// or kept for a later round (`check`/`correct`). `bytes` gains the secret's length.
    func rebuildMessage(_ n: Int32, at i: Int, work: inout SharingWork,
                        bytes: inout Int, _ out: some EffectSink) -> RebuildMemo.Outcome? {
        if config.rebuild == .firstK { return rebuildFirstK(n, partial.remove(at: i), work: &work, bytes: &bytes, out) }
        let p = partial.values[i], before = work
        guard let secret = rebuildShares(n, p, work: &work, out) else { return nil }
        bytes += secret.count
        guard let m = decode(secret, number: n) else {
            corrupt(n, out)
            return nil
        }
        defer { work = before }
        return RebuildMemo.Outcome(message: m, secretCount: secret.count, work: work - before)
    }

    /// `first-k`: joins whatever shares `p` has (taken out of `partial`) and decodes the secret,
    /// unless the run's `ReceivePipeline` recorded a rebuild of the very same share buffers.
    private func rebuildFirstK(_ n: Int32, _ p: PartialMessage, work: inout SharingWork, bytes: inout Int,
                               _ out: some EffectSink) -> RebuildMemo.Outcome? {
        let pipeline = stores.pipeline
        if let o = pipeline.recordedRebuild(n, k: config.k, p) {
            bytes += o.secretCount
            return o
        }
        let shares = p.shares
        guard let (secret, w) = try? join(shares, number: n) else { corrupt(n, out); return nil }
        bytes += secret.count
        guard let m = decode(secret, number: n) else {
            work = work + w
            corrupt(n, out)
            return nil
        }
        let o = RebuildMemo.Outcome(message: m, secretCount: secret.count, work: w)
        pipeline.recordRebuild(n, k: config.k, shares: shares, o)
        return o
    }

    /// `check`/`correct`: the secret of message number `n` from its collected shares `p`, or
    /// nil: dropped as corrupt (malformed shares), or kept for a later round. Removes `n` from
    /// `partial` unless it is kept. `work` gains the rebuild's work.
    func rebuildShares(_ n: Int32, _ p: PartialMessage, work: inout SharingWork, _ out: some EffectSink) -> [UInt8]? {
        let shares = p.shares
        if undecodable[n] == p.shareIDs { return nil }   // no new or replaced share since the last try
        guard let r = try? directory.scheme.rebuild(shares, k: config.k, policy: config.rebuild) else {
            partial.remove(n)
            corrupt(n, out)
            return nil
        }
        work = work + r.work
        if !r.consistent && undecodable[n] == nil {
            out.count(.tamperDetected, type: .update)
        }
        guard let secret = r.secret else {
            if undecodable[n] == nil {
                out.log("cannot rebuild message \(stores.registry.messageID(n)) from \(p.count) shares (\(config.rebuild.rawValue)): "
                    + "they disagree; waiting for more")
            }
            undecodable[n] = p.shareIDs
            return nil
        }
        partial.remove(n)
        undecodable[n] = nil
        if !r.badShares.isEmpty {
            out.count(.tamperCorrected, type: .update)
            out.log("corrected message \(stores.registry.messageID(n)) around bad shares from servers "
                + "\(r.badShares.map { serverOfShare(p, $0) })")
        }
        return secret
    }

    /// The `first-k` join of message number `n`'s shares (through the run's `ReceivePipeline`).
    func join(_ shares: [[UInt8]], number n: Int32) throws(SharingError) -> (secret: [UInt8], work: SharingWork) {
        try stores.pipeline.join(shares, k: config.k, number: n)
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

    /// The message in rebuilt bytes (nil if they do not decode), through the run's `ReceivePipeline`.
    func decode(_ secret: [UInt8], number: Int32) -> GrouperMessage? {
        stores.pipeline.decode(secret, number: number)
    }

    /// A rebuilt message that parsed but is not what any device sent: accepted corrupted content.
    func checkGenuine(_ m: GrouperMessage, _ out: some EffectSink) {
        // Re-encoded, so bytes that differ only in JSON layout are the same message.
        guard record.verifyDeliveries, !record.sentDigests.contains(StableHash.fnv1a64(bytes: m.encoded())) else { return }
        out.count(.corruptedDeliveries, type: m.type)
        out.log("accepted corrupted content as message \(m.messageID)")
    }
}

extension DeviceNode {
    /// The messages this member holds unrebuilt because their shares disagree (`undecodable`)
    /// and still needs now, each need counted once:
    /// - a normal message addressed to it (multicast or to it) whose (sender, sequence) it never
    ///   handled (a unicast re-upload of the same message counts with it, once);
    /// - per sender, its newest such confirm, if the member still lacks a normal message up to
    ///   the sequence it announces and handled no later confirm of that sender;
    /// - per requester, its newest such resend request addressed to this member, if the
    ///   requester still lacks a normal message of this member in the range asked.
    /// Superseded confirms, requests whose requester got everything, and messages for others
    /// are not needed. `devices`: the run's devices by index (a requester's delivery state).
    func neededUnrecoverable(among devices: [DeviceNode]) -> Int {
        guard isMember, !undecodable.isEmpty else { return 0 }
        let me = directory.nodeIDs[index]
        var normals = Set<Int64>()   // sender << 32 | sequence
        var confirms: [Int: SentInfo] = [:], requests: [Int: SentInfo] = [:]
        for n in undecodable.keys {
            guard let i = record.sentInfo[n], i.sender != index else { continue }
            let sender = directory.nodeIDs[i.sender]
            switch i.type {
            case .update, .delete:
                if i.receiver == GrouperMessage.multicast || i.receiver == me, !delivery.hasNormal(sender, i.sequence) {
                    normals.insert(Int64(i.sender) << 32 | Int64(i.sequence))
                }
            case .confirm:
                if confirms[i.sender].map({ $0.order < i.order }) ?? true { confirms[i.sender] = i }
            case .resend:
                if i.receiver == me, requests[i.sender].map({ $0.order < i.order }) ?? true { requests[i.sender] = i }
            }
        }
        var count = normals.count
        for (s, c) in confirms {
            guard let announced = Int(c.content), delivery.highestContiguous(from: directory.nodeIDs[s]) < announced else { continue }
            let handledLater = record.sentInfo.contains { n, i in
                i.type == .confirm && i.sender == s && i.order > c.order
                    && (delivery.seenControlNumbers.contains(n) || delivery.seenControl.contains(i.messageID))
            }
            if !handledLater { count += 1 }
        }
        for (r, q) in requests {
            guard let ranges = DeliveryState.parseRanges(q.content) else { continue }
            let requester = devices[r].delivery
            if ranges.contains(where: { $0.contains(where: { !requester.hasNormal(me, $0) }) }) { count += 1 }
        }
        return count
    }
}
