import Foundation
import Testing
import SimKernel
@testable import GrouperModel

/// Random small groups with tampering servers (no churn): `correct` with at most ⌊(n − k)/2⌋
/// tamperers delivers everything and nothing corrupted; `check` with at most n − k tamperers
/// (so at least k genuine shares) delivers nothing corrupted. `GROUPER_PROPERTY_SEEDS`
/// (default 40) seeds each.
@Suite(.tags(.slow)) struct HostileServerPropertyTests {
    static func run(seed: UInt64, policy: RebuildPolicy) throws -> (GrouperSystem, tamperers: Int) {
        var rng = Xoshiro256StarStar(seed: seed)
        let devices = rng.int(in: 2...4), n = rng.int(in: 4...7)
        let k = rng.int(in: 1...(n - 2)), s = rng.int(in: k...n)
        var c = try SystemConfig(devices: devices, servers: n, k: k, s: s, ttl: .minutes(30),
                             scheme: rng.chance(0.5) ? .gf256 : .csss257, seed: seed)
        c.rebuild = policy
        let system = try GrouperSystem(config: c)
        let bound = policy == .correct ? (n - k) / 2 : n - k
        let tamperers = rng.int(in: 1...bound)
        var servers = Array(0..<n)
        rng.shuffle(&servers)
        for j in servers.prefix(tamperers) { system.setMisbehaviour(.tamper(fraction: 1), id: 0, server: j, at: .zero) }
        for d in 0..<devices {
            for _ in 0..<rng.int(in: 1...5) {
                let at = SimTime.zero + .seconds(Int64(rng.int(in: 0...1200)))
                system.update(device: d, objectID: "o\(rng.int(in: 0...3))", size: rng.int(in: 10...300), at: at)
            }
        }
        system.run(until: SimTime.zero + .hours(1))
        return (system, tamperers)
    }

    static var seeds: Int { ProcessInfo.processInfo.environment["GROUPER_PROPERTY_SEEDS"].flatMap(Int.init).map { min($0, 200) } ?? 40 }

    @Test func correctWithinItsBoundDeliversEverything() throws {
        var failures: [String] = []
        for seed in 1...UInt64(Self.seeds) {
            let (s, t) = try Self.run(seed: seed, policy: .correct)
            let report = s.check()
            if !report.passed || s.counters.total(.corruptedDeliveries) > 0 || s.unrecoverableMessages > 0 {
                failures.append("seed \(seed) (\(t) tamperers): \(report.findings.prefix(2))")
            }
            #expect(s.counters.total(.tamperCorrected) > 0 || s.counters.total(.messagesRebuilt) == 0, "seed \(seed)")
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func checkNeverDeliversCorruptedContent() throws {
        var failures: [String] = []
        for seed in 1...UInt64(Self.seeds) {
            let (s, t) = try Self.run(seed: seed, policy: .check)
            if s.counters.total(.corruptedDeliveries) > 0 || !s.checkNoPhantom().isEmpty {
                failures.append("seed \(seed) (\(t) tamperers)")
            }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    /// Canary: first-k under the same tampering must deliver corrupted content on some seeds.
    @Test func firstKIsCaughtOnSomeSeeds() throws {
        var caught = 0
        for seed in 1...UInt64(Self.seeds) {
            let (s, _) = try Self.run(seed: seed, policy: .firstK)
            if s.counters.total(.corruptedDeliveries) > 0 { caught += 1 }
        }
        #expect(caught > 0)
    }
}
