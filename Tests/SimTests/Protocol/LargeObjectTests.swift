import Testing
import SimKernel
@testable import GrouperModel

/// Chunked large objects and the device store at rest (issue #10), on small runs checked by hand.
@Suite struct LargeObjectTests {
    func at(_ seconds: Double) -> SimTime { SimTime.zero + .seconds(seconds) }

    func message(_ r: ChunkRecord, sequence: Int, id: String) -> GrouperMessage {
        GrouperMessage(type: .update, content: r.content, sequence: sequence, objectClass: "Record", objectID: "o",
                       receiver: GrouperMessage.multicast, sender: "S", email: "", name: "", sendTime: 7, messageID: id)
    }

    func records(size: Int, _ c: ChunkingConfig, seed: UInt64 = 9) -> [ChunkRecord] {
        (0..<c.chunkCount(size: size)).map { i in
            ChunkRecord(index: i, count: c.chunkCount(size: size), size: size, bytes: c.chunkLength(i, size: size), seed: seed,
                        real: ChunkPayload.bytes(seed: seed, offset: i * c.chunkBytes, count: c.realLength(i, size: size)))
        }
    }

    @Test func chunkRecordRoundTrips() {
        let r = ChunkRecord(index: 2, count: 5, size: 4_500, bytes: 1_000, seed: 0xABC, real: "xyz")
        #expect(ChunkRecord.parse(r.content) == r)
        #expect(r.modelledBytes == 997)
        #expect(ChunkRecord.parse("{\"id\":\"o1\",\"payload\":\"x\"}") == nil)
        #expect(ChunkRecord.parse(r.content.replacingOccurrences(of: "\"of\":5", with: "\"of\":2")) == nil)   // index ≥ count
    }

    /// Every chunk is needed; the order does not matter; a repeated chunk changes nothing; the
    /// whole object carries its last chunk's sequence and id, and (all bytes real) the original bytes.
    @Test func reassemblyNeedsEveryChunk() throws {
        let c = ChunkingConfig(chunkBytes: 1_000, realBytesPerChunk: 1_000)
        let rs = records(size: 4_500, c)
        #expect(rs.count == 5 && rs[4].bytes == 500)
        var a = ChunkAssembly()
        for i in [3, 0, 4, 1] {
            let got = a.add(rs[i], of: message(rs[i], sequence: 10 + i, id: "m\(i)"))
            #expect(got == nil)
        }
        let again = a.add(rs[4], of: message(rs[4], sequence: 14, id: "m4"))
        #expect(again == nil, "a repeated chunk completes nothing")
        #expect(a.heldBytes == 3_500)
        let last = a.add(rs[2], of: message(rs[2], sequence: 12, id: "m2"))
        let whole = try #require(last)
        #expect(whole.sequence == 14 && whole.messageID == "m4" && a.heldBytes == 0)
        let original = ChunkPayload.bytes(seed: 9, offset: 0, count: 4_500)
        #expect(whole.content == ChunkRecord.objectContent(objectID: "o", size: 4_500, count: 5, seed: 9, real: original))
        #expect(ChunkRecord.objectSize(whole.content) == 4_500)
    }

    func system(_ c: ChunkingConfig?, store: DeviceStoreConfig = DeviceStoreConfig(), device: DeviceProfile = .lab,
                seed: UInt64 = 4, pullOnReconnect: Bool = true) throws -> GrouperSystem {
        var cfg = try SystemConfig(devices: 3, servers: 3, k: 2, s: 3, ttl: .hours(2), seed: seed)
        cfg.chunking = c
        cfg.deviceStore = store
        cfg.device = device
        cfg.confirm = ConfirmPolicy(period: nil, onReconnect: false)   // only the writes upload
        cfg.receive.onReconnect = pullOnReconnect
        return try GrouperSystem(config: cfg)
    }

