import SimKernel

/// Chunked large objects (`ChunkingConfig`; docs/architectures.md): the sender's side, the receiver's
/// reassembly, and the costs of the bytes a chunk stands for without carrying them.
extension DeviceNode {
    /// `sender.update` of an object sent in chunks: one normal update message per chunk (each its
    /// own sequence number), the object written locally and recorded as one write whose version
    /// and id are those of its last chunk.
    func senderUpdateChunked(objectID: String, size: Int, _ c: ChunkingConfig, _ out: some EffectSink) {
        let seed = rng.next()
        let count = c.chunkCount(size: size)
        var real = "", last: GrouperMessage?
        for i in 0..<count {
            sequence += 1
            let r = ChunkRecord(index: i, count: count, size: size, bytes: c.chunkLength(i, size: size), seed: seed,
                                real: ChunkPayload.bytes(seed: seed, offset: i * c.chunkBytes, count: c.realLength(i, size: size)))
            real += r.real
            let m = makeMessage(.update, content: r.content, sequence: sequence, objectID: objectID,
                                receiver: GrouperMessage.multicast, at: out.now)
            stores.costedBytes[m.messageID] = r.modelledBytes
            enqueueNormal(m, out)
            last = m
        }
        guard var whole = last else { return }
        whole.content = ChunkRecord.objectContent(objectID: objectID, size: size, count: count, seed: seed, real: real)
        recordWrite(whole, out)
        _ = store.updateRemote(whole)
        chargeAtRest(bytes: size, out)
        kickOutbox(out)
    }

    /// What an applied normal message writes to the store: itself (not a chunk), nothing yet (a
    /// chunk of an object still missing chunks), or the whole object (its last missing chunk).
    /// Each chunk is encrypted as it arrives when the store is encrypted at rest.
    func assemble(_ m: GrouperMessage, _ out: some EffectSink) -> Assembled {
        guard m.type == .update else { return .itself }
        guard config.chunking != nil, let r = ChunkRecord.parse(m.content) else {
            chargeAtRest(bytes: m.content.utf8.count, out)
            return .itself
        }
        chargeAtRest(bytes: r.bytes, out)
        guard let whole = chunks.add(r, of: m) else { return .nothing }
        out.log("reassembled \(m.objectID) from \(r.count) chunk(s)")
        return .whole(whole)
    }

    /// `assemble`'s answer. The message itself is named, not copied: the caller has it.
    enum Assembled {
        case itself
        case nothing
        case whole(GrouperMessage)
    }

    /// With chunking, a put or get carries at most this many shares, about 16 MiB of chunks
    /// (one message's cap), so a request of chunks finishes within the request timeout on the
    /// built-in networks; without chunking, no limit beyond `batchLimit`.
    var chunkBatchLimit: Int {
        guard let c = config.chunking else { return Int.max }
        return max(1, ChunkingConfig.requestBytes / c.chunkBytes)
    }

    /// Bytes a message stands for beyond those it carries (0 unless it is a costed chunk).
    func costedBytes(_ m: GrouperMessage) -> Int {
        guard config.chunking != nil, m.type == .update, let r = ChunkRecord.parse(m.content) else { return 0 }
        stores.costedBytes[m.messageID] = r.modelledBytes   // re-uploads may carry a fresh id
        return r.modelledBytes
    }

    /// `work` for `realBytes` real bytes, grown to cover the message's costed bytes too
    /// (split and join work are linear in the length).
    func costedWork(_ m: GrouperMessage, realBytes: Int, _ work: SharingWork) -> SharingWork {
        let extra = costedBytes(m)
        return extra == 0 || realBytes == 0 ? work : work + work.scaled(Double(extra) / Double(realBytes))
    }

    /// Wire bytes of the costed part of the shares a put carries.
    func costedWireBytes(_ call: ServerCall) -> Int {
        guard config.chunking != nil, case .transferPut(let ups) = call else { return 0 }
        return ups.reduce(0) { $0 + WireSize.shareText(stores.costed($1.messageID), scheme: config.scheme) }
    }
}

extension SharingWork {
    /// This work times `factor` (rounded), for bytes that are costed rather than processed.
    func scaled(_ factor: Double) -> SharingWork {
        func s(_ v: Int) -> Int { Int((Double(v) * factor).rounded()) }
        return SharingWork(fieldMultiplyAdds: s(fieldMultiplyAdds), randomBytes: s(randomBytes),
                           bytesIn: s(bytesIn), bytesOut: s(bytesOut))
    }

    static func - (a: SharingWork, b: SharingWork) -> SharingWork {
        SharingWork(fieldMultiplyAdds: a.fieldMultiplyAdds - b.fieldMultiplyAdds, randomBytes: a.randomBytes - b.randomBytes,
                    bytesIn: a.bytesIn - b.bytesIn, bytesOut: a.bytesOut - b.bytesOut)
    }
}
