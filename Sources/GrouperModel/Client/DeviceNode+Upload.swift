import SimKernel

extension DeviceNode {
    /// Starts the next upload job if none is deciding: the head run of the outbox with one
    /// share receiver, at most `batchLimit` messages. Encoding and splitting happen now; the
    /// puts leave when the CPU is done (`uploadReady`, which sets the job's `ready`).
    func kickOutbox(_ out: some EffectSink) {
        guard job == nil, online, isMember, !wedged, let first = outbox.first else { return }
        var count = 0
        while count < outbox.count && count < config.batchLimit
            && (count < batchCap || config.variant == .asBuilt) && count < chunkBatchLimit
            && outbox[count].shareReceiver == first.shareReceiver { count += 1 }
        var items: [OutboxItem] = []
        if count == outbox.count {
            swap(&items, &outbox)   // the whole outbox: taken, no item copied and destroyed
        } else {
            items = Array(outbox.prefix(count))
            outbox.removeFirst(count)
        }
        var perServer = Array(repeating: [ShareUpload](), count: config.servers)
        for j in perServer.indices { perServer[j].reserveCapacity(count) }
        var jsonBytes = 0, work = SharingWork()
        var kept: [OutboxItem] = []
        kept.reserveCapacity(count)
        for item in items {
            let known = stores.registry.knownNumber(item.message.messageID)
            let bytes = stores.pipeline.encoded(item.message, knownNumber: known)
            record.noteSent(bytes)
            jsonBytes += bytes.count + costedBytes(item.message)
            var g = Xoshiro256StarStar(seed: item.splitSeed)
            let shares: [[UInt8]], w: SharingWork
            do { (shares, w) = try directory.scheme.split(bytes, k: config.k, n: config.servers, rng: &g) } catch {
                out.internalFailure("cannot split \(label(item.message)): \(error); dropped")
                reuploadsSettled([item])
                continue
            }
            work = work + costedWork(item.message, realBytes: bytes.count, w)
            kept.append(item)
            let number = known ?? stores.registry.idNumber(item.message.messageID)
            stores.pipeline.sent(item.message, as: bytes, number: number)
            record.noteSentInfo(item.message, number: number, sender: index)
            for j in 0..<config.servers {
                perServer[j].append(ShareUpload(messageID: item.message.messageID, receiver: item.shareReceiver,
                                                share: shares[j], messageNumber: number))
            }
        }
        guard !kept.isEmpty else { return kickOutbox(out) }
        let syncTime = config.device.syncTime(jsonBytes: jsonBytes, storeWrites: 0)
        let sharingTime = config.device.sharingTime(work)
        let id = nextJobID
        nextJobID += 1
        job = UploadJob(id: id, items: kept, shareReceiver: first.shareReceiver, perServer: perServer,
                        start: out.now, ready: out.now, syncTime: syncTime, sharingTime: sharingTime)
        out.cpu(syncTime + sharingTime, then: .uploadReady(jobID: id))
    }

    func uploadReady(_ id: Int, _ out: some EffectSink) {
        guard job?.id == id else { return }
        // The job is changed in place (a copy out and back retains and releases all of it).
        var perServer: [[ShareUpload]] = []
        swap(&perServer, &job!.perServer)
        job!.ready = out.now
        let items = job!.items
        for server in 0..<config.servers {
            for item in items { out.count(.sharePuts, type: item.message.type) }
            send(.transferPut(perServer[server]), to: server,
                 purpose: .put(jobID: id, server: server, count: perServer[server].count), out)
        }
    }

    func putDone(job id: Int, server: Int, count: Int, _ outcome: RequestOutcome, _ out: some EffectSink) {
        guard job?.id == id else {
            lateAnswer(job: id, stored: outcome == .reply(.stored(count)), out)
            return
        }
        job!.answered += 1
        if outcome == .reply(.stored(count)) {
            job!.okServers.append(server)
            job!.lastAnswerFailed = false
            for item in job!.items { out.count(.sharesStored, type: item.message.type) }
        } else {
            job!.failed += 1
            job!.lastAnswerFailed = true
            if outcome == .timedOut { job!.timedOut += 1 }
        }
        evaluate(out)
    }

    /// Thesis: decide as soon as ok ≥ s or ok ≥ s became impossible. As-built: wait for all.
    func evaluate(_ out: some EffectSink) {
        guard job != nil else { return }
        let n = config.servers, s = config.s
        let (answered, ok, failed) = (job!.answered, job!.okServers.count, job!.failed)
        if config.variant == .asBuilt && config.asBuilt.verdictWaitsForAllServers {
            guard answered == n else { return }
            if config.asBuilt.lastFailureWedgesSender && job!.lastAnswerFailed {
                let j = job!
                wedged = true
                wedgedItems += j.items
                reuploadsSettled(j.items)
                job = nil
                out.timing(TransferTiming(direction: .upload, device: index, messages: j.items.count,
                                                  start: j.start, end: out.now, dataSync: j.syncTime,
                                                  secretSharing: j.sharingTime, network: out.now - j.ready,
                                                  succeeded: false))
                out.log("wedged: last server failed; \(j.items.count) message(s) never finalised")
                return
            }
            decide(ok >= s, out)
        } else if ok >= s {
            decide(true, out)
        } else if failed > n - s {
            decide(false, out)
        }
    }

