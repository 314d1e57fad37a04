import Testing
import SimKernel
@testable import GrouperModel

/// `ReuploadParts`: every stored re-upload is a first copy, a repeated copy or a copy of a
/// message its requester held, and the three add up to the `reUploads` counter.
@Suite struct ReuploadPartsTests {
    /// `ResendRangesTests`' run (device 2 away 20–140 and 150–330 min, TTL 1 h, device 1
    /// writing every 10 min and itself away 138–200 min): 3…8 are lost and re-uploaded at 200
    /// (first copies) while device 2 is away again, expire unread and are re-uploaded at 330
    /// (repeated copies); 15…27 are lost in the second absence (first copies); under `.span`
    /// the request 3…27 re-uploads the held 9…14 too (held copies), under `.holes` not.
    static func run(_ ranges: ResendRanges) throws -> GrouperSystem {
        var c = try SystemConfig(devices: 2, servers: 1, k: 1, s: 1, ttl: .hours(1))
        c.receive = ReceivePolicy(onPush: true, pullPeriod: .minutes(10), onReconnect: true)
        c.resendRanges = ranges
        let system = try GrouperSystem(config: c)
        let t = { (m: Int64) in SimTime.zero + .minutes(m) }
        for j in 0..<40 { system.update(device: 0, objectID: "o\(j)", size: 16, at: t(5 + 10 * Int64(j))) }
        system.setOnline(false, device: 1, at: t(20)); system.setOnline(true, device: 1, at: t(140))
        system.setOnline(false, device: 0, at: t(138)); system.setOnline(true, device: 0, at: t(200))
        system.setOnline(false, device: 1, at: t(150)); system.setOnline(true, device: 1, at: t(330))
        system.run(until: t(480))
        return system
    }

    static func parts(_ s: GrouperSystem, window: Int? = nil) -> [Int] {
        ReuploadPart.allCases.map { s.reuploadParts.total($0, window: window) }
    }

