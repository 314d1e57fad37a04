import Foundation
import Testing
import SimKernel
@testable import GrouperModel

/// Network faults within bounds (`NetworkFaults`, docs/scenarios.md#network): the rule for one
/// reply, and whole Grouper and central runs with jitter, duplicate and late replies.
@Suite struct NetworkFaultTests {
    static let deadline = SimTime(nanoseconds: 60_000)
    static let streams = RandomStreams(rootSeed: 7)

    static func model(_ f: NetworkFaults) -> NetworkModel {
        NetworkModel(profile: .lab, devices: 2, faults: f, streams: streams)
    }

    /// Off: no stream, no draw, no delay, and every reply exactly as `RequestAnswer.served`.
    @Test func offDrawsNothing() {
        var m = Self.model(NetworkFaults())
        #expect(m.faultStreams.isEmpty)
        #expect(m.requestDelay(device: 0, sentAt: .zero) == .zero)
        for arrival in [SimTime(nanoseconds: 10), Self.deadline, SimTime(nanoseconds: 60_001)] {
            let r = m.servedReply(device: 1, sentAt: .zero, arrival: arrival, deadline: Self.deadline, now: .zero)
            #expect(r == ServedReply(answer: RequestAnswer.served(arrival: arrival, deadline: Self.deadline, now: .zero), again: nil))
        }
        #expect(m.faultCounts == NetworkFaultCounts())
    }

    /// Jitter draws in [0, jitter], both ends included: with 1 ns, 0 and 1 both occur, never 2.
    @Test func jitterStaysWithinItsBound() {
        var m = Self.model(NetworkFaults(jitter: .nanoseconds(1)))
        let delays = Set((0..<200).map { _ in m.requestDelay(device: 0, sentAt: .zero).nanoseconds })
        #expect(delays == [0, 1])
        var wide = Self.model(NetworkFaults(jitter: .milliseconds(200)))
        for i in 0..<500 {
            let arrival = SimTime(nanoseconds: 1_000)
            let r = wide.servedReply(device: i % 2, sentAt: .zero, arrival: arrival, deadline: SimTime.zero + .seconds(60), now: .zero)
            #expect(!r.answer.timedOut && r.again == nil)
            #expect(r.answer.at >= arrival && r.answer.at <= arrival + .milliseconds(200))
        }
        #expect(wide.faultCounts.delayed > 400 && wide.faultCounts.duplicated == 0 && wide.faultCounts.late == 0)
    }

    /// `duplicate` 1: every in-time reply comes twice, the copy within `jitter` after the first.
    @Test func duplicateComesAgainWithinJitter() {
        var m = Self.model(NetworkFaults(jitter: .nanoseconds(500), duplicate: 1))
        for _ in 0..<100 {
            let arrival = SimTime(nanoseconds: 2_000)
            let r = m.servedReply(device: 0, sentAt: .zero, arrival: arrival, deadline: Self.deadline, now: .zero)
            #expect(!r.answer.timedOut && r.answer.at <= arrival + .nanoseconds(500))
            let again = try! #require(r.again)
            #expect(again >= r.answer.at && again <= r.answer.at + .nanoseconds(500))
        }
        #expect(m.faultCounts.duplicated == 100)
    }

    /// `late` 1: the device times out at its deadline, the reply comes after, within `jitter`; a
    /// reply past the deadline anyway (a slow transfer) also still comes, at its own time.
    @Test func lateRepliesComeAfterTheTimeOut() {
        var m = Self.model(NetworkFaults(jitter: .nanoseconds(300), late: 1))
        let r = m.servedReply(device: 0, sentAt: .zero, arrival: SimTime(nanoseconds: 100), deadline: Self.deadline, now: .zero)
        #expect(r.answer == RequestAnswer(timedOut: true, at: Self.deadline))
        let again = try! #require(r.again)
        #expect(again >= Self.deadline && again <= Self.deadline + .nanoseconds(300))
        var slow = Self.model(NetworkFaults(duplicate: 0.5))
        let s = slow.servedReply(device: 0, sentAt: .zero, arrival: SimTime(nanoseconds: 70_000), deadline: Self.deadline, now: .zero)
        #expect(s == ServedReply(answer: RequestAnswer(timedOut: true, at: Self.deadline), again: SimTime(nanoseconds: 70_000)))
        #expect(slow.faultCounts.late == 1 && m.faultCounts.late == 1)
    }