    /// All bytes real: every member ends with the writer's object, whose bytes are the original's.
    @Test func realBytesAreReassembledOnEveryDevice() throws {
        let s = try system(ChunkingConfig(chunkBytes: 1_000, realBytesPerChunk: 1_000))
        s.update(device: 0, objectID: "o", size: 10_500, at: at(10))
        s.run(until: at(3_600))
        let w = try #require(s.writes.first)
        #expect(s.writes.count == 1 && s.deliveryRatio == 1)
        for d in 0..<3 { #expect(s.objects(device: d).map(\.content) == [w.content!]) }
        let seed = try #require(w.content.flatMap { $0.split(separator: "\"")[11] }.flatMap { UInt64($0, radix: 16) })
        #expect(w.content!.hasSuffix("\"real\":\"\(ChunkPayload.bytes(seed: seed, offset: 0, count: 10_500))\"}"))
        #expect(s.counters.total(.messagesUploaded, type: .update) == 11)
        #expect(s.counters.total(.messagesRebuilt, type: .update) == 22)   // 11 chunks × 2 receivers
    }

    /// A receiver holding some chunks but not all has not received the object; once the last one
    /// arrives it has. (50 MiB in 1 MiB chunks takes about a minute on the lab link.)
    @Test func missingChunksMeanNotDelivered() throws {
        let s = try system(ChunkingConfig())
        s.update(device: 0, objectID: "o", size: 50 << 20, at: at(10))
        var partialSeen = false
        var t = 10.0
        while t < 1_800 && !partialSeen {
            t += 5
            s.run(until: at(t))
            let (objects, pending) = s.chunkState(device: 1)
            if pending > 0 {
                partialSeen = true
                #expect(objects == 0 && s.deliveryRatio! < 1)
            }
        }
        #expect(partialSeen)
        s.run(until: at(7_000))
        #expect(s.chunkState(device: 1) == (objects: 1, pendingChunkBytes: 0))
        #expect(s.deliveryRatio == 1)
    }

    /// One pull fetches a whole list longer than `chunkBatchLimit`: the receiver was offline
    /// while 50 chunks were uploaded, comes back, pulls once (no pushes, no periodic pull) and
    /// runs further rounds of at most 16 gets each only because the list had more.
    @Test func oneReconnectPullFetchesAListCutAtTheBatchLimit() throws {
        var cfg = try system(ChunkingConfig()).config
        cfg.receive = ReceivePolicy(onPush: false, pullPeriod: nil, onReconnect: true)
        let s = try GrouperSystem(config: cfg)
        s.setOnline(false, device: 1, at: at(1))
        s.update(device: 0, objectID: "o", size: 50 << 20, at: at(10))
        s.run(until: at(1_800))
        #expect(s.chunkState(device: 1) == (objects: 0, pendingChunkBytes: 0))
        #expect(s.counters.total(.messagesUploaded, type: .update) == 50)
        s.setOnline(true, device: 1, at: at(1_800))
        s.run(until: at(3_600))
        #expect(s.chunkState(device: 1) == (objects: 1, pendingChunkBytes: 0))
        #expect(s.counters.total(.messagesRebuilt, type: .update) == 50, "device 2 never pulls; device 1 rebuilds each chunk once")
    }

    /// Costed bytes travel: an 8 MiB object with 64 real bytes per chunk puts about 8 MiB (as
    /// base64, 4/3) on each of the 3 servers.
    @Test func costedBytesAreCharged() throws {
        let s = try system(ChunkingConfig())
        s.update(device: 0, objectID: "o", size: 8 << 20, at: at(10))
        s.run(until: at(3_600))
        let sent = Double(s.traffic[0].bytesSent), expected = 3 * Double(8 << 20) * 4 / 3
        #expect(sent > expected && sent < expected * 1.01, "\(sent) vs \(expected)")
        #expect(s.deliveryRatio == 1)
    }

    /// A profile with round numbers: 10 ns per AES byte, 1 µs per PBKDF2 iteration.
    var cryptoDevice: DeviceProfile {
        DeviceProfile(name: "t", nanosPerFieldOp: 0, nanosPerRandomByte: 0, nanosPerJSONByte: 0, nanosPerStoreWrite: 0,
                      nanosPerRequest: 0, nanosPerAESByte: 10, nanosPerKDFIteration: 1_000)
    }

    func firstUpload(_ s: GrouperSystem) -> TransferTiming? { s.timings.first { $0.direction == .upload && $0.device == 0 } }
    func firstDownload(_ s: GrouperSystem, device: Int) -> TransferTiming? {
        s.timings.first { $0.direction == .download && $0.device == device && $0.messages > 0 }
    }

    /// The writer encrypts its local copy before the upload (size × 10 ns); a receiver encrypts
    /// what it applies (same bytes) before its round ends. The key derivation (10 000 × 1 µs =
    /// 10 ms at time 0) is over by the write at 10 s.
    @Test func atRestCostsByHand() throws {
        let size = 100_000
        var ends: [(up: SimTime, down: SimTime)] = []
        for mode in [AtRestMode.plain, .aes256CBC] {
            let s = try system(nil, store: DeviceStoreConfig(atRest: mode), device: cryptoDevice)
            s.update(device: 0, objectID: "o", size: size, at: at(10))
            s.run(until: at(600))
            ends.append((try #require(firstUpload(s)).end, try #require(firstDownload(s, device: 1)).end))
        }
        let content = NewestVersionWinsStore().marshall(objectID: "o", size: size, updater: "x", time: 10).utf8.count
        let nodeLength = 36   // the updater is a UUID-shaped node id, not "x"
        let bytes = content - 1 + nodeLength
        #expect(ends[1].up - ends[0].up == .nanoseconds(Int64(10 * bytes)))
        #expect(ends[1].down - ends[0].down == .nanoseconds(Int64(20 * bytes)))
    }

    /// One PBKDF2 derivation per device start: at time 0 and on each return online.
    @Test func keyDerivationPerStart() throws {
        var ups: [SimTime] = []
        for mode in [AtRestMode.plain, .aes256CBC] {
            let s = try system(nil, store: DeviceStoreConfig(atRest: mode, kdfIterations: 1_000_000), device: cryptoDevice,
                               pullOnReconnect: false)   // nothing else on the link when the write leaves
            s.update(device: 0, objectID: "o", size: 100, at: at(0.25))   // during the 1 s derivation of the start
            s.setOnline(false, device: 0, at: at(100))
            s.setOnline(true, device: 0, at: at(200))
            s.update(device: 0, objectID: "p", size: 100, at: at(200.5))  // during the derivation of the return
            s.run(until: at(600))
            ups.append(contentsOf: s.timings.filter { $0.direction == .upload && $0.device == 0 }.map(\.end))
        }
        #expect(ups.count == 4)
        func aes(_ time: Int64) -> SimDuration {   // 10 ns per byte of the stored record (a 36-character node id)
            .nanoseconds(10 * Int64(NewestVersionWinsStore().marshall(objectID: "o", size: 100, updater: "x", time: time).utf8.count - 1 + 36))
        }
        #expect(ups[2] - ups[0] == .seconds(0.75) + aes(0))   // the rest of the derivation, then AES
        #expect(ups[3] - ups[1] == .seconds(0.5) + aes(200))
    }

    /// `device_plaintext_bytes`: a plain store exposes every object's full size (5 MiB on each
    /// of 3 members), an encrypted one nothing.
    @Test func devicePlaintextBytes() throws {
        for (mode, expected) in [(AtRestMode.plain, Double(5 << 20)), (.aes256CBC, 0)] {
            let s = try system(ChunkingConfig(), store: DeviceStoreConfig(atRest: mode))
            s.update(device: 0, objectID: "o", size: 5 << 20, at: at(10))
            s.run(until: at(3_600))
            #expect(s.deliveryRatio == 1)
            #expect(s.devicePlaintextBytesMean == expected)
        }
    }

    /// `device_plaintext_bytes` has one basis for both architectures: the payload bytes written
    /// (100 here), not Grouper's JSON record around them (about 190 bytes), for a whole object
    /// and for a deleted one (nothing).
    @Test func devicePlaintextBytesSameBasisForGrouperAndCentral() throws {
        let g = try system(nil)
        g.update(device: 0, objectID: "a", size: 100, at: at(10))
        g.update(device: 1, objectID: "b", size: 100, at: at(20))
        g.delete(device: 1, objectID: "b", at: at(30))
        g.run(until: at(3_600))
        #expect(g.deliveryRatio == 1)
        let c = try CentralSystem(config: CentralConfig(devices: 3, seed: 2))
        c.update(device: 0, objectID: "a", size: 100, at: at(10))
        c.update(device: 1, objectID: "b", size: 100, at: at(20))
        c.delete(device: 1, objectID: "b", at: at(30))
        c.run(until: at(3_600))
        #expect(c.deliveryRatio == 1)
        #expect(g.devicePlaintextBytesMean == 100)
        #expect(c.devicePlaintextBytesMean == 100)
    }

    /// Central: each chunk is a transfer; a receiver offline during the upload gets the object
    /// when it returns, after fetching every chunk.
    @Test func centralChunksAreTransfers() throws {
        var c = CentralConfig(devices: 3, seed: 2)
        c.chunking = ChunkingConfig(chunkBytes: 1_000, realBytesPerChunk: 0)
        let s = try CentralSystem(config: c)
        s.setOnline(false, device: 2, at: at(0))
        s.update(device: 0, objectID: "o", size: 4_500, at: at(60))
        s.run(until: at(1_800))
        #expect(s.counters.uploads == 5 && s.counters.fetched == 5)
        #expect(s.deliveryRatio! < 1)
        s.setOnline(true, device: 2, at: at(1_900))
        s.run(until: at(3_600))
        #expect(s.counters.fetched == 10 && s.deliveryRatio == 1)
        #expect(s.devicePlaintextBytesMean == 4_500)
    }
}
