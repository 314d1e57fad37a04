import Testing
import SimKernel
@testable import GrouperModel

/// Recovery where features meet (issue #26): the sender's re-upload threshold follows the
/// requester's rebuild policy, each requester gets one copy at a time, and receivers move past
/// shares a server lists but does not serve.
@Suite struct RecoveryThresholdTests {
    static func at(_ seconds: Int64) -> SimTime { SimTime.zero + .seconds(seconds) }

    /// Device 0 of three on f(2,3,2) with `rebuild`, driven through a scripted context; `writes`
    /// updates uploaded (stored on every server).
    static func sender(rebuild: RebuildPolicy = .firstK, writes: Int = 1) throws -> (DeviceNode, World, ScriptedContext) {
        var config = try SystemConfig(devices: 3, servers: 3, k: 2, s: 2, ttl: .hours(1))
        config.rebuild = rebuild
        let world = World(config: config, scheme: config.scheme.makeScheme(), streams: RandomStreams(rootSeed: 5))
        let d = DeviceNode(index: 0, world: world, rng: Xoshiro256StarStar(seed: 9))
        world.deviceNodes = [d]
        d.isMember = true
        d.accessKeys = ["key-0", "key-1", "key-2"]
        d.members = Array(world.nodeIDs)
        let ctx = ScriptedContext()
        for i in 0..<writes { d.handle(.command(.update(objectID: "o\(i)", size: 100)), ctx) }
        finishUploads(d, ctx)
        return (d, world, ctx)
    }

    /// Runs the device's upload jobs to success (every server stores).
    static func finishUploads(_ d: DeviceNode, _ ctx: ScriptedContext) {
        while let j = d.job {
            let first = ctx.requests.count
            d.handle(.uploadReady(jobID: j.id), ctx)
            for r in ctx.requests[first...] {
                guard case .transferPut(let ups) = r.request.call else { continue }
                d.handle(.response(requestID: r.request.requestID, outcome: .reply(.stored(ups.count))), ctx)
            }
        }
    }

    /// The existence checks of the last resend answer: (request id, message ids, for whom).
    static func checks(_ ctx: ScriptedContext, from first: Int) -> [(id: Int, ids: [String], requester: String?)] {
        ctx.requests[first...].compactMap { r in
            guard case .transferConfirm(let ids, let requester) = r.request.call else { return nil }
            return (r.request.requestID, ids, requester)
        }
    }

    /// Answers a resend of message 1 for device 1 with `holders` of the 3 servers still holding
    /// it; whether a re-upload for device 1 is then queued or in flight.
    static func reuploads(holders: Int, rebuild: RebuildPolicy) throws -> Bool {
        let (d, world, ctx) = try sender(rebuild: rebuild)
        let first = ctx.requests.count
        d.handle(.command(.answerResend(requester: 1, range: 1...1)), ctx)
        let asked = checks(ctx, from: first)
        #expect(asked.count == 3 && asked.allSatisfy { $0.requester == world.nodeIDs[1] })
        for (i, c) in asked.enumerated() {
            d.handle(.response(requestID: c.id, outcome: .reply(.missing(i < holders ? [] : c.ids))), ctx)
        }
        let queued = d.outbox + (d.job?.items ?? [])
        return queued.contains { $0.isReupload && $0.shareReceiver == world.nodeIDs[1] }
    }

    /// first-k needs k = 2 shares: exactly k holders is enough, k − 1 is not.
    @Test func firstKReuploadsBelowKHolders() throws {
        #expect(try !Self.reuploads(holders: 2, rebuild: .firstK))
        #expect(try Self.reuploads(holders: 1, rebuild: .firstK))
    }

    /// check needs k + 1 = 3 (correct too; it needs n ≥ k + 2 servers, which this sender lacks): with exactly k holders the requester could never
    /// rebuild, so the sender re-uploads; k + 1 holders are enough.
    @Test func checkReuploadsBelowKPlusOneHolders() throws {
        #expect(try Self.reuploads(holders: 2, rebuild: .check))
        #expect(try !Self.reuploads(holders: 3, rebuild: .check))
    }

