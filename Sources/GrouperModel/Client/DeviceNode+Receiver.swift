import SimKernel

/// Shares collected for one message id, one slot per server (`ShareSlots`: inline up to four).
/// The id itself is not kept: a device keys its partial messages by the id's number in the
/// run's `MessageRegistry`, which gives the id back (`MessageRegistry.messageID(_:)`), so a
/// partial message holds no string (one reference count less to take and drop per message
/// and device).
struct PartialMessage: Sendable {
    /// Server j's share and its share id, if one came.
    var slots: ShareSlots
    var count = 0
    init(servers: Int) {
        slots = ShareSlots(servers: servers)
    }

    /// Keeps share `s` as server `j`'s (replacing an earlier one from that server); `s` moves
    /// into the slot.
    mutating func add(_ s: consuming ShareDownload, server j: Int) {
        if slots[j] == nil { count += 1 }
        slots[j] = CollectedShare(s)
    }

    /// The collected shares in server order.
    var shares: [[UInt8]] {
        var out: [[UInt8]] = []
        out.reserveCapacity(count)
        for j in slots.indices { if let slot = slots[j] { out.append(slot.share) } }   // no copy of `slots`
        return out
    }
    /// Each server's share id (nil: none from that server).
    var shareIDs: [Int?] { slots.map { $0?.id } }
}

/// Messages per type, reported to a counter once per type at the end of a round instead of
/// once per message (a counter update hashes its key).
struct TypeTally {
    private var update = 0, delete = 0, confirm = 0, resend = 0

    mutating func add(_ type: MessageType) {
        switch type {
        case .update: update += 1
        case .delete: delete += 1
        case .confirm: confirm += 1
        case .resend: resend += 1
        }
    }

    /// Adds each type's tally to counter `kind`.
    func report(_ kind: CounterKind, _ out: some EffectSink) {
        if update > 0 { out.count(kind, type: .update, amount: update) }
        if delete > 0 { out.count(kind, type: .delete, amount: delete) }
        if confirm > 0 { out.count(kind, type: .confirm, amount: confirm) }
        if resend > 0 { out.count(kind, type: .resend, amount: resend) }
    }
}

/// What the receiver keeps per server, in one record: a list reply and a get reply each read
/// both the seen ids and what the round asked, and a device's arrays are cold by the time its
/// replies arrive (each array reached is a cache miss).
struct ServerReceiveState: Sendable {
    /// The share ids downloaded from the server.
    var seen = SeenShareIDs()
    /// The share ids the current round asked for, and whether the server's list had more.
    var asked = ShareIDs()
    var askedMore = false

    /// Takes server's answer `ss` to a get, in one access of the record: what the round asked
    /// (or, when it asked nothing, what came) counts as seen and the ask is forgotten. `short`:
    /// the answer holds fewer shares than were asked, `missing` the asked ids it left out;
    /// `more`: the server's list had more than was asked.
    mutating func answered(by ss: ShareDownloads) -> (short: Bool, missing: [Int], more: Bool) {
        guard !asked.isEmpty else {
            for s in ss { seen.insert(s.shareID) }
            return (false, [], false)
        }
        for id in asked { seen.insert(id) }
        let short = ss.count < asked.count
        var missing: [Int] = []
        if short { for id in asked where !ss.contains(where: { $0.shareID == id }) { missing.append(id) } }
        let more = askedMore
        asked = ShareIDs()
        askedMore = false
        return (short, missing, more)
    }
}

/// One `receiveWithCompletion`: list every server, get unseen shares, rebuild, handle. Plain
/// numbers only (the handled messages wait in `DeviceNode.roundHandled`), so looking at the
/// round, copying it or dropping it retains and releases nothing.
struct ReceiveRound: Sendable {
    let id: Int
    let start: SimTime
    var waiting: Int
    var rebuilt = 0
    var syncTime = SimDuration.zero
    var sharingTime = SimDuration.zero
    var networkTime = SimDuration.zero
}

