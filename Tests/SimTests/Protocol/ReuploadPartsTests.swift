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