    /// Faults stop for requests sent at `until` (the settle's start) and later, not before.
    @Test func faultsStopAtUntil() {
        let until = SimTime(nanoseconds: 1_000_000)
        var m = Self.model(NetworkFaults(jitter: .seconds(1), duplicate: 1, late: 0, until: until))
        let before = m.servedReply(device: 0, sentAt: until - .nanoseconds(1), arrival: until, deadline: until + .seconds(60), now: until)
        #expect(before.again != nil)
        let at = m.servedReply(device: 0, sentAt: until, arrival: until + .nanoseconds(5), deadline: until + .seconds(60), now: until)
        #expect(at == ServedReply(answer: RequestAnswer(timedOut: false, at: until + .nanoseconds(5)), again: nil))
        #expect(m.requestDelay(device: 1, sentAt: until) == .zero)
        let counts = m.faultCounts
        _ = m.requestDelay(device: 1, sentAt: until + .seconds(5))
        #expect(m.faultCounts == counts)
    }

    @Test func configurationRejectsBadValues() throws {
        var c = SystemConfig()
        c.networkFaults = NetworkFaults(duplicate: 1.5)
        #expect(throws: SystemConfigError(field: "networkFaults.duplicate", message: "must be a probability in [0, 1], got 1.5")) {
            try GrouperSystem(config: c)
        }
        var central = CentralConfig(devices: 2)
        central.networkFaults = NetworkFaults(jitter: .days(2))
        #expect(throws: SystemConfigError.self) { try CentralSystem(config: central) }
    }
}

/// Whole runs with network faults.
extension NetworkFaultTests {
    static func writes(_ system: GrouperSystem, devices: Int, seed: UInt64) {
        var rng = Xoshiro256StarStar(seed: seed)
        for d in 0..<devices {
            for _ in 0..<6 {
                let at = SimTime.zero + .seconds(Int64(rng.int(in: 0...1800)))
                system.update(device: d, objectID: "o\(rng.int(in: 0...3))", size: rng.int(in: 20...300), at: at)
            }
        }
    }

    static func grouper(_ f: NetworkFaults, seed: UInt64 = 3, invariants: Bool = true) throws -> GrouperSystem {
        var c = try SystemConfig(devices: 4, servers: 3, k: 2, s: 2, ttl: .minutes(30), seed: seed)
        c.networkFaults = f
        c.unsent = UnsentRetryPolicy(onReconnect: true, period: .minutes(2))
        let system = try GrouperSystem(config: c)
        system.checksInvariants = invariants
        writes(system, devices: 4, seed: seed)
        system.run(until: SimTime.zero + .hours(2))
        return system
    }

    static func totals(_ s: GrouperSystem) -> [Int] { CounterKind.allCases.map { s.counters.total($0) } }

    /// A copy at the same instant as each reply changes nothing but the events: every protocol
    /// counter is what it is without it (a duplicate counted twice, a share acknowledged twice, a
    /// round completed twice would show), and the invariants hold after every event.
    @Test func duplicatesAreIgnored() throws {
        let plain = try Self.grouper(NetworkFaults(), invariants: false)
        let dup = try Self.grouper(NetworkFaults(duplicate: 1))
        #expect(dup.networkFaultCounts.duplicated > 100)
        #expect(dup.invariantViolation == nil && dup.internalFailures.isEmpty)
        #expect(plain.counters.total(.messagesUploaded) > 20 && plain.counters.total(.messagesRebuilt) > 20)
        #expect(Self.totals(dup) == Self.totals(plain))
        // Each copy is one event that sets nothing off: no request, no round, no timer.
        #expect(dup.eventsProcessed == plain.eventsProcessed + UInt64(dup.networkFaultCounts.duplicated))
        #expect(dup.traffic == plain.traffic)
        #expect(dup.fingerprint != plain.fingerprint, "the copies are events of their own")
        #expect(dup.check().passed && plain.check().passed)
    }

