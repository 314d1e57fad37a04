import SimKernel

/// Large objects (docs/architectures.md): an update of `size` bytes is sent as ⌈size / chunkBytes⌉ chunk
/// messages, each an ordinary normal Grouper message (its own sequence number, shared, uploaded,
/// rebuilt, recovered like any other), and the receiver applies the object only when it holds
/// every chunk.
///
/// Real bytes up to a cap: a chunk message carries the first `realBytesPerChunk` bytes of its
/// chunk for real (split into shares, stored, listed, fetched, joined, reassembled and compared);
/// the rest of the chunk is *costed*, not materialised: its bytes are added to the wire sizes, the
/// split/join work (scaled from the real part's), the JSON time and the servers' stored bytes.
/// With `realBytesPerChunk ≥ chunkBytes` every byte is real.
public struct ChunkingConfig: Codable, Equatable, Sendable {
    /// Object bytes per chunk message (the last chunk of an object may be shorter).
    public var chunkBytes: Int
    /// Real payload bytes a chunk message carries (≤ its chunk's length); the rest is costed.
    public var realBytesPerChunk: Int

    /// 1 MiB.
    public static let defaultChunkBytes = 1 << 20
    /// About this many chunk bytes per put or get request (`DeviceNode.chunkBatchLimit`).
    public static let requestBytes = 16 << 20
    /// 64 bytes of every chunk are real by default.
    public static let defaultRealBytesPerChunk = 64

    public init(chunkBytes: Int = defaultChunkBytes, realBytesPerChunk: Int = defaultRealBytesPerChunk) {
        self.chunkBytes = chunkBytes; self.realBytesPerChunk = realBytesPerChunk
    }

    /// Chunk messages for an object of `size` bytes (at least one).
    public func chunkCount(size: Int) -> Int { max(1, (size + chunkBytes - 1) / chunkBytes) }

    /// Object bytes of chunk `i` of an object of `size` bytes.
    public func chunkLength(_ i: Int, size: Int) -> Int { max(0, min(chunkBytes, size - i * chunkBytes)) }

    /// Real bytes of chunk `i`.
    public func realLength(_ i: Int, size: Int) -> Int { min(realBytesPerChunk, chunkLength(i, size: size)) }
}

/// The object bytes of a chunked write: a deterministic function of a seed and the offset, so
/// any chunk's bytes can be produced alone and the receiver's reassembly compared with them.
public enum ChunkPayload {
    static let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_".utf8)