extension DeviceNode {
    /// Starts a receive round. `continuing`: the round goes on with a list cut at
    /// `chunkBatchLimit` and passes over what servers did not serve; any other round first
    /// forgets the passed-over ids, so they are asked for again.
    func requestReceive(_ out: some EffectSink, continuing: Bool = false) {
        guard online, isMember else { return }
        guard round == nil else { roundAgain = true; freshRoundPending = true; return }
        if !continuing && !passedOver.isEmpty {
            for j in passedOver.indices where !passedOver[j].isEmpty {
                for id in passedOver[j] { receiving[j].seen.remove(id) }
                passedOver[j] = []
            }
        }
        let id = nextRoundID
        nextRoundID += 1
        round = ReceiveRound(id: id, start: out.now, waiting: config.servers)
        for j in 0..<config.servers { send(.transferList, to: j, purpose: .list(roundID: id, server: j), out) }
    }

    func listDone(round r: Int, server j: Int, _ outcome: consuming RequestOutcome, _ out: some EffectSink) {
        guard round?.id == r else { return }
        if case .reply(.shareIDs(let ids)) = consume outcome {
            var unseen = receiving[j].seen.unseen(in: ids, compact: stores.listsByGeneration)
            let more = unseen.count > chunkBatchLimit
            if more { unseen.keepFirst(chunkBatchLimit) }   // large objects: the rest later
            if !unseen.isEmpty {
                receiving[j].asked = unseen
                receiving[j].askedMore = more
                send(.transferGet(unseen), to: j, purpose: .get(roundID: r, server: j), out)
                return
            }
        }
        serverDone(out)
    }

    /// Every id asked of server `j` counts as seen once it answered, served or not: a listed
    /// share the server leaves out of its reply (withheld, or deleted since the list) is passed
    /// over by the rounds that continue this one, so a round always moves past it; the next
    /// round something else starts asks for it again (`passedOver`). A list cut at
    /// `chunkBatchLimit` runs one more round only after an answer, never after a failed get:
    /// no round repeats without progress.
    func getDone(round r: Int, server j: Int, _ outcome: consuming RequestOutcome, _ out: some EffectSink) {
        guard round?.id == r else { return }
        if case .reply(.shares(let ss)) = consume outcome {
            let answer = receiving[j].answered(by: ss)
            if answer.short {
                if passedOver.count < config.servers { passedOver = Array(repeating: [], count: config.servers) }
                passedOver[j].append(contentsOf: answer.missing)
            }
            if answer.more { roundAgain = true }
            ss.drain { s in   // each share moves from the reply into its partial message
                let number = s.messageNumber >= 0 ? s.messageNumber : stores.registry.idNumber(s.messageID)
                touched.append(number)
                collect(s, number: number, server: j)
            }
        }
        serverDone(out)
    }

    /// Adds share `s` of message number `number` from server `j` to its partial message, in
    /// place (`PartialTable`: no `Hasher`, no copy of a new partial message into the table).
    func collect(_ s: consuming ShareDownload, number: Int32, server j: Int) {
        let i = partial.index(of: number)
            ?? partial.insert(number, PartialMessage(servers: config.servers))
        partial[at: i].add(s, server: j)
    }

    func serverDone(_ out: some EffectSink) {
        guard round != nil else { return }
        round!.waiting -= 1   // in place: copying the round out and back retained its arrays
        if round!.waiting == 0 { processRound(out) }
    }

    /// Rebuilds every message with ≥ k shares (message ids in sorted order), then handles them.
    func processRound(_ out: some EffectSink) {
        guard var r = round else { return }
        r.networkTime = out.now - r.start
        let (messages, work, decodedBytes) = rebuildReady(out)
        trimRoundBuffers()
        r.rebuilt = messages.count
        let (handled, storeWrites) = handleAll(order(messages), out)
        roundHandled = handled
        r.sharingTime = config.device.sharingTime(work)
        r.syncTime = config.device.syncTime(jsonBytes: decodedBytes, storeWrites: storeWrites)
        round = r
        out.cpu(r.sharingTime + r.syncTime, then: .roundProcessed(roundID: r.id))
    }