    /// One copy per (message, requester) while one is being answered, queued or in flight;
    /// an overlapping request asks only for the rest; once the copy is stored, a new request
    /// asks the servers again, for that requester.
    @Test func oneCopyPerRequesterAtATime() throws {
        let (d, world, ctx) = try Self.sender(writes: 2)
        let b = world.nodeIDs[1], m1 = d.sentItems(0..<1)[0].message.messageID, m2 = d.sentItems(1..<2)[0].message.messageID
        var first = ctx.requests.count
        d.handle(.command(.answerResend(requester: 1, range: 1...1)), ctx)
        let asked = Self.checks(ctx, from: first)
        // Asked again while the servers are being asked: nothing new.
        first = ctx.requests.count
        d.handle(.command(.answerResend(requester: 1, range: 1...1)), ctx)
        #expect(ctx.requests.count == first)
        #expect(ctx.logged.last?.text.hasSuffix("already being answered") == true)
        for c in asked { d.handle(.response(requestID: c.id, outcome: .reply(.missing(c.ids))), ctx) }
        #expect((d.outbox + (d.job?.items ?? [])).filter { $0.isReupload }.map { $0.message.messageID } == [m1])
        // Overlapping request while the copy is in flight: only message 2 is checked.
        first = ctx.requests.count
        d.handle(.command(.answerResend(requester: 1, range: 1...2)), ctx)
        let overlap = Self.checks(ctx, from: first)
        #expect(overlap.count == 3 && overlap.allSatisfy { $0.ids == [m2] })
        for c in overlap { d.handle(.response(requestID: c.id, outcome: .reply(.missing([]))), ctx) }
        // Another requester is not held back by device 1's copy.
        first = ctx.requests.count
        d.handle(.command(.answerResend(requester: 2, range: 1...1)), ctx)
        #expect(Self.checks(ctx, from: first).allSatisfy { $0.ids == [m1] && $0.requester == world.nodeIDs[2] })
        // Stored: the next request of device 1 asks the servers again.
        Self.finishUploads(d, ctx)
        #expect(!d.reuploading.contains(ReuploadKey(messageID: m1, requester: b)))
        first = ctx.requests.count
        d.handle(.command(.answerResend(requester: 1, range: 1...1)), ctx)
        #expect(Self.checks(ctx, from: first).map { $0.ids } == [[m1], [m1], [m1]])
    }

