import Testing
import SimKernel
@testable import GrouperModel

/// The receiver's speed seam (`ReceivePipeline`): a run picks the plain or the memoised
/// pipeline once, from `SystemConfig.compactState`, and both give the same answers for the
/// same inputs (whole runs are compared in `CompactStateEquivalenceTests`).
@Suite struct ReceivePipelineTests {
    static func world(compact: Bool) throws -> World {
        var config = try SystemConfig(devices: 2, servers: 3, k: 2, s: 2, ttl: .hours(1))
        config.compactState = compact
        return World(config: config, scheme: config.scheme.makeScheme(), streams: RandomStreams(rootSeed: 5))
    }

    @Test func aRunChoosesItsPipelineFromCompactState() throws {
        #expect(try Self.world(compact: true).stores.pipeline is MemoisedPipeline)
        #expect(try Self.world(compact: false).stores.pipeline is PlainPipeline)
        #expect(try Self.world(compact: true).stores.pipeline.listsByGeneration)
        #expect(try !Self.world(compact: false).stores.pipeline.listsByGeneration)
        #expect(try Self.world(compact: true).stores.pipeline.onlyTouchedCandidates)
        #expect(try !Self.world(compact: false).stores.pipeline.onlyTouchedCandidates)
    }

    @Test func bothPipelinesAnswerAlike() throws {
        let plain = try Self.world(compact: false).stores.pipeline, memo = try Self.world(compact: true).stores.pipeline
        let scheme = SharingSchemeKind.gf256.makeScheme()
        var rng = Xoshiro256StarStar(seed: 28)
        var plainStore = NewestVersionWinsStore(), memoStore = NewestVersionWinsStore()
        var plainHeld = HeldMessages(), memoHeld = HeldMessages()
        for i in 0..<40 {
            let type: MessageType = i % 5 == 4 ? .delete : .update
            let m = GrouperMessage(type: type, content: "{\"v\":\(i)}", sequence: i / 2 + 1, objectClass: "Note",
                                   objectID: "o\(i % 3)", receiver: GrouperMessage.multicast, sender: "s\(i % 2)",
                                   email: "e", name: "n", sendTime: Int64(i), messageID: "m\(i)")
            let shares = try scheme.split(m.encoded(), k: 2, n: 3, rng: &rng).shares
            for _ in 0..<2 {   // the second time, the memoised pipeline answers from its memos
                let a = try plain.join(shares, k: 2, number: Int32(i)), b = try memo.join(shares, k: 2, number: Int32(i))
                #expect(a.secret == b.secret && a.work == b.work)
                #expect(plain.decode(a.secret, number: Int32(i)) == m)
                #expect(memo.decode(b.secret, number: Int32(i)) == m)
            }
            #expect(plain.hold(m, in: &plainHeld) == memo.hold(m, in: &memoHeld))
            plain.apply(m, to: &plainStore)
            memo.apply(m, to: &memoStore)
            #expect(plainStore.entries == memoStore.entries)
        }
        #expect(plainHeld.count == memoHeld.count && plainHeld.count > 0)
        let memoised = try #require(memo as? MemoisedPipeline)
        #expect(memoised.joins.hits == 40 && memoised.decoded.hits == 40)
    }

    /// At k = 1 the memoised pipeline joins on its own (a one-share join is cheaper than the
    /// memo), with the plain pipeline's result; at k = 2 it goes through `JoinMemo`.
    @Test func oneShareJoinsBypassTheJoinMemo() throws {
        let plain = try Self.world(compact: false).stores.pipeline, memo = try Self.world(compact: true).stores.pipeline
        let memoised = try #require(memo as? MemoisedPipeline)
        let scheme = SharingSchemeKind.gf256.makeScheme()
        var rng = Xoshiro256StarStar(seed: 29)
        for i in 0..<10 {
            let secret = (0..<(20 + i)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let shares = try scheme.split(secret, k: 1, n: 2, rng: &rng).shares
            for _ in 0..<2 {
                let a = try plain.join(shares, k: 1, number: Int32(i)), b = try memo.join(shares, k: 1, number: Int32(i))
                #expect(a.secret == secret && b.secret == secret && a.work == b.work)
            }
        }
        #expect(memoised.joins.hits + memoised.joins.misses == 0)
        let two = try scheme.split([1, 2, 3], k: 2, n: 2, rng: &rng).shares
        _ = try memo.join(two, k: 2, number: 99)
        #expect(memoised.joins.misses == 1)
    }

    @Test func onlyTheMemoisedPipelineRemembersRebuildsAndGivesHints() throws {
        let plain = try Self.world(compact: false).stores.pipeline, memo = try Self.world(compact: true).stores.pipeline
        let m = RebuildFastPathTests.message(.update, sender: "s", sequence: 1, sendTime: 0, id: "m")
        var p = PartialMessage(servers: 3)
        p.add(ShareDownload(shareID: 1, messageID: "m", sender: "s", share: [1, 2, 3], saveAt: .zero), server: 0)
        p.add(ShareDownload(shareID: 2, messageID: "m", sender: "s", share: [2, 4, 6], saveAt: .zero), server: 2)
        let o = RebuildMemo.Outcome(message: m, secretCount: 3, work: SharingWork(bytesIn: 3))
        for pipeline in [plain, memo] { pipeline.recordRebuild(7, k: 2, shares: p.shares, o) }
        #expect(plain.recordedRebuild(7, k: 2, p) == nil)
        let recorded = memo.recordedRebuild(7, k: 2, p)
        #expect(recorded?.secretCount == o.secretCount && recorded?.work == o.work && recorded?.message == m)
        let confirm = RebuildFastPathTests.message(.confirm, sender: "s", sequence: 3, sendTime: 0, id: "c")
        #expect(plain.deliveryHints(confirm).idNumber == nil && plain.deliveryHints(m).senderSlot == nil)
        let number = try #require(memo.deliveryHints(confirm).idNumber)
        #expect(memo.deliveryHints(confirm).senderSlot == nil && memo.deliveryHints(m).idNumber == nil)
        #expect(memo.deliveryHints(confirm).idNumber == number, "the same id keeps its number")
    }
}