    func rebuildReady(_ out: some EffectSink) -> ([GrouperMessage], SharingWork, Int) {
        let asBuiltJoin = config.variant == .asBuilt && config.asBuilt.joinAllCollectedShares
        var messages: [GrouperMessage] = [], work = SharingWork(), bytes = 0, tally = TypeTally()
        swap(&messages, &roundHandled)   // the last round's buffer, emptied when that round ended
        messages.removeAll(keepingCapacity: true)
        var candidates = readyCandidates(asBuiltJoin)
        messages.reserveCapacity(candidates.count)
        for number in candidates {
            guard let i = partial.index(of: number) else { continue }
            if !asBuiltJoin && rebuilt.contains(number) { partial.remove(at: i); continue }
            guard partial.values[i].count >= sharesToTry else {
                if asBuiltJoin {  // forgets ids of messages below k: fetched again next round
                    let p = partial.remove(at: i)
                    for (j, id) in p.shareIDs.enumerated() { if let id { receiving[j].seen.remove(id) } }
                }
                continue
            }
            guard let r = rebuildMessage(number, at: i, work: &work, bytes: &bytes, out) else { continue }
            let m = r.message   // one reference taken, not one per use
            bytes += costedBytes(m)
            work = work + costedWork(m, realBytes: r.secretCount, r.work)
            checkGenuine(m, out)
            rebuilt.insert(number)
            tally.add(m.type)
            messages.append(m)
        }
        tally.report(.messagesRebuilt, out)
        if touched.isEmpty && touched.capacity < candidates.capacity {   // it takes the next round's touched ids
            candidates.removeAll(keepingCapacity: true)
            swap(&candidates, &touched)
        }
        return (messages, work, bytes)
    }

    /// The partial messages that may be ready (their id numbers), in message id order. Only a
    /// message that got a share this round can be rebuilt or dropped as rebuilt before (the
    /// others were below k and not rebuilt at the end of their last round, and nothing changed
    /// them since); as-built, which forgets every message below k each round, and the plain
    /// `ReceivePipeline` look at all.
    func readyCandidates(_ asBuiltJoin: Bool) -> [Int32] {
        var numbers: [Int32] = []
        if asBuiltJoin || !stores.pipeline.onlyTouchedCandidates {
            numbers = partial.numbers
            touched.removeAll(keepingCapacity: true)
        } else {
            // Each number comes once per server that gave a share: drop repeats, in the
            // touched ids' own buffer (taken, so `touched` is empty for the next round).
            swap(&numbers, &touched)
            Self.dropRepeats(&numbers)
        }
        // Message id order (distinct ids have distinct numbers: the registry's), in place.
        stores.pipeline.sortByMessageID(&numbers) { stores.registry.messageID($0) }
        return numbers
    }

    /// Drops repeated numbers in place, keeping each one's first occurrence in order; more than
    /// 32 numbers are sorted first (then a repeat follows its first). No allocation; the scan
    /// runs over the buffer (one uniqueness check, none per write) and the tail goes one
    /// element at a time: a round drops a handful, and `removeLast(_:)` takes the generic
    /// range replacement.
    static func dropRepeats(_ numbers: inout [Int32]) {
        if numbers.count > 32 { numbers.sort() }
        let kept = numbers.withUnsafeMutableBufferPointer { keepFirstOccurrences($0, sorted: $0.count > 32) }
        while numbers.count > kept { numbers.removeLast() }
    }

    /// Moves each number's first occurrence to the front of `b`, in order; returns how many.
    /// `sorted`: a repeat follows its first, so only the last kept is compared.
    private static func keepFirstOccurrences(_ b: UnsafeMutableBufferPointer<Int32>, sorted: Bool) -> Int {
        var kept = 0
        for i in 0..<b.count {
            let n = b[i]
            var seen = false
            if sorted {
                seen = kept > 0 && b[kept - 1] == n
            } else {
                for k in 0..<kept where b[k] == n { seen = true; break }
            }
            if !seen {
                b[kept] = n
                kept += 1
            }
        }
        return kept
    }

    /// A join that failed or did not decode (only possible with as-built's mixed polynomials).
    /// Message number `n` did not rebuild (its join failed or its secret did not decode).
    func corrupt(_ n: Int32, _ out: some EffectSink) {
        out.count(.corruptRebuilds, type: .update)
        out.log("corrupt rebuild of message \(stores.registry.messageID(n))")
    }

