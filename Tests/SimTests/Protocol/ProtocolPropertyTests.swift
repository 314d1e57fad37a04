import Foundation
import Testing
import SimKernel
@testable import GrouperModel

/// A small random Grouper run: churn, server crashes (leaving ≥ s servers up, except for
/// stretches where one more is down), updates and
/// deletes on a shared object pool, sometimes a late invitation; faults stop at `faultEnd`,
/// then everyone is online for `quiet`.
struct RandomRun {
    static let ttl = SimDuration.minutes(10)
    static let faultEnd = SimTime.zero + .minutes(40)
    static let quiet = SimDuration.minutes(40)

    static func seedCount() -> Int {
        ProcessInfo.processInfo.environment["GROUPER_PROPERTY_SEEDS"].flatMap(Int.init) ?? 300
    }

    /// Debug builds check every invariant after every event on the first seeds of each suite
    /// (`GROUPER_INVARIANT_SEEDS`, default 8, about +20 s on the 2-core machine; release builds: none).
    static func checksInvariants(_ seed: UInt64) -> Bool {
        #if DEBUG
        let n = ProcessInfo.processInfo.environment["GROUPER_INVARIANT_SEEDS"].flatMap(UInt64.init) ?? 8
        return seed <= n
        #else
        return false
        #endif
    }

    static func make(seed: UInt64, variant: ProtocolVariant, resendMulticastAfter: Int? = nil,
                     network: NetworkFaults = NetworkFaults()) throws -> GrouperSystem {
        var rng = Xoshiro256StarStar(seed: seed)
        let devices = rng.int(in: 2...5), n = rng.int(in: 2...5)
        let k = rng.int(in: 1...n), s = rng.int(in: k...n)
        var c = try SystemConfig(devices: devices, servers: n, k: k, s: s, ttl: ttl, variant: variant,
                             scheme: rng.chance(0.5) ? .gf256 : .csss257, seed: seed)
        let lateInvite = devices > 2 && rng.chance(0.3)
        if lateInvite { c.initialMembers = devices - 1 }
        c.unsent = UnsentRetryPolicy(onReconnect: true, period: .minutes(2))
        c.resendMulticastAfter = resendMulticastAfter
        c.networkFaults = network
        let system = try GrouperSystem(config: c)
        system.loggingEnabled = ProcessInfo.processInfo.environment["GROUPER_LOG"] != nil
        system.checksInvariants = checksInvariants(seed)
        let minute = { (m: Int) in SimTime.zero + .minutes(Int64(m)) }
        for d in 0..<devices where !(lateInvite && d == 0) {
            var t = rng.int(in: 0...10)
            while t < 40 {
                let off = rng.int(in: 1...25)
                system.setOnline(false, device: d, at: minute(t))
                t = min(40, t + off)
                system.setOnline(true, device: d, at: minute(t))
                t += rng.int(in: 1...15)
            }
        }
        var flaky = Array(0..<n)
        rng.shuffle(&flaky)
        // Usually the n − s servers an upload may lose; sometimes one more, so uploads fail
        // for a while and the unsent queue is exercised.
        for j in flaky.prefix(min(n, n - s + (rng.chance(0.3) ? 1 : 0))) {
            var t = rng.int(in: 0...10)
            while t < 40 {
                system.setServerState(rng.chance(0.5) ? .refusing : .blackhole, server: j, at: minute(t))
                t = min(40, t + rng.int(in: 1...12))
                system.restartServer(j, keepData: rng.chance(0.5), at: minute(t))
                t += rng.int(in: 2...15)
            }
        }
        if lateInvite { system.invite(device: devices - 1, at: minute(rng.int(in: 5...35))) }
        for d in 0..<devices {
            for _ in 0..<rng.int(in: 2...8) {
                let at = SimTime.zero + .seconds(Int64(rng.int(in: 0...(40 * 60 - 1))))
                let obj = "o\(rng.int(in: 0...5))"
                if rng.chance(0.15) { system.delete(device: d, objectID: obj, at: at) }
                else { system.update(device: d, objectID: obj, size: rng.int(in: 10...200), at: at) }
            }
        }
        system.run(until: faultEnd + quiet)
        #expect(system.invariantViolation == nil, "seed \(seed) \(variant): \(system.invariantViolation ?? "")")
        return system
    }
}

