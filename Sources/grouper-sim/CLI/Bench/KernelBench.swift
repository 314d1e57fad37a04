import Scenarios
import SimKernel

/// `grouper-sim bench kernel`: the classic hold model through the real `Simulation` API.
///
/// N events are pending; each delivered event schedules one new event at
/// now + Exp(mean 1 s), drawn from the component's own xoshiro256** stream, so the
/// queue stays at N. Wall-clock time is read here only, never in the kernel.
enum KernelBench {
    struct Options: Equatable {
        var pending = 1_000
        var events = 10_000_000
        var seed: UInt64 = 1
        var json = false
    }

    struct Result {
        var options: Options
        var seconds: Double
        var fingerprint: RunFingerprint
        var eventsPerSecond: Double { Double(options.events) / seconds }
    }

    /// One pending timer; the payload is what a small protocol event would carry.
    struct HoldEvent { var generation: UInt32 }

    /// The fields opt out of dynamic exclusivity checks, as `Simulation`'s hot fields do: each
    /// mutation of a class's stored property otherwise costs a runtime access-set insert and
    /// removal (~110 instructions per event), which is the component's cost, not the queue's.
    final class HoldComponent: SimComponent {
        let name = "hold"
        @exclusivity(unchecked) var rng: Xoshiro256StarStar
        @exclusivity(unchecked) var remaining: Int
        @exclusivity(unchecked) var id = ComponentID(index: 0)
        init(rng: Xoshiro256StarStar, events: Int) { self.rng = rng; remaining = events }

        func handle(_ event: HoldEvent, in sim: Simulation<HoldEvent>) {
            remaining -= 1
            if remaining == 0 { sim.stop(); return }
            let delayNanos = Int64(rng.nextExponential(mean: 1e9))
            sim.schedule(HoldEvent(generation: event.generation &+ 1), to: id, after: .nanoseconds(delayNanos))
        }
    }

    /// The options `bench kernel` takes (listed by `bench --help`).
    static let options = ["--pending", "--events", "--seed", "--json"]
    static let usage = "bench kernel [--pending N] [--events M] [--seed S] [--json]"

    static func parse(_ args: [String]) throws -> Options {
        var list = ArgumentList(args, command: "bench kernel")
        var o = Options()
        o.pending = try list.int("--pending", in: 1...10_000_000) ?? o.pending
        o.events = try list.int("--events", in: 1...1_000_000_000_000) ?? o.events
        o.seed = try list.uint64("--seed") ?? o.seed
        o.json = list.flag("--json")
        try list.finish(known: options)
        return o
    }

    /// Builds the model, then times only the event loop.
    static func run(_ o: Options) -> Result {
        let sim = Simulation<HoldEvent>(seed: o.seed, reservingEvents: o.pending)
        let hold = HoldComponent(rng: sim.randomStream(for: "hold"), events: o.events)
        hold.id = sim.add(hold)
        sim.registerForFingerprint { [unowned hold] in hold.rng }
        for _ in 0..<o.pending {
            sim.schedule(HoldEvent(generation: 0), to: hold.id, after: .nanoseconds(Int64(hold.rng.nextExponential(mean: 1e9))))
        }
        let clock = ContinuousClock()
        let start = clock.now
        sim.runUntilQuiescent()
        let elapsed = clock.now - start
        let c = elapsed.components
        let seconds = Double(c.seconds) + Double(c.attoseconds) * 1e-18
        return Result(options: o, seconds: max(seconds, 1e-9), fingerprint: sim.fingerprint())
    }

    static func main(_ args: [String], _ io: CLIOutput) throws -> ExitCode {
        let o = try parse(args)
        let r = run(o)
        let rate = Int(r.eventsPerSecond.rounded())
        if o.json {
            io.out("{\"bench\":\"kernel\",\"pending\":\(o.pending),\"events\":\(o.events),"
                   + "\"events_per_second\":\(rate),\"fingerprint\":\"\(r.fingerprint.hex)\"}\n")
        } else {
            io.out("""
            kernel hold model: pending \(o.pending), events \(o.events), seed \(o.seed)
            events/s: \(rate)  (\(Double(rate / 10_000) / 100) M/s, \(Int((r.seconds * 1000).rounded())) ms)
            fingerprint: \(r.fingerprint.hex)

            """)
        }
        return .ok
    }
}
