import Testing
@testable import SimKernel

/// `step()` calls components through `ComponentEntry` (unretained object + its type):
/// each component, whatever its class, must get exactly its own events, subclasses
/// their overrides, and components added during a run their events too.
@Suite("Simulation dispatch")
struct SimulationDispatchTests {
    final class Recorder: @unchecked Sendable { var lines: [String] = [] }

    class Base: SimComponent {
        let name: String
        let out: Recorder
        init(_ name: String, _ out: Recorder) { self.name = name; self.out = out }
        func handle(_ event: PingEvent, in sim: Simulation<PingEvent>) { out.lines.append("base \(name) \(event)") }
    }
    final class Derived: Base {
        override func handle(_ event: PingEvent, in sim: Simulation<PingEvent>) { out.lines.append("derived \(name) \(event)") }
    }
    final class Spawner: SimComponent {
        let name = "spawner"
        let out: Recorder
        init(_ out: Recorder) { self.out = out }
        func handle(_ event: PingEvent, in sim: Simulation<PingEvent>) {
            guard case .ping(let n) = event, n > 0 else { return }
            let child = sim.add(Base("child-\(n)", out))
            sim.schedule(.ping(n), to: child, after: .nanoseconds(1))
            sim.schedule(.ping(n - 1), to: ComponentID(index: 0), after: .nanoseconds(2))
        }
    }

    @Test func eachComponentGetsItsOwnEvents() {
        let out = Recorder()
        let sim = Simulation<PingEvent>(seed: 1)
        let a = sim.add(Base("a", out))
        let d = sim.add(Derived("d", out) as Base)
        let e = sim.add(Derived("e", out))
        sim.schedule(.ping(1), to: e, at: SimTime(nanoseconds: 3))
        sim.schedule(.wake, to: a, at: SimTime(nanoseconds: 1))
        sim.schedule(.ping(2), to: d, at: SimTime(nanoseconds: 2))
        sim.runUntilQuiescent()
        #expect(out.lines == ["base a wake", "derived d ping(2)", "derived e ping(1)"])
    }

    @Test func componentsAddedWhileRunningReceiveEvents() {
        let out = Recorder()
        let sim = Simulation<PingEvent>(seed: 1)
        let spawner = sim.add(Spawner(out))
        sim.schedule(.ping(40), to: spawner, at: .zero)   // 40 adds: the entry table grows mid-run
        sim.runUntilQuiescent()
        #expect(sim.componentCount == 41)
        #expect(out.lines == (1...40).reversed().map { "base child-\($0) ping(\($0))" })
        #expect(sim.checkInvariants() == nil)
    }
}

/// `handle` takes the event (`consuming`): the kernel keeps no copy of what a delivered event
/// carries, so a handler declared `consuming` owns the only reference to its payload and can
/// keep it without a copy; a handler with a plain (borrowed) parameter sees the event the
/// kernel still holds.
@Suite("Simulation hands events over")
struct SimulationHandoverTests {
    final class Payload: @unchecked Sendable {}
    enum BoxEvent { case box(Payload), none }

    final class Keeper: SimComponent {
        let name = "keeper"
        var kept: [Payload] = []
        var uniqueOnArrival: [Bool] = []
        func handle(_ event: consuming BoxEvent, in sim: Simulation<BoxEvent>) {
            var e = event
            guard var p = Self.take(&e) else { return }
            uniqueOnArrival.append(isKnownUniquelyReferenced(&p))
            kept.append(p)
        }
        /// The event's payload, moved out (the event is left holding none).
        static func take(_ e: inout BoxEvent) -> Payload? {
            guard case .box(let p) = e else { return nil }
            e = .none
            return p
        }
    }

    final class Borrower: SimComponent {
        let name = "borrower"
        var uniqueOnArrival: [Bool] = []
        func handle(_ event: BoxEvent, in sim: Simulation<BoxEvent>) {
            var e = event
            guard var p = Keeper.take(&e) else { return }
            uniqueOnArrival.append(isKnownUniquelyReferenced(&p))
        }
    }

    @Test func aConsumingHandlerOwnsThePayload() {
        let sim = Simulation<BoxEvent>(seed: 1)
        let keeper = Keeper(), borrower = Borrower()
        let k = sim.add(keeper), b = sim.add(borrower)
        for t in 1...3 {
            sim.schedule(.box(Payload()), to: k, at: SimTime(nanoseconds: Int64(t)))
            sim.schedule(.box(Payload()), to: b, at: SimTime(nanoseconds: Int64(t)))
        }
        sim.runUntilQuiescent()
        #expect(keeper.uniqueOnArrival == [true, true, true], "the kernel kept no copy")
        #expect(borrower.uniqueOnArrival == [false, false, false], "a borrowed event is still the kernel's")
        #expect(keeper.kept.count == 3)
        for i in keeper.kept.indices { #expect(isKnownUniquelyReferenced(&keeper.kept[i])) }
    }
}
