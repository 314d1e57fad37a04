import Testing
@testable import SimKernel

/// The queue moves payloads in and out of its slots (`EventSlab`): a popped or cancelled
/// event's payload must not stay alive in its slot, a copied queue must own copies, and a
/// dropped queue must release what it still holds.
@Suite("Event queue payload slots")
struct EventSlabTests {
    final class Tracked {
        nonisolated(unsafe) static var live = 0
        let value: Int
        init(_ value: Int) { self.value = value; Tracked.live += 1 }
        deinit { Tracked.live -= 1 }
    }

    @Test func payloadsLiveExactlyWhileQueued() {
        Tracked.live = 0
        do {
            var q = EventQueue<Tracked>(reservingCapacity: 2)
            var handles: [EventHandle] = []
            for i in 0..<100 { handles.append(q.push(Tracked(i), at: SimTime(nanoseconds: Int64(i % 7)))) }
            #expect(Tracked.live == 100)
            var popped: [Int] = []
            for _ in 0..<30 { if let e = q.popMin() { popped.append(e.payload.value) } }
            #expect(Tracked.live == 70)   // popped payloads are gone once the caller drops them
            var cancelled = 0
            for h in handles.prefix(60) where q.cancel(h) { cancelled += 1 }
            #expect(Tracked.live == 70)   // cancelled payloads stay until their key is dropped
            var copy = q
            copy.push(Tracked(1000), at: .zero)
            #expect(Tracked.live == 71)   // the copy shares the objects, holding its own references
            var fromCopy: [Int] = []
            while let e = copy.popMin() { fromCopy.append(e.payload.value) }
            #expect(fromCopy.first == 1000 && fromCopy.count == 71 - cancelled)
            #expect(Tracked.live == 70)   // still held by the original
            _ = q.peekTime()
            var rest: [Int] = []
            while let e = q.popMin() { rest.append(e.payload.value) }
            #expect(rest == Array(fromCopy.dropFirst()))
            #expect(Tracked.live == 0)
            for i in 0..<10 { q.push(Tracked(i), at: .zero) }
            #expect(q.checkInvariants() == nil)
        }
        #expect(Tracked.live == 0)   // the dropped queue released its last 10
    }

    final class Counter { var live = 0 }
    final class Counted {
        let value: Int, counter: Counter
        init(_ value: Int, _ counter: Counter) { self.value = value; self.counter = counter; counter.live += 1 }
        deinit { counter.live -= 1 }
    }
    struct Box { let value: Int; let tracked: Counted }

    /// Schedules an event of its own before it reads the one it handles, so the push reuses
    /// the slot that event was just moved out of.
    final class Relay: SimComponent {
        let name = "relay"
        let counter: Counter
        var id = ComponentID(index: 0)
        var budget: Int
        var mismatches = 0, liveMismatches = 0, handled = 0
        init(counter: Counter, budget: Int) { self.counter = counter; self.budget = budget }
        func handle(_ event: consuming Box, in sim: Simulation<Box>) {
            let value = event.value
            if budget > 0 {
                budget -= 1
                let next = value &* 31 &+ 7
                sim.schedule(Box(value: next, tracked: Counted(next, counter)), to: id, after: .nanoseconds(Int64(next & 1023)))
            }
            if event.tracked.value != value { mismatches += 1 }
            // Alive: every pending event's payload and this one's, nothing left in a freed slot.
            if counter.live != sim.pendingCount + 1 { liveMismatches += 1 }
            handled += 1
        }
    }

    /// `Simulation.step` moves each event from its slot into its handler: the handler gets its
    /// own payload even when it first schedules into the slot just freed, a payload lives
    /// exactly while its event is pending or being handled, and nothing is left after the run
    /// (with the heap alone and with 40,000 events in radix buckets).
    @Test(arguments: [100, 40_000])
    func stepMovesEachEventIntoItsHandler(initial: Int) {
        let counter = Counter()
        var handled = 0
        do {
            let sim = Simulation<Box>(seed: 3)
            let relay = Relay(counter: counter, budget: 5_000)
            relay.id = sim.add(relay)
            for i in 0..<initial { sim.schedule(Box(value: i, tracked: Counted(i, counter)), to: relay.id, at: SimTime(nanoseconds: Int64(i * 37 % 1_000))) }
            #expect(counter.live == initial)
            sim.runUntilQuiescent()
            #expect(relay.mismatches == 0 && relay.liveMismatches == 0)
            handled = relay.handled
            #expect(counter.live == 0)
        }
        #expect(handled == initial + 5_000)
        #expect(counter.live == 0)
    }

    /// Slots are reused last freed first (the slot a pop frees is the next push's, so a
    /// handler's event lands in a warm slot), through growth and a copy-on-write copy: every
    /// push's slot against a plain model of the free slots, over random pushes and pops.
    @Test(arguments: [1 as UInt64, 2, 3])
    func slotsAreReusedLastFreedFirst(seed: UInt64) {
        var rng = Xoshiro256StarStar(seed: seed)
        var q = EventQueue<Int>(reservingCapacity: 4)
        var free: [UInt32] = []   // the model: freed slots, the most recent last
        var used: UInt32 = 0      // slots ever handed out
        var mismatches = 0, pops = 0
        for step in 0..<20_000 {
            // Bursts of pushes and of pops, so the free slots pile up and run out.
            if (step / 500) % 2 == 0 ? rng.next() % 10 < 7 : rng.next() % 10 < 3 {
                let h = q.push(step, at: SimTime(nanoseconds: Int64(rng.next() % 500)))
                let expected: UInt32
                if let last = free.popLast() { expected = last } else { expected = used; used += 1 }
                if h.slot != expected { mismatches += 1 }
            } else if let e = q.popMin() {
                free.append(e.handle.slot)
                pops += 1
            }
            if step == 10_000 { var copy = q; copy.push(-1, at: .zero); _ = copy.popMin() }
        }
        #expect(pops > 5_000 && used > 100)
        #expect(mismatches == 0)
        #expect(q.checkInvariants() == nil)
    }
}
