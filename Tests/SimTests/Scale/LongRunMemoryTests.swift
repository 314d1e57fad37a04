import Foundation
import Testing
@testable import GrouperModel
import SimKernel

/// A long run with churn keeps its working state flat after warm-up: counts of live objects
/// (`LiveState`), not wall time or RSS. 8 devices (GROUPER_LONG_RUN_DEVICES) over 12 days
/// (GROUPER_LONG_RUN_DAYS; small for the debug build's speed) write every ~45 min and churn
/// (4 h online, 1 h offline on average), TTL 1 day, polling every 30 min and on pushes. The
/// same run with the compact bookkeeping off (and the protocol log and timing records on, as
/// a plain `GrouperSystem` keeps them) grows with simulated time: the check can fail.
/// The whole retained state (`RetainedState`, in bytes as allocated: history included) is
/// checked too: flat working part, and growth bounded per message id of the run.
@Suite(.tags(.slow)) struct LongRunMemoryTests {
    static let devices = Int(ProcessInfo.processInfo.environment["GROUPER_LONG_RUN_DEVICES"] ?? "") ?? 8
    static let days = Int64(ProcessInfo.processInfo.environment["GROUPER_LONG_RUN_DAYS"] ?? "") ?? 12

    static func system(compact: Bool, days: Int64) throws -> GrouperSystem {
        var c = try SystemConfig(devices: devices, servers: 3, k: 2, s: 3, ttl: .days(1), seed: 3)
        c.receive = ReceivePolicy(onPush: true, pullPeriod: .minutes(30), onReconnect: true)
        c.compactState = compact
        let system = try GrouperSystem(config: c)
        system.loggingEnabled = !compact
        system.keepsTimingRecords = !compact
        let end = Double(SimDuration.days(days).nanoseconds) / 1e9
        var rng = Xoshiro256StarStar(seed: 99)
        for d in 1..<devices {
            var t = rng.nextExponential(mean: 2_700)
            while t < end {
                system.update(device: d, objectID: "o\(rng.int(in: 0...19))", size: 300, at: .zero + .seconds(t))
                t += rng.nextExponential(mean: 2_700)
            }
            var online = true
            t = rng.nextExponential(mean: 14_400)
            while t < end {
                online.toggle()
                system.setOnline(online, device: d, at: .zero + .seconds(t))
                t += rng.nextExponential(mean: online ? 14_400 : 3_600)
            }
        }
        return system
    }

    /// Working-state counts at the end of each day after the first two, and the retained
    /// state with the number of message ids at the end of each day from the second on.
    static func dailyWorking(compact: Bool, days: Int64 = days) throws
        -> (working: [Int], last: LiveState, retained: [(state: RetainedState, ids: Int)]) {
        let system = try system(compact: compact, days: days)
        var working: [Int] = [], retained: [(state: RetainedState, ids: Int)] = []
        for day in 1...days {
            system.run(until: .zero + .days(day))
            if day > 2 { working.append(system.liveState.working) }
            if day >= 2 { retained.append((system.retainedState, system.world.registry.idCount)) }
        }
        return (working, system.liveState, retained)
    }

    @Test func workingStateIsFlatAfterWarmUp() throws {
        let (working, last, retained) = try Self.dailyWorking(compact: true)
        let lo = working.min()!, hi = working.max()!
        #expect(lo > 0 && Double(hi) <= 1.5 * Double(lo), "daily working-state counts \(working)")
        // The first and last thirds have the same level: no drift hidden in day-to-day noise.
        let third = working.count / 3
        let early = working.prefix(third).reduce(0, +), late = working.suffix(third).reduce(0, +)
        #expect(Double(late) <= 1.2 * Double(early), "early \(early), late \(late)")
        #expect(last.timingRecords == 0 && last.logEntries <= 2 * Self.devices)  // setup lines only
        // History does grow (each device holds every message, one shared copy each).
        #expect(last.heldMessages > last.registeredMessages && last.registeredMessages > 100)
        let (bounded, why) = Self.retainedGrowsOnlyWithMessages(retained)
        #expect(bounded, "\(why)")
    }

    @Test func plainBookkeepingGrowsWithSimulatedTime() throws {
        let (working, _, retained) = try Self.dailyWorking(compact: false, days: 6)
        #expect(Double(working.last!) > 1.6 * Double(working.first!), "daily working-state counts \(working)")
        let (bounded, why) = Self.retainedGrowsOnlyWithMessages(retained)
        #expect(!bounded, "the plain bookkeeping should fail the retained-state bound: \(why)")
    }

    /// At most this many bytes per message id of the run (one shared compact record of the
    /// message, the sender's handle of it, the checkers' write) and per (device, message id)
    /// (bits). Measured: about 430 B per id (1,158 B before the compact records) and 0.43 B.
    static let perMessageMax = 768, perDeviceMessageMax = 1.0

    /// Whether the whole retained state (`RetainedState`: bytes as allocated, capacities
    /// included) is bounded after warm-up: its working part stays within 1.5× of its lowest
    /// daily level, and the rest grows only with the message ids of the run, by at most
    /// `perMessageMax` bytes per id and `perDeviceMessageMax` per (device, id), so memory per
    /// simulated day is flat at a steady message rate.
    static func retainedGrowsOnlyWithMessages(_ daily: [(state: RetainedState, ids: Int)]) -> (Bool, String) {
        let working = daily.dropFirst().map(\.state.working)
        let first = daily[1], last = daily[daily.count - 1]
        let newIDs = last.ids - first.ids
        let perMessage = Double(last.state.perMessage - first.state.perMessage) / Double(max(1, newIDs))
        let perPair = Double(last.state.perDelivery - first.state.perDelivery) / Double(max(1, newIDs * devices))
        let flat = working.min()! > 0 && Double(working.max()!) <= 1.5 * Double(working.min()!)
        let why = "daily working bytes \(working); \(newIDs) new message ids; \(Int(perMessage)) B per id; "
            + "\(String(format: "%.2f", perPair)) B per (device, id)"
        return (flat && newIDs > 100 && perMessage <= Double(perMessageMax) && perPair <= perDeviceMessageMax, why)
    }
}