    /// f(2,3,3), server 1 withholds every share on transfer/get, one 20-chunk object (more than
    /// a get carries) and then a small one: receivers move past the withheld ids, so the run
    /// stays small and the later object arrives from servers 0 and 2.
    @Test func withheldChunksDoNotLoopReceivers() throws {
        var c = try SystemConfig(devices: 3, servers: 3, k: 2, s: 3, ttl: .hours(24), seed: 7)
        c.chunking = ChunkingConfig(chunkBytes: 1 << 20, realBytesPerChunk: 0)
        let s = try GrouperSystem(config: c)
        s.setMisbehaviour(.withhold(mode: .get, fraction: 1), id: 0, server: 1, at: .zero)
        s.update(device: 0, objectID: "big", size: 20 << 20, at: Self.at(60))
        s.update(device: 0, objectID: "late", size: 1_000, at: Self.at(600))
        s.run(until: Self.at(1_200))
        #expect(s.eventsProcessed < 20_000, "\(s.eventsProcessed) events")
        #expect(s.traffic.map(\.requests).reduce(0, +) < 1_000)
        for d in 1...2 { #expect(s.objects(device: d).map { $0.id } == ["big", "late"]) }
        #expect(s.checkConvergence().isEmpty, "\(s.checkConvergence())")
    }

    /// check needs k + 1 shares. Server 2 loses its shares in a restart before device 2 fetched
    /// them, so only k = 2 servers hold the first update: the sender must re-upload it for
    /// device 2 (before, it saw k holders, answered "all still on ≥ k servers", and device 2
    /// waited for the TTL).
    @Test func checkRecoversWhenExactlyKServersHoldAMessage() throws {
        var c = try SystemConfig(devices: 3, servers: 3, k: 2, s: 3, ttl: .hours(2), seed: 3)
        c.rebuild = .check
        let s = try GrouperSystem(config: c)
        s.setOnline(false, device: 2, at: Self.at(30))
        s.update(device: 0, objectID: "o1", size: 200, at: Self.at(60))
        s.restartServer(2, keepData: false, at: Self.at(300))
        s.setOnline(true, device: 2, at: Self.at(600))
        s.update(device: 0, objectID: "o2", size: 200, at: Self.at(900))
        s.run(until: Self.at(3_600))
        #expect(s.objects(device: 2).map { $0.id } == ["o1", "o2"])
        #expect(s.checkConvergence().isEmpty, "\(s.checkConvergence())")
    }

    /// A rebuild policy that needs more shares than there are servers is refused.
    @Test func checkNeedsMoreServersThanK() throws {
        var c = try SystemConfig(devices: 2, servers: 2, k: 2, s: 2)
        c.rebuild = .check
        #expect(throws: SystemConfigError.self) { try c.validate() }
        c.rebuild = .firstK
        try c.validate()
        var three = try SystemConfig(devices: 2, servers: 3, k: 2, s: 2)
        three.rebuild = .check
        try three.validate()
    }

    /// No-recovery with a 1-day TTL and two withholding servers: the finding names them, not
    /// the TTL, which deleted nothing.
    @Test func lossFindingNamesWithholdingServersNotTheTTL() throws {
        var c = try SystemConfig(devices: 2, servers: 3, k: 2, s: 3, ttl: .hours(24), variant: .noRecovery, seed: 2)
        c.confirm = ConfirmPolicy(period: nil, onReconnect: false)
        let s = try GrouperSystem(config: c)
        for j in 0..<2 { s.setMisbehaviour(.withhold(mode: .get, fraction: 1), id: 0, server: j, at: .zero) }
        s.update(device: 0, objectID: "o", size: 200, at: Self.at(60))
        s.run(until: Self.at(3_600))
        let f = s.checkConvergence()
        #expect(f.count == 1)
        #expect(f.first?.message.contains("withheld by servers 1, 2") == true, "\(f)")
        #expect(f.first?.message.contains("TTL") == false, "\(f)")
    }

    /// check with a tampering server: every member collected shares that disagree, which no
    /// re-upload changes (same shares); the finding says so instead of "in progress".
    @Test func tamperedSharesUnderCheckAreNamed() throws {
        var c = try SystemConfig(devices: 3, servers: 4, k: 2, s: 3, ttl: .hours(1), seed: 5)
        c.rebuild = .check
        c.confirm = ConfirmPolicy(period: nil, onReconnect: false)
        c.receive = ReceivePolicy(onPush: true, pullPeriod: nil, onReconnect: true)
        let s = try GrouperSystem(config: c)
        s.setMisbehaviour(.tamper(fraction: 1), id: 0, server: 0, at: .zero)
        s.update(device: 0, objectID: "o1", size: 400, at: Self.at(1))
        s.run(until: Self.at(60))
        let f = s.checkConvergence()
        #expect(f.count == 2 && f.allSatisfy { $0.message.contains("disagree") && !$0.message.contains("in progress") }, "\(f)")
    }

    /// Receivers that only poll, less often than once per TTL: the finding says recovery cannot
    /// deliver, not that it is in progress.
    @Test func pollOnlyReceiversSlowerThanTheTTLAreNamed() throws {
        var c = try SystemConfig(devices: 3, servers: 3, k: 2, s: 3, ttl: .hours(1), seed: 4)
        c.receive = ReceivePolicy(onPush: false, pullPeriod: .hours(2), onReconnect: true)
        let s = try GrouperSystem(config: c)
        s.setOnline(false, device: 2, at: Self.at(30))
        s.update(device: 0, objectID: "o", size: 200, at: Self.at(60))
        s.setOnline(true, device: 2, at: Self.at(3 * 3_600))
        s.run(until: Self.at(5 * 3_600))
        let f = s.checkConvergence().filter { $0.message.hasPrefix("D3 ") }
        #expect(!f.isEmpty)
        #expect(f.allSatisfy { $0.message.contains("is not notified and polls only every") && !$0.message.contains("in progress") }, "\(f)")
    }
}