@Suite(.tags(.slow)) struct ProtocolPropertyTests {
    /// Thesis variant: converges, no phantom state, TTL honoured, on every seed.
    @Test func thesisConvergesUnderChurnAndCrashes() throws {
        let seeds = RandomRun.seedCount()
        var failures: [String] = []
        for seed in 1...UInt64(seeds) {
            let system = try RandomRun.make(seed: seed, variant: .thesis)
            let report = system.check()
            if !report.passed {
                failures.append("seed \(seed): " + report.findings.prefix(3).map(\.description).joined(separator: "; "))
            }
        }
        #expect(failures.isEmpty, Comment(rawValue: "\(failures.count) of \(seeds) seeds failed "
            + "(replay: RandomRun.make(seed:variant: .thesis))\n" + failures.prefix(10).joined(separator: "\n")))
    }

    /// Shared (multicast) re-uploads keep every checker passing on the same runs.
    @Test func sharedReuploadsConvergeToo() throws {
        let seeds = min(RandomRun.seedCount(), 60)
        var failures: [String] = []
        for seed in 1...UInt64(seeds) {
            let report = try RandomRun.make(seed: seed, variant: .thesis, resendMulticastAfter: 2).check()
            if !report.passed { failures.append("seed \(seed): \(report.findings.prefix(2))") }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(seeds): \(failures.prefix(5))")
    }

    /// Canary: without recovery the same runs must lose messages, and the checkers must name
    /// them. The delivery checker sees every lost message, also those a newer version of the
    /// same object hides from convergence, so it catches strictly more seeds.
    @Test func noRecoveryCanaryIsCaught() throws {
        let seeds = min(RandomRun.seedCount(), 100)
        var failing = 0, undelivered = 0
        for seed in 1...UInt64(seeds) {
            let report = try RandomRun.make(seed: seed, variant: .noRecovery).check()
            #expect(!report.safetyFailed, "seed \(seed): \(report.findings)")
            let lost = report.findings(of: .convergence).filter { !$0.messageIDs.isEmpty }
            let missed = report.findings(of: .delivery)
            if !lost.isEmpty {
                failing += 1
                #expect(lost.allSatisfy { $0.message.contains($0.messageIDs[0]) })
                #expect(!missed.isEmpty, "seed \(seed): a final write lost, so a message was not delivered")
            }
            if !missed.isEmpty {
                undelivered += 1
                #expect(missed.allSatisfy { !$0.messageIDs.isEmpty && $0.message.contains($0.messageIDs[0]) })
            }
        }
        #expect(failing >= seeds / 10, "no-recovery lost messages in only \(failing) of \(seeds) seeds")
        #expect(undelivered > failing, "delivery caught \(undelivered) seeds, convergence \(failing)")
    }

    /// Same seed, same fingerprint; a different seed, a different one.
    @Test func runsAreDeterministic() throws {
        let a = try RandomRun.make(seed: 7, variant: .thesis).fingerprint
        let b = try RandomRun.make(seed: 7, variant: .thesis).fingerprint
        let c = try RandomRun.make(seed: 8, variant: .thesis).fingerprint
        #expect(a == b)
        #expect(a != c)
    }
}

@Suite struct ProtocolVariantSafetyTests {
    /// Every variant may lose messages, but none may invent state or keep shares past the TTL.
    @Test(arguments: [ProtocolVariant.asBuilt, .basicMulticast])
    func otherVariantsStaySafe(_ variant: ProtocolVariant) throws {
        for seed in 1...UInt64(min(RandomRun.seedCount(), 60)) {
            let report = try RandomRun.make(seed: seed, variant: variant).check()
            #expect(!report.safetyFailed, "seed \(seed): \(report.findings.filter { $0.kind == .safety })")
        }
    }
}

@Suite struct InvitationTests {
    /// `members` picks exactly the start members (owner 0 among them); bad lists are refused.
    @Test func startMembersAreExactlyTheList() throws {
        var c = try SystemConfig(devices: 5, servers: 3, k: 2, s: 3, ttl: .minutes(10))
        c.members = [0, 2, 4]
        let system = try GrouperSystem(config: c)
        #expect((0..<5).map { system.isMember(device: $0) } == [true, false, true, false, true])
        system.update(device: 1, objectID: "x", size: 10, at: SimTime.zero + .seconds(Int64(1)))  // not a member: dropped
        system.update(device: 2, objectID: "a", size: 10, at: SimTime.zero + .seconds(Int64(2)))
        system.run(until: SimTime.zero + .minutes(5))
        #expect(system.writes.map(\.device) == [2] && system.objects(device: 4).map(\.id) == ["a"])
        #expect(system.check().passed, "\(system.check().findings)")
        for bad in [[2, 4], [0, 0, 1], [0, 5], [0, 3, 2]] {
            c.members = bad
            #expect(throws: SystemConfigError.self) { try GrouperSystem(config: c) }
        }
    }

    /// A member invited after every share expired still gets every normal message the owner
    /// holds, face to face, and ends with the same objects.
    @Test func lateMemberGetsOwnersMessages() throws {
        var c = try SystemConfig(devices: 3, servers: 3, k: 2, s: 3, ttl: .minutes(10))
        c.initialMembers = 2
        let system = try GrouperSystem(config: c)
        system.update(device: 0, objectID: "a", size: 50, at: SimTime.zero + .seconds(Int64(5)))
        system.update(device: 1, objectID: "b", size: 50, at: SimTime.zero + .seconds(Int64(6)))
        system.delete(device: 1, objectID: "a", at: SimTime.zero + .minutes(1))
        #expect(!system.isMember(device: 2))
        system.invite(device: 2, at: SimTime.zero + .minutes(30))
        system.run(until: SimTime.zero + .minutes(30))
        #expect(system.isMember(device: 2))
        #expect(system.objects(device: 2).map(\.id) == ["b"])
        #expect(system.log.contains { $0.text == "invite D3: 3 keys, 3 messages" })
        system.run(until: SimTime.zero + .minutes(60))
        #expect(system.check().passed, "\(system.check().findings)")
        #expect(system.serverSnapshot(0).groups.first?.members == 3)
    }
}
