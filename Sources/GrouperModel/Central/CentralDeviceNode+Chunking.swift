import SimKernel

/// Chunked large objects on the central server (docs/architectures.md): each chunk of an update is its own
/// transfer (upload, reference count, outbox record, fetch, acknowledgement); a receiver applies
/// the object when it fetched every chunk. Central files are costed by size, so a chunk carries
/// no real bytes (`ChunkingConfig.realBytesPerChunk` is Grouper's).
extension CentralDeviceNode {
    /// `sender.update` of an object sent in chunks: one upload per chunk, each its own message id;
    /// the object's write is recorded with its last chunk's id.
    func writeChunked(_ objectID: String, size: Int, _ c: ChunkingConfig, _ sim: Simulation<CentralEvent>) {
        sequence += 1
        let version = ObjectVersion(time: sim.now.nanoseconds / 1_000_000_000, sender: world.nodeIDs[index], sequence: sequence)
        let content = "\(objectID)#\(version)#\(size)"
        let count = c.chunkCount(size: size)
        let receivers = world.members(at: sim.now).filter { $0 != index }
        var lastID = ""
        for i in 0..<count {
            lastID = MessageIDGenerator.make(using: &rng)
            unsent.append(CentralUpload(messageID: lastID, objectID: objectID, version: version,
                                        content: CentralChunkAssembly.chunkContent(content, i, of: count),
                                        size: c.chunkLength(i, size: size), receivers: receivers))
        }
        world.writes.append(ObjectWrite(device: index, messageID: lastID, objectID: objectID, version: version,
                                        content: content, time: sim.now))
        world.addressed[lastID] = receivers
        apply(objectID, version, content)
        chargeAtRest(bytes: size, sim)
        uploadNext(sim)
    }

    /// What a fetched file writes to the store: its content and message id, or nil for a chunk of
    /// an object still missing chunks. Each chunk is encrypted as it arrives on an encrypted store.
    func received(_ f: CentralFile, _ sim: Simulation<CentralEvent>) -> (content: String?, messageID: String)? {
        chargeAtRest(bytes: f.size, sim)
        guard world.config.chunking != nil, let content = f.content, let chunk = CentralChunkAssembly.parse(content) else {
            return (f.content, f.messageID)
        }
        return chunks.add(chunk, size: f.size, messageID: f.messageID).map { (chunk.object, $0) }
    }

    /// Encrypts `bytes` written to an encrypted store (nothing for a plain store).
    func chargeAtRest(bytes: Int, _ sim: Simulation<CentralEvent>) {
        guard world.config.deviceStore.atRest == .aes256CBC else { return }
        cpuFreeAt = max(cpuFreeAt, sim.now) + world.config.device.atRestTime(bytes: bytes)
    }

    /// The key derivation of a device start (the run's start, every return online).
    func deriveStoreKey(_ sim: Simulation<CentralEvent>) {
        guard world.config.deviceStore.atRest == .aes256CBC else { return }
        cpuFreeAt = max(cpuFreeAt, sim.now) + world.config.device.keyDerivationTime(iterations: world.config.deviceStore.kdfIterations)
    }

    /// Plaintext bytes a stolen device exposes now (see `DeviceNode.plaintextBytesAtRest`).
    var plaintextBytesAtRest: Int {
        guard world.config.deviceStore.atRest == .plain else { return 0 }
        let live = store.values.reduce(0) { sum, e in sum + (e.content.flatMap(CentralChunkAssembly.objectSize) ?? 0) }
        return live + chunks.heldBytes
    }
}

/// A central receiver's chunks of objects not complete yet, by object content (id, version, size).
struct CentralChunkAssembly: Sendable {
    struct Chunk { var object: String; var index: Int; var count: Int }
    private var partials: [String: (seen: [Bool], received: Int, bytes: Int, lastID: String)] = [:]

    /// Bytes of the chunks held for objects not complete yet.
    var heldBytes: Int { partials.values.reduce(0) { $0 + $1.bytes } }

    static func chunkContent(_ object: String, _ i: Int, of n: Int) -> String { "\(object)#chunk\(i)/\(n)" }

    static func parse(_ content: String) -> Chunk? {
        guard let r = content.range(of: "#chunk", options: .backwards) else { return nil }
        let parts = content[r.upperBound...].split(separator: "/")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), (0..<n).contains(i) else { return nil }
        return Chunk(object: String(content[..<r.lowerBound]), index: i, count: n)
    }

    /// The object size in a central object content `id#version#size`.
    static func objectSize(_ content: String) -> Int? { content.split(separator: "#").last.flatMap { Int($0) } }

    /// Adds a chunk; returns the object's write id (its last chunk's) when it was the last missing one.
    mutating func add(_ c: Chunk, size: Int, messageID: String) -> String? {
        var p = partials[c.object] ?? (Array(repeating: false, count: c.count), 0, 0, "")
        guard p.seen.count == c.count, !p.seen[c.index] else { return nil }
        p.seen[c.index] = true
        p.received += 1
        p.bytes += size
        if c.index == c.count - 1 { p.lastID = messageID }
        guard p.received == c.count else { partials[c.object] = p; return nil }
        partials[c.object] = nil
        return p.lastID
    }
}