    /// A put answer that arrives after its job's verdict still counts stored shares. After a
    /// failed verdict the log says what the late answer did: shares stored late can still be
    /// rebuilt by receivers although the sender keeps the messages unsent.
    func lateAnswer(job id: Int, stored: Bool, _ out: some EffectSink) {
        guard var late = lateJobs[id] else { return }
        if stored {
            for t in late.types { out.count(.sharesStored, type: t) }
            late.stored += 1
            if !late.succeeded && late.stored == config.k {
                for (n, t) in zip(late.numbers, late.types) { countRebuildable(n, t, out) }
            }
        }
        late.remaining -= 1
        if !late.succeeded {
            out.log("late answer to failed upload job \(id): \(stored ? "stored" : "not stored"); "
                + "now on \(late.stored) of \(config.s) needed servers, \(late.remaining) still unanswered"
                + (late.stored >= config.k ? " (receivers can rebuild it; the sender still retries it)" : ""))
        }
        lateJobs[id] = late.remaining > 0 ? late : nil
    }

    func decide(_ success: Bool, _ out: some EffectSink) {
        guard let j = job.take() else { return }
        if j.answered < config.servers {
            lateJobs[j.id] = LateJob(types: j.items.map(\.message.type),
                                     numbers: j.items.map { stores.registry.idNumber($0.message.messageID) },
                                     remaining: config.servers - j.answered,
                                     succeeded: success, stored: j.okServers.count)
        }
        out.timing(TransferTiming(direction: .upload, device: index, messages: j.items.count,
                                          start: j.start, end: out.now, dataSync: j.syncTime,
                                          secretSharing: j.sharingTime, network: out.now - j.ready,
                                          succeeded: success))
        let to = j.shareReceiver.map { directory.name(ofNode: $0) } ?? "*"
        adaptBatch(after: j, success: success, out)
        if success {
            multicastReuploadDone(j.items)
            reuploadsSettled(j.items)
            noteReuploadsStored(j.items, servers: j.okServers.count, now: out.now)
            for item in j.items {
                let m = item.message
                out.count(.messagesUploaded, type: m.type)
                if item.isReupload { out.count(.reUploads, type: m.type) }
                record.markUploaded(m.messageID)
            }
            out.log("upload \(j.items.map { label($0.message) }.joined(separator: ",")) to \(to)")
            if let first = j.okServers.min() {
                send(.userNotify(receiver: j.shareReceiver ?? GrouperMessage.multicast, category: "grouper",
                                 content: "new messages"), to: first, purpose: .notify, out)
            }
        } else {
            for item in j.items {
                out.count(.uploadAttemptsFailed, type: item.message.type)
                if !item.failedBefore { out.count(.uploadFailures, type: item.message.type) }
                if j.okServers.count >= config.k {
                    countRebuildable(stores.registry.idNumber(item.message.messageID), item.message.type, out)
                }
            }
            let pending = config.servers - j.answered
            out.log("upload failed (job \(j.id): stored on \(j.okServers.count) of \(config.s) needed servers, "
                + "\(j.failed) failed" + (pending > 0 ? ", \(pending) not answered yet" : "") + ") "
                + "\(j.items.map { label($0.message) }.joined(separator: ",")) to \(to); unsent")
            unsent.append(contentsOf: j.items.map { var item = $0; item.failedBefore = true; return item })
        }
        kickOutbox(out)
    }
}

extension DeviceNode {
    /// Counts `failedButRebuildable` for message number `n` the first time one of its failed
    /// upload attempts reached ≥ k servers: a message, not an attempt.
    func countRebuildable(_ n: Int32, _ type: MessageType, _ out: some EffectSink) {
        guard !rebuildableCounted.contains(n) else { return }
        rebuildableCounted.insert(n)
        out.count(.failedButRebuildable, type: type)
    }
}

/// An upload job decided before every server answered: its answers still come in.
struct LateJob {
    var types: [MessageType]
    /// The messages' registry id numbers, in the order of `types`.
    var numbers: [Int32]
    var remaining: Int
    /// The job's verdict.
    var succeeded: Bool
    /// Servers that stored the shares so far (at the verdict, plus late ones).
    var stored: Int
}

extension DeviceNode {
    /// A job some server could not take in time is retried in halves (down to one message)
    /// rather than repeated whole forever; successes double the cap back to `batchLimit`.
    /// As-built repeats the same batch.
    func adaptBatch(after j: UploadJob, success: Bool, _ out: some EffectSink) {
        guard config.variant != .asBuilt else { return }
        if success {  // a job at the cap got through: allow larger ones again
            if j.items.count >= batchCap { batchCap = min(config.batchLimit, batchCap * 2) }
        } else if j.timedOut > 0 && j.items.count > 1 {
            batchCap = max(1, j.items.count / 2)
            out.log("batch of \(j.items.count) timed out; next batches ≤ \(batchCap)")
        }
    }
}