    /// Thesis order: normal messages by (sender, sequence), then control by (send time, id).
    /// As-built handles in an arbitrary (here: message id) order. Sorts indices (stable, so
    /// ties keep their rebuild order) rather than moving whole messages, through the run's
    /// `ReceivePipeline`.
    func order(_ ms: [GrouperMessage]) -> [GrouperMessage] {
        guard ms.count > 1 else { return ms }
        return stores.pipeline.handlingOrder(ms, asBuilt: config.variant == .asBuilt).map { ms[$0] }
    }

    /// The permutation `order` applies: the indices of `ms`, stably sorted by integer keys —
    /// normal (0, rank of sender, sequence), control (1, send time, rank of message id);
    /// as-built (rank of message id) — where a rank is a string's place among the batch's
    /// strings, so comparing ranks compares the strings.
    static func handlingOrder(_ ms: [GrouperMessage], asBuilt: Bool) -> [Int] {
        if ms.count == 2 {   // the stable sort of two, without the keys' arrays
            let swap = asBuilt ? ms[1].messageID < ms[0].messageID : handledBefore(ms[1], ms[0])
            return swap ? [1, 0] : [0, 1]
        }
        let normal = ms.map { !asBuilt && $0.type.isNormal }
        let rank = denseRanks(ms.indices.map { normal[$0] ? ms[$0].sender : ms[$0].messageID })
        var keys = ms.indices.map { i -> (Int64, Int64, Int64, Int) in
            if asBuilt { return (0, rank[i], 0, i) }
            return normal[i] ? (0, rank[i], Int64(ms[i].sequence), i) : (1, ms[i].sendTime, rank[i], i)
        }
        keys.sort { $0 < $1 }
        return keys.map(\.3)
    }

    /// For each string its rank among the distinct strings of `names` in string order. A
    /// batch names few senders many times: the distinct names (`StringNumbering`) are sorted,
    /// not every name.
    static func denseRanks(_ names: [String]) -> [Int64] {
        var distinct = StringNumbering()
        let which = names.map { Int(distinct.number(of: $0)) }
        let order = StringOrder.sortedIndices(distinct.strings)
        var rankOf = [Int64](repeating: 0, count: order.count)
        for (r, d) in order.enumerated() { rankOf[d] = Int64(r) }
        return which.map { rankOf[$0] }
    }

    /// `denseRanks` by sorting every name (the plain form `RebuildFastPathTests` compares with).
    static func denseRanksBySortingAll(_ names: [String]) -> [Int64] {
        let byName = StringOrder.sortedIndices(names)
        var rank = [Int64](repeating: 0, count: names.count), r: Int64 = -1
        for (n, i) in byName.enumerated() {
            if n == 0 || names[byName[n - 1]] != names[i] { r += 1 }
            rank[i] = r
        }
        return rank
    }

    /// The thesis's handling order of two rebuilt messages (the reference `handlingOrder` keys
    /// reproduce).
    static func handledBefore(_ a: GrouperMessage, _ b: GrouperMessage) -> Bool {
        if a.type.isNormal != b.type.isNormal { return a.type.isNormal }
        if a.type.isNormal { return (a.sender, a.sequence) < (b.sender, b.sequence) }
        return (a.sendTime, a.messageID) < (b.sendTime, b.messageID)
    }

    func roundProcessed(_ id: Int, _ out: some EffectSink) {
        guard let r = round, r.id == id else { return }
        round = nil
        out.timing(TransferTiming(direction: .download, device: index, messages: r.rebuilt,
                                          start: r.start, end: out.now, dataSync: r.syncTime,
                                          secretSharing: r.sharingTime, network: r.networkTime, succeeded: true))
        if !roundHandled.isEmpty { out.handled(roundHandled) }
        // Emptied in place: the next round's rebuilt messages go into its buffer (`rebuildReady`).
        roundHandled.removeAll(keepingCapacity: roundHandled.capacity <= Self.roundBufferSlack)
        if config.variant == .asBuilt && config.asBuilt.confirmAfterReceiveOncePerTTL && config.confirm.period != nil,
           lastConfirmAt.map({ out.now - $0 >= config.ttl }) ?? true {
            senderConfirm(out)
        }
        if roundAgain {
            roundAgain = false
            let fresh = freshRoundPending
            freshRoundPending = false
            requestReceive(out, continuing: !fresh)
        }
    }
}