    /// Jitter, duplicates and late replies on an honest thesis group with a quiet end: every
    /// checker passes, the invariants hold, the run differs from the fault-free one, and the
    /// same seed gives the same run.
    @Test func honestGroupConvergesUnderNetworkFaults() throws {
        let f = NetworkFaults(jitter: .milliseconds(800), duplicate: 0.2, late: 0.2, until: SimTime.zero + .minutes(40))
        let a = try Self.grouper(f), b = try Self.grouper(f, invariants: false)
        #expect(a.invariantViolation == nil && a.internalFailures.isEmpty)
        let report = a.check()
        #expect(report.passed, "\(report.findings.prefix(3))")
        #expect(a.networkFaultCounts.delayed > 0 && a.networkFaultCounts.duplicated > 0 && a.networkFaultCounts.late > 0)
        #expect(a.counters.total(.uploadAttemptsFailed) > 0, "late replies fail uploads the servers stored")
        #expect(a.fingerprint == b.fingerprint && a.networkFaultCounts == b.networkFaultCounts)
        #expect(a.fingerprint != (try Self.grouper(NetworkFaults(), invariants: false)).fingerprint)
    }

    /// The central model: a duplicate at the same instant changes no count, and jitter, duplicate
    /// and late replies with a quiet end still converge.
    @Test func centralIgnoresDuplicatesAndConverges() throws {
        func run(_ f: NetworkFaults) throws -> CentralSystem {
            var c = CentralConfig(devices: 4, seed: 5)
            c.networkFaults = f
            let s = try CentralSystem(config: c)
            var rng = Xoshiro256StarStar(seed: 5)
            for d in 0..<4 {
                for _ in 0..<6 {
                    s.update(device: d, objectID: "o\(rng.int(in: 0...3))", size: rng.int(in: 20...300),
                             at: SimTime.zero + .seconds(Int64(rng.int(in: 0...1800))))
                }
            }
            s.run(until: SimTime.zero + .hours(2))
            return s
        }
        let plain = try run(NetworkFaults()), dup = try run(NetworkFaults(duplicate: 1))
        #expect(dup.networkFaultCounts.duplicated > 20)
        #expect(dup.world.uploads == plain.world.uploads && dup.world.fetched == plain.world.fetched
                && dup.world.uploadFailures == plain.world.uploadFailures)
        #expect(dup.eventsProcessed == plain.eventsProcessed + UInt64(dup.networkFaultCounts.duplicated))
        #expect(dup.traffic == plain.traffic)
        #expect(dup.fingerprint != plain.fingerprint)
        let faulty = try run(NetworkFaults(jitter: .seconds(2), duplicate: 0.3, late: 0.3, until: SimTime.zero + .minutes(40)))
        #expect(faulty.networkFaultCounts.late > 0 && faulty.world.uploadFailures > 0)
        let report = faulty.check()
        #expect(report.passed, "\(report.findings.prefix(3))")
    }

    static var seeds: Int { ProcessInfo.processInfo.environment["GROUPER_PROPERTY_SEEDS"].flatMap(Int.init).map { min($0, 300) } ?? 24 }

    /// Property: `RandomRun`'s churn and server crashes with random network faults until the
    /// quiet period: every checker passes on the thesis variant and the invariants hold.
    @Test(.tags(.slow)) func randomRunsWithNetworkFaultsConverge() throws {
        var failures: [String] = []
        var late = 0, duplicated = 0
        for seed in 1...UInt64(Self.seeds) {
            var rng = Xoshiro256StarStar(seed: seed ^ 0x6e6574)
            let f = NetworkFaults(jitter: .milliseconds(Int64(rng.pick([0, 50, 500, 5000]))), duplicate: rng.pick([0, 0.1, 0.5]),
                                  late: rng.pick([0, 0.05, 0.3]), until: RandomRun.faultEnd)
            let system = try RandomRun.make(seed: seed, variant: .thesis, network: f)
            let report = system.check()
            if !report.passed || !system.internalFailures.isEmpty {
                failures.append("seed \(seed) \(f): " + report.findings.prefix(3).map(\.description).joined(separator: "; ")
                                + system.internalFailures.prefix(1).joined())
            }
            late += system.networkFaultCounts.late
            duplicated += system.networkFaultCounts.duplicated
        }
        #expect(late > 0 && duplicated > 0)
        #expect(failures.isEmpty, Comment(rawValue: "\(failures.count) of \(Self.seeds) seeds failed "
            + "(replay: RandomRun.make(seed:variant: .thesis, network:))\n" + failures.prefix(10).joined(separator: "\n")))
    }
}

private extension Xoshiro256StarStar {
    mutating func pick<T>(_ options: [T]) -> T { options[nextInt(below: options.count)] }
}