    @Test func eachPartOnAHandBuiltRun() throws {
        let span = try Self.run(.span), holes = try Self.run(.holes)
        #expect(Self.parts(span) == [6 + 13, 6, 6], "first 3…8 and 15…27, 3…8 again, held 9…14: \(Self.parts(span))")
        #expect(Self.parts(holes) == [6 + 13, 6, 0], "holes re-upload nothing held: \(Self.parts(holes))")
        // By window (TTL 1 h): 3…8 stored at 200 min (window 3), the rest at 330 min (window 5).
        #expect(Self.parts(span, window: 3) == [6, 0, 0] && Self.parts(span, window: 5) == [13, 6, 6])
        #expect(span.reuploadParts.total(.first, device: 1) == 0, "device 2 re-uploaded nothing")
        for s in [span, holes] { #expect(Self.parts(s).reduce(0, +) == s.counters.total(.reUploads)) }
    }

    /// The rule that puts a re-upload in exactly one part, at its boundaries: held before
    /// repeated before first. A copy of a message its requester holds is held even when a copy
    /// for that requester was stored before (both conditions true); a copy of a message it
    /// lacks is repeated once any copy for it was stored (a held one included), else first;
    /// copies for another requester or of another message do not count as stored before.
    @Test func priorityHeldBeforeRepeatedBeforeFirst() {
        var parts = ReuploadParts(ttl: .hours(1))
        let t = SimTime.zero + .minutes(30)
        func note(_ number: Int32, _ requester: Int, holds: Bool) -> [Int] {
            let before = ReuploadPart.allCases.map { parts.total($0) }
            parts.note(number: number, device: 0, requester: (requester, holds), at: t)
            return zip(ReuploadPart.allCases.map { parts.total($0) }, before).map { $0 - $1 }
        }
        // [first, repeated, held]
        #expect(note(7, 1, holds: false) == [1, 0, 0], "no copy before, not held: first")
        #expect(note(7, 1, holds: false) == [0, 1, 0], "a copy before, not held: repeated")
        #expect(note(7, 1, holds: true) == [0, 0, 1], "a copy before and held: held, not repeated")
        #expect(note(7, 2, holds: false) == [1, 0, 0], "a copy for another requester does not count")
        #expect(note(8, 1, holds: true) == [0, 0, 1], "no copy before, held: held, not first")
        #expect(note(8, 1, holds: false) == [0, 1, 0], "after a held copy, a copy of a message it lacks is repeated")
        #expect(note(9, 3, holds: false) == [1, 0, 0], "another message: first")
    }

    /// A copy's part is what the requester held when the sender chose to re-upload it (after
    /// its servers check), not when the sender learns the copy is stored. Device 2 (index 1)
    /// is away 20–140 min and loses 3…8; on its ask device 1 re-uploads them (one-way latency
    /// 30 s, so a put is stored 30 s before its answer comes back). In the second run device 1
    /// leaves 45 s after choosing the copies: they are on the server, but the job fails and
    /// they wait in its unsent queue. Device 2's next pull rebuilds them from that very upload;
    /// device 1's retry after its return stores them again and `reUploads` counts them then.
    /// They are first copies (the requester lacked them when they were chosen), as in the
    /// run where device 1 stays: counting them as held (what the requester holds when the
    /// copy is stored) made `"holes"` report held copies under churn.
    @Test func aCopyRebuiltBeforeItsSenderKnowsItIsStoredIsAFirstCopy() throws {
        func run(senderLeavesAfterChoosing: Bool, at chosen: SimTime? = nil) throws -> GrouperSystem {
            var c = try SystemConfig(devices: 2, servers: 1, k: 1, s: 1, ttl: .hours(1))
            c.receive = ReceivePolicy(onPush: true, pullPeriod: .minutes(10), onReconnect: true)
            c.network = NetworkProfile(name: "slow", latencyNanos: 30_000_000_000, latencyStepNanos: 0,
                                       bytesPerSecond: 2_500_000, overheadBytes: 400, pushLatencyNanos: 300_000_000)
            c.requestTimeout = .minutes(5)
            c.resendRanges = .holes
            let system = try GrouperSystem(config: c)
            let t = { (m: Int64) in SimTime.zero + .minutes(m) }
            for j in 0..<30 { system.update(device: 0, objectID: "o\(j)", size: 16, at: t(5 + 10 * Int64(j))) }
            system.setOnline(false, device: 1, at: t(20)); system.setOnline(true, device: 1, at: t(140))
            if senderLeavesAfterChoosing, let chosen {
                system.setOnline(false, device: 0, at: chosen + .seconds(Int64(45)))
                system.setOnline(true, device: 0, at: chosen + .minutes(15))
            }
            system.run(until: t(300))
            return system
        }
        func firstTime(_ s: GrouperSystem, device: Int, _ prefix: String) -> SimTime? {
            s.log.first { $0.device == device && $0.text.hasPrefix(prefix) }?.time
        }
        let stays = try run(senderLeavesAfterChoosing: false)
        let chosen = try #require(firstTime(stays, device: 0, "re-upload update#3,"), "device 1 re-uploads 3…8")
        #expect(Self.parts(stays) == [6, 0, 0], "\(Self.parts(stays))")
        let leaves = try run(senderLeavesAfterChoosing: true, at: chosen)
        #expect(firstTime(leaves, device: 0, "re-upload update#3,") == chosen, "the same choice in both runs")
        // The situation: device 2 rebuilt 3 before device 1's retry of its copy was stored.
        let rebuilt = try #require(firstTime(leaves, device: 1, "handle update#3 "))
        let stored = try #require(firstTime(leaves, device: 0, "upload update#3,"))
        #expect(rebuilt > chosen + .seconds(Int64(45)) && rebuilt < stored, "rebuilt at \(rebuilt), stored at \(stored)")
        #expect(leaves.counters.total(.reUploads) == 6, "one copy each: \(leaves.counters.total(.reUploads))")
        #expect(Self.parts(leaves) == [6, 0, 0], "first copies, not held: \(Self.parts(leaves))")
    }

    /// A multicast re-upload has no single requester: it counts as a first copy.
    @Test func multicastReuploadsAreFirstCopies() throws {
        var c = try SystemConfig(devices: 3, servers: 1, k: 1, s: 1, ttl: .hours(1))
        c.receive = ReceivePolicy(onPush: true, pullPeriod: .minutes(10), onReconnect: true)
        c.resendMulticastAfter = 1
        let system = try GrouperSystem(config: c)
        let t = { (m: Int64) in SimTime.zero + .minutes(m) }
        for j in 0..<12 { system.update(device: 0, objectID: "o\(j)", size: 16, at: t(5 + 10 * Int64(j))) }
        system.setOnline(false, device: 1, at: t(20)); system.setOnline(true, device: 1, at: t(140))
        system.run(until: t(240))
        let total = system.counters.total(.reUploads)
        #expect(total > 0)
        #expect(Self.parts(system) == [total, 0, 0], "\(Self.parts(system)) of \(total)")
    }

    /// The parts add up to the re-uploads in every window of random runs with churn, server
    /// crashes and unsent retries, with per-requester and shared re-uploads. (These short runs
    /// make first copies only; `EquationReportTests.partsOfTheCountsAddUpAndArePrinted` checks
    /// the sum on runs with all three parts.)
    @Test func partsSumToTheReuploadsInEveryWindow() throws {
        var total = [nil: 0, 2: 0] as [Int?: Int]
        for seed in UInt64(9)...20 {  // past the seeds that check invariants after every event (slow)
            for shared in [nil, 2] {
                let s = try RandomRun.make(seed: seed, variant: .thesis, resendMulticastAfter: shared)
                for w in 0..<12 {
                    #expect(Self.parts(s, window: w).reduce(0, +) == s.counters.total(.reUploads, window: w), "seed \(seed) window \(w)")
                }
                total[shared]! += s.counters.total(.reUploads)
            }
        }
        #expect(total[nil]! > 0 && total[2]! > 0, "the runs re-upload, per requester and shared: \(total)")
    }
}
