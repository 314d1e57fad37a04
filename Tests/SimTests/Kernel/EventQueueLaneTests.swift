import Testing
@testable import SimKernel

/// The lane (`EventQueue.pushAhead`, `Simulation.scheduleAhead`): events pushed ahead come out
/// in the same order, with the same seqs, as if they had been pushed into the heap, whatever
/// else the queue holds (heap, radix buckets, cancelled keys) and whenever they are pushed
/// (into the open lane, in order onto a sealed one, or out of order into the heap).
@Suite("Event queue lane")
struct EventQueueLaneTests {
    /// A random mix of pushes, pushes ahead (a plan before the first pop, then more during the
    /// run, some in order and some not), cancels, peeks and pops, against the same operations
    /// with every push ahead made a plain push. Every pop must give the same time, seq and
    /// payload, and the invariants must hold throughout.
    static func runMixed(seed: UInt64, radixFrom: Int, plan: Int, steps: Int) -> String? {
        var rng = Xoshiro256StarStar(seed: seed)
        var ahead = EventQueue<Int>(reservingCapacity: 16, radixFrom: radixFrom)
        var plain = EventQueue<Int>(reservingCapacity: 16, radixFrom: radixFrom)
        var handles: [EventHandle] = []
        var now: Int64 = 0
        var payload = 0
        func pushBoth(at t: Int64, ahead isAhead: Bool) {
            payload += 1
            let time = SimTime(nanoseconds: t)
            let h = isAhead ? ahead.pushAhead(payload, at: time) : ahead.push(payload, at: time)
            _ = plain.push(payload, at: time)
            handles.append(h)
        }
        for _ in 0..<plan { pushBoth(at: Int64(rng.nextInt(below: 1_000_000)), ahead: true) }
        var lanePops = 0
        for step in 0..<steps {
            switch rng.nextInt(below: 10) {
            case 0...2:
                pushBoth(at: now + Int64(rng.nextInt(below: 5_000)), ahead: false)
            case 3:
                // Ahead during the run: often after the lane's last key (appended), else in
                // the heap.
                let far = rng.chance(0.5)
                pushBoth(at: now + Int64(far ? 1_000_000 + rng.nextInt(below: 1_000) * 1_000 : rng.nextInt(below: 5_000)), ahead: true)
            case 4:
                if !handles.isEmpty {
                    let h = handles[rng.nextInt(below: handles.count)]
                    if ahead.cancel(h) != plain.cancel(h) { return "seed \(seed) step \(step): cancel differs" }
                }
            case 5:
                if ahead.peekTime() != plain.peekTime() { return "seed \(seed) step \(step): peek differs" }
            default:
                let fromLane = ahead.heap.laneCount
                let a = ahead.popMin(), p = plain.popMin()
                if a?.time != p?.time || a?.handle.seq != p?.handle.seq || a?.payload != p?.payload {
                    return "seed \(seed) step \(step): popped \(String(describing: a)) but the heap alone \(String(describing: p))"
                }
                if ahead.heap.laneCount < fromLane { lanePops += 1 }
                if let t = a?.time { now = t.nanoseconds }
            }
            if ahead.count != plain.count { return "seed \(seed) step \(step): count \(ahead.count) vs \(plain.count)" }
            if step % 13 == 0, let problem = ahead.checkInvariants() { return "seed \(seed) step \(step): \(problem)" }
        }
        while true {
            let a = ahead.popMin(), p = plain.popMin()
            if a?.handle.seq != p?.handle.seq || a?.payload != p?.payload { return "seed \(seed): drain differs" }
            guard a != nil else { break }
            if let problem = ahead.checkInvariants() { return "seed \(seed) drain: \(problem)" }
        }
        if plan > 0 && lanePops == 0 { return "seed \(seed): no key came from the lane" }
        return nil
    }

