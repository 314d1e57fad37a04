import Testing
import SimKernel
@testable import GrouperModel

/// What a run's end reads of the stores (`StoreDigest`): the fingerprint's line hashed in
/// pieces, and the content hash and filler size memos, against the plain text and functions.
@Suite struct StoreDigestTests {
    /// Senders and ids where the first eight characters are not the first eight bytes (a CR
    /// LF pair, a combining mark after the eighth letter, multi-byte letters), and plain ones.
    static let names = ["device-1", "0123456789abcdef-node", "abc", "", "abcdefg\r\nxyz", "abcdefgh\u{301}ij",
                        "abcdefgh\r\n", "é-sender-with-more", "e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}", "ok\r", "12345678"]

    @Test func aLineHashesAsItsText() {
        var rng = Xoshiro256StarStar(seed: 3201)
        for _ in 0..<3000 {
            let device = Int(rng.next() % 300)
            let id = Self.names[Int(rng.next() % UInt64(Self.names.count))]
            let sender = Self.names[Int(rng.next() % UInt64(Self.names.count))]
            let time = Int64(bitPattern: rng.next()) >> Int64(rng.next() % 64)
            let version = ObjectVersion(time: time, sender: sender, sequence: Int(rng.next() % 100_000))
            let hash = rng.next() % 4 == 0 ? 0 : rng.next() >> (rng.next() % 64)
            #expect(StoreDigest.line(device: device, id: id, version: version, contentHash: hash)
                    == StableHash.fnv1a64("\(device)|\(id)|\(version)|\(hash)"), "\(device) \(id) \(version) \(hash)")
        }
    }

    /// Contents drawn from a pool: the same strings again (shared storage), equal copies in
    /// their own storage, marshalled records of other objects and times, short strings.
    static func contentPool() -> [String] {
        var pool: [String] = []
        for (o, u, t, n) in [("o1", "u1", 5, 40), ("o1", "u1", 6, 40), ("o2", "u1", 5, 40), ("o1", "u2", 5, 0), ("o3", "u3", 70, 300)] {
            let s = NewestVersionWinsStore.marshalled(objectID: o, size: n, updater: u, time: Int64(t))
            pool.append(s)
            pool.append(String(decoding: Array(s.utf8), as: UTF8.self))   // equal, other storage
        }
        pool += ["", "short", "{\"id\":\"o1\"}", String(repeating: "y", count: 100), String(repeating: "y", count: 101)]
        return pool
    }

    @Test func theMemosAnswerAsThePlainFunctions() {
        var rng = Xoshiro256StarStar(seed: 3202)
        let pool = Self.contentPool()
        let fields = [("o1", "u1", Int64(5)), ("o1", "u1", 6), ("o2", "u1", 5), ("o1", "u2", 5), ("o3", "u3", 70)]
        var hashes = ContentHashMemo(), sizes = FillerSizeMemo()
        for _ in 0..<5000 {
            let content = pool[Int(rng.next() % UInt64(pool.count))]
            let (objectID, updater, time) = fields[Int(rng.next() % UInt64(fields.count))]
            #expect(hashes.hash(content) == StableHash.fnv1a64(content))
            #expect(sizes.fillerSize(of: content, objectID: objectID, updater: updater, time: time)
                    == MarshalledContent.fillerSize(of: content, objectID: objectID, updater: updater, time: time))
        }
    }

    /// A run's stores: the fingerprint's line hashes are the hashes of the plain lines, and the
    /// phantom check's memoised content test answers as the plain one for every stored object.
    @Test func aRunsStoresDigestAsThePlainText() throws {
        let system = try GrouperSystem(config: SystemConfig(devices: 4, servers: 3, k: 2, s: 2, ttl: .hours(1)))
        for i in 0..<12 { system.update(device: i % 4, objectID: "object-\(i % 5)", size: 30 + i, at: SimTime.zero + .seconds(Int64(20 * i))) }
        system.delete(device: 1, objectID: "object-2", at: SimTime.zero + .minutes(6))
        system.run(until: SimTime.zero + .minutes(30))
        let lines = system.plainStoreLines()
        #expect(lines.count > 10)
        #expect(system.storeLineHashes() == lines.map { StableHash.fnv1a64($0) })
        var sizes = FillerSizeMemo(), compared = 0
        for d in system.world.deviceNodes {
            for (id, e) in zip(d.store.storedIDs, d.store.storedObjects) {
                for w in system.world.writes where w.objectID == id {
                    #expect(w.hasContent(e.content, sizes: &sizes) == w.hasContent(e.content))
                    compared += 1
                }
            }
        }
        #expect(compared > 10)
        #expect(system.checkNoPhantom().isEmpty)
    }
}