    /// `count` bytes of the object with `seed`, from byte `offset` on (JSON-safe characters).
    public static func bytes(seed: UInt64, offset: Int, count: Int) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        var o = offset
        while out.count < count {
            var mix = SplitMix64(seed: seed ^ (UInt64(o / 8) &* 0xD6E8_FEB8_6659_FD93))
            let word = mix.next() >> UInt64(6 * (o % 8))
            out.append(alphabet[Int(word & 63)])
            o += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// The content of one chunk message:
/// `{"chunk":i,"of":n,"size":S,"bytes":L,"seed":"hex","real":"…"}`: chunk i of n of an object of
/// S bytes; this chunk stands for L object bytes, of which `real` are carried.
public struct ChunkRecord: Equatable, Sendable {
    public var index: Int
    public var count: Int
    public var size: Int
    public var bytes: Int
    public var seed: UInt64
    public var real: String

    static let prefix = "{\"chunk\":"

    public var content: String {
        "\(Self.prefix)\(index),\"of\":\(count),\"size\":\(size),\"bytes\":\(bytes),\"seed\":\"\(String(seed, radix: 16))\",\"real\":\"\(real)\"}"
    }

    /// Costed bytes: what this chunk stands for beyond the bytes it carries.
    public var modelledBytes: Int { max(0, bytes - real.utf8.count) }

    /// Whether `content` is a chunk record (cheap: a prefix test).
    public static func isChunk(_ content: String) -> Bool { content.hasPrefix(prefix) }

    /// Parses a chunk record written by `content`; nil for anything else.
    public static func parse(_ content: String) -> ChunkRecord? {
        guard isChunk(content), content.hasSuffix("\"}") else { return nil }
        var fields: [String] = []
        var rest = Substring(content.dropFirst(1).dropLast(1))
        for key in ["chunk", "of", "size", "bytes", "seed", "real"] {
            let head = "\"\(key)\":"
            guard rest.hasPrefix(head) else { return nil }
            rest = rest.dropFirst(head.count)
            let end = key == "real" ? rest.endIndex : (rest.firstIndex(of: ",") ?? rest.endIndex)
            fields.append(String(rest[..<end]))
            rest = end == rest.endIndex ? "" : rest[rest.index(after: end)...]
        }
        let unquoted = fields.suffix(2).map { $0.count >= 2 && $0.hasPrefix("\"") && $0.hasSuffix("\"") ? String($0.dropFirst().dropLast()) : nil }
        guard let i = Int(fields[0]), let n = Int(fields[1]), let s = Int(fields[2]), let b = Int(fields[3]),
              let seedText = unquoted[0], let seed = UInt64(seedText, radix: 16), let real = unquoted[1],
              n >= 1, (0..<n).contains(i), b >= real.utf8.count else { return nil }
        return ChunkRecord(index: i, count: n, size: s, bytes: b, seed: seed, real: real)
    }

    /// The stored content of a whole chunked object: its size, chunk count, seed and the
    /// concatenated real bytes of its chunks in order (the whole object when every byte is real).
    public static func objectContent(objectID: String, size: Int, count: Int, seed: UInt64, real: String) -> String {
        "{\"file\":\"\(objectID)\",\"size\":\(size),\"chunks\":\(count),\"seed\":\"\(String(seed, radix: 16))\",\"real\":\"\(real)\"}"
    }

    /// The object size recorded in an object content written by `objectContent`, else nil.
    public static func objectSize(_ content: String) -> Int? {
        guard content.hasPrefix("{\"file\":"), let r = content.range(of: ",\"size\":") else { return nil }
        return Int(content[r.upperBound...].prefix { $0.isNumber })
    }
}

/// A receiver's chunks of objects not complete yet, by (sender, first sequence).
struct ChunkAssembly: Sendable {
    struct Partial: Sendable {
        var parts: [String?]
        var received = 0
        var lastMessageID = ""
        /// Costed plus real bytes of the chunks held.
        var bytes = 0
    }
    private(set) var partials: [String: Partial] = [:]

    /// Plaintext bytes of the chunks held for objects not complete yet.
    var heldBytes: Int { partials.values.reduce(0) { $0 + $1.bytes } }

    /// Adds chunk `r` of message `m`; returns the whole object's update message when `r` was the
    /// last missing chunk (version and id of the object's last chunk, content `objectContent`).
    /// A chunk seen before changes nothing.
    mutating func add(_ r: ChunkRecord, of m: GrouperMessage) -> GrouperMessage? {
        let first = m.sequence - r.index
        let key = "\(m.sender)/\(first)"
        var p = partials[key] ?? Partial(parts: Array(repeating: nil, count: r.count))
        guard r.count == p.parts.count, p.parts[r.index] == nil else { return nil }
        p.parts[r.index] = r.real
        p.received += 1
        p.bytes += r.bytes
        if r.index == r.count - 1 { p.lastMessageID = m.messageID }
        guard p.received == r.count else { partials[key] = p; return nil }
        partials[key] = nil
        var whole = m
        whole.sequence = first + r.count - 1
        whole.messageID = p.lastMessageID
        whole.content = ChunkRecord.objectContent(objectID: m.objectID, size: r.size, count: r.count, seed: r.seed,
                                                  real: p.parts.map { $0 ?? "" }.joined())
        return whole
    }
}