    /// With the heap alone and with radix buckets from 16 or 64 keys (a plan of 300 keys keeps
    /// the rest of the queue beside a busy lane).
    @Test(arguments: [Int.max, 16, 64])
    func aheadPopsEqualPlainPops(radixFrom: Int) {
        var failures: [String] = []
        for seed in 0..<UInt64(6) {
            if let f = Self.runMixed(seed: seed, radixFrom: radixFrom, plan: 300, steps: 6_000) { failures.append(f) }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    /// No plan: every push ahead finds a sealed, often empty lane.
    @Test func aheadWithoutAPlan() {
        var failures: [String] = []
        for seed in 20..<UInt64(24) {
            if let f = Self.runMixed(seed: seed, radixFrom: 64, plan: 0, steps: 4_000) { failures.append(f) }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    /// A plan pushed in any order before the first look is sorted once; after that a key
    /// pushed ahead before the lane's last key goes into the heap, one after it onto the lane.
    @Test func theFirstLookSealsTheLane() {
        var q = EventQueue<Int>(reservingCapacity: 16)
        for (i, t) in [50, 10, 30, 20, 40].enumerated() { q.pushAhead(i, at: SimTime(nanoseconds: Int64(t))) }
        #expect(q.heap.laneOpen && q.heap.laneCount == 5 && q.heap.count == 0)
        #expect(q.checkInvariants() == nil)
        let first = q.peekTime()
        #expect(first == SimTime(nanoseconds: 10))
        #expect(!q.heap.laneOpen && q.heap.laneFront.time == 10)
        q.pushAhead(5, at: SimTime(nanoseconds: 25))   // before the last (50): the heap
        q.pushAhead(6, at: SimTime(nanoseconds: 60))   // after it: the lane
        #expect(q.heap.count == 1 && q.heap.laneCount == 6)
        #expect(q.checkInvariants() == nil)
        var order: [Int] = []
        while let e = q.popMin() { order.append(e.payload) }
        #expect(order == [1, 3, 5, 2, 4, 0, 6])
        #expect(q.heap.laneCount == 0 && q.heap.laneFront.wide == EventKey.sentinel.wide)
        q.pushAhead(7, at: SimTime(nanoseconds: 70))   // an empty sealed lane takes any key
        #expect(q.heap.laneCount == 1 && q.heap.count == 0)
        let last = q.popMin()
        #expect(last?.payload == 7)
    }

    /// Keys of equal time keep their push order (seq), across the lane and the heap.
    @Test func equalTimesKeepPushOrderAcrossLaneAndHeap() {
        var q = EventQueue<Int>(reservingCapacity: 16)
        q.pushAhead(0, at: SimTime(nanoseconds: 5))
        q.push(1, at: SimTime(nanoseconds: 5))
        q.pushAhead(2, at: SimTime(nanoseconds: 5))
        q.push(3, at: SimTime(nanoseconds: 5))
        var order: [Int] = []
        while let e = q.popMin() { order.append(e.payload) }
        #expect(order == [0, 1, 2, 3])
    }

    /// A cancelled lane key is skipped by pops and by peeks, like a heap key.
    @Test func cancelledLaneKeysAreSkipped() {
        var q = EventQueue<Int>(reservingCapacity: 16)
        let a = q.pushAhead(0, at: SimTime(nanoseconds: 1))
        q.pushAhead(1, at: SimTime(nanoseconds: 2))
        q.push(2, at: SimTime(nanoseconds: 3))
        let cancelled = q.cancel(a)
        #expect(cancelled)
        let next = q.peekTime()
        #expect(next == SimTime(nanoseconds: 2) && q.count == 2)
        #expect(q.checkInvariants() == nil)
        let pops = [q.popMin()?.payload, q.popMin()?.payload, q.popMin()?.payload]
        #expect(pops == [1, 2, nil])
        #expect(q.storedCount == 0 && q.checkInvariants() == nil)
    }

    /// A model scheduling its plan ahead runs the same events, in the same order, with the same
    /// stream hash, as with `schedule`: handlers that schedule further events, some at the
    /// same times as planned ones, and a plan that outlasts the buckets' threshold.
    @Test func simulationAheadEqualsSchedule() {
        final class Node: SimComponent {
            let name: String
            var log: [(Int64, Int)] = []
            let peers: [ComponentID]
            var rng: Xoshiro256StarStar
            init(name: String, seed: UInt64, peers: [ComponentID]) {
                self.name = name; self.peers = peers; rng = Xoshiro256StarStar(seed: seed)
            }
            func handle(_ event: consuming Int, in sim: Simulation<Int>) {
                log.append((sim.now.nanoseconds, event))
                if event >= 0 && !peers.isEmpty && rng.chance(0.7) {
                    let to = peers[rng.nextInt(below: peers.count)]
                    sim.schedule(-event - 1, to: to, after: .nanoseconds(Int64(rng.nextInt(below: 3) * 1_000)))
                }
            }
        }
        func run(ahead: Bool) -> (hash: UInt64, logs: [[String]]) {
            let sim = Simulation<Int>(seed: 9)
            let ids = (0..<4).map { ComponentID(index: Int32($0)) }
            let nodes = (0..<4).map { Node(name: "n\($0)", seed: UInt64($0), peers: ids) }
            for n in nodes { sim.add(n) }
            var rng = Xoshiro256StarStar(seed: 77)
            for i in 0..<50_000 {
                let t = SimTime(nanoseconds: Int64(rng.nextInt(below: 1_000)) * 1_000)
                if ahead { sim.scheduleAhead(i, to: ids[i % 4], at: t) } else { sim.schedule(i, to: ids[i % 4], at: t) }
            }
            sim.run(until: SimTime(nanoseconds: 400_000))
            sim.scheduleAhead(-1, to: ids[0], at: SimTime(nanoseconds: 500_000))
            sim.runUntilQuiescent()
            return (sim.eventStreamHash.value, nodes.map { $0.log.map { "\($0.0):\($0.1)" } })
        }
        let plain = run(ahead: false), ahead = run(ahead: true)
        #expect(plain.logs.map(\.count).reduce(0, +) > 60_000)
        #expect(ahead.hash == plain.hash)
        #expect(ahead.logs == plain.logs)
    }
}
