import Testing
import Foundation
@testable import SimKernel

/// Test events: one traceable, one plain enum (default trace kind).
enum PingEvent: TraceableEvent {
    case ping(Int)
    case wake
    var traceKind: String { switch self { case .ping: "ping"; case .wake: "wake" } }
    var traceFields: [(String, String)] { if case .ping(let n) = self { [("n", String(n))] } else { [] } }
}

/// Bounces a ping to its peer after a random delay until `limit` pings were sent.
final class Pinger: SimComponent {
    let name: String
    var peer = ComponentID(index: 0)
    var rng: Xoshiro256StarStar
    var log: [(Int64, Int)] = []
    let limit: Int
    init(name: String, sim: Simulation<PingEvent>, limit: Int = 50) {
        self.name = name; rng = sim.randomStream(for: name); self.limit = limit
    }
    func handle(_ event: PingEvent, in sim: Simulation<PingEvent>) {
        guard case .ping(let n) = event else { return }
        log.append((sim.now.nanoseconds, n))
        if n < limit { sim.schedule(.ping(n + 1), to: peer, after: .nanoseconds(Int64(rng.nextInt(below: 1000)))) }
    }
}

@Suite("Simulation")
struct SimulationTests {
    static func pingPong(seed: UInt64, trace: TraceSink? = nil) -> (Simulation<PingEvent>, Pinger, Pinger) {
        let sim = Simulation<PingEvent>(seed: seed)
        let a = Pinger(name: "a", sim: sim), b = Pinger(name: "b", sim: sim)
        let ia = sim.add(a), ib = sim.add(b)
        a.peer = ib; b.peer = ia
        sim.registerForFingerprint { [unowned a] in a.rng }
        sim.registerForFingerprint { [unowned b] in b.rng }
        sim.trace = trace
        sim.schedule(.ping(0), to: ia, at: .zero)
        return (sim, a, b)
    }

    @Test func timeNeverMovesBackwards() {
        let (sim, a, b) = Self.pingPong(seed: 3)
        while sim.step() { #expect(sim.checkInvariants() == nil) }
        let times = (a.log + b.log).sorted { $0.1 < $1.1 }.map(\.0)
        #expect(times == times.sorted())
        #expect(sim.eventsProcessed == 51 && sim.pendingCount == 0)
    }

    @Test func runUntilStopsAtLimitAndAdvancesClock() {
        let sim = Simulation<PingEvent>(seed: 1)
        let a = Pinger(name: "a", sim: sim)
        let id = sim.add(a)
        a.peer = id
        for t in [10, 20, 30] as [Int64] { sim.schedule(.ping(1000), to: id, at: SimTime(nanoseconds: t)) }
        sim.run(until: SimTime(nanoseconds: 20))
        #expect(a.log.map(\.0) == [10, 20])
        #expect(sim.now == SimTime(nanoseconds: 20))
        sim.run(until: SimTime(nanoseconds: 25))
        #expect(sim.now == SimTime(nanoseconds: 25) && sim.nextEventTime() == SimTime(nanoseconds: 30))
        sim.run(while: { $0.eventsProcessed < 2 })
        #expect(sim.pendingCount == 1)
    }

    @Test func stopReturnsAfterCurrentEvent() {
        final class Stopper: SimComponent {
            let name = "stopper"
            func handle(_ event: PingEvent, in sim: Simulation<PingEvent>) { sim.stop() }
        }
        let sim = Simulation<PingEvent>(seed: 1)
        let id = sim.add(Stopper())
        for t in 1...3 { sim.schedule(.wake, to: id, at: SimTime(nanoseconds: Int64(t))) }
        sim.runUntilQuiescent()
        #expect(sim.eventsProcessed == 1 && sim.pendingCount == 2)
        sim.run(until: .distantFuture)
        #expect(sim.eventsProcessed == 2)
    }

    @Test func fingerprintIsReproducibleAndSensitive() {
        func fingerprint(_ seed: UInt64) -> String {
            let (sim, _, _) = Self.pingPong(seed: seed)
            sim.runUntilQuiescent()
            return sim.fingerprint().hex
        }
        #expect(fingerprint(5) == fingerprint(5))
        #expect(fingerprint(5) != fingerprint(6))
        #expect(fingerprint(5).count == 16)
        let (sim, _, _) = Self.pingPong(seed: 5)
        sim.runUntilQuiescent()
        var extra = Xoshiro256StarStar(seed: 1)
        let before = sim.fingerprint(extraRNGStates: [extra])
        _ = extra.next()
        #expect(sim.fingerprint(extraRNGStates: [extra]) != before)
    }

    @Test func traceWritesFilteredJSONLines() throws {
        final class Lines: @unchecked Sendable { var text = "" }
        let out = Lines()
        let sink = TraceSink(components: ["b"], kinds: ["ping"]) { out.text += $0 }
        let (sim, _, _) = Self.pingPong(seed: 9, trace: sink)
        sim.runUntilQuiescent()
        sink.close()
        let lines = out.text.split(separator: "\n")
        #expect(lines.count == 25 && sink.linesWritten == 25)   // b receives odd pings 1…49
        let first = try #require(lines.first)
        #expect(first.hasPrefix("{\"t\":"))
        #expect(first.contains("\"component\":\"b\",\"kind\":\"ping\",\"fields\":{\"n\":\"1\"}}"))
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["component"] as? String == "b")
        }
        // Tracing does not change the run.
        let (plain, _, _) = Self.pingPong(seed: 9)
        plain.runUntilQuiescent()
        #expect(plain.fingerprint() == sim.fingerprint())
    }

    @Test func traceDefaultsForPlainEventsAndEscapes() {
        enum Plain { case hello(String) }
        let described = TraceSink.describe(Plain.hello("x\"y"))
        #expect(described.kind == "hello")
        #expect(TraceSink.quoted("a\"b\\c\n\u{1}") == #""a\"b\\c\n\u0001""#)
    }

    @Test func traceFileIsWrittenAndBadPathNamed() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kernel-trace-\(getpid()).jsonl").path
        do {
            let sink = try TraceSink(path: path)
            let (sim, _, _) = Self.pingPong(seed: 2, trace: sink)
            sim.runUntilQuiescent()
            sink.close()
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 51)
        try? FileManager.default.removeItem(atPath: path)
        #expect(throws: TraceError.self) { try TraceSink(path: "/no/such/dir/trace.jsonl") }
    }

    @Test func schedulingInThePastIsAPreconditionFailure() async {
        await #expect(processExitsWith: .failure) {
            let sim = Simulation<PingEvent>(seed: 1)
            let id = sim.add(Pinger(name: "a", sim: sim))
            sim.schedule(.wake, to: id, at: SimTime(nanoseconds: 10))
            sim.runUntilQuiescent()
            sim.schedule(.wake, to: id, at: SimTime(nanoseconds: 5))
        }
    }

    @Test func cancelThroughSimulation() {
        let sim = Simulation<PingEvent>(seed: 1)
        let a = Pinger(name: "a", sim: sim)
        let id = sim.add(a)
        let h = sim.schedule(.ping(1000), to: id, after: .seconds(1))
        sim.schedule(.ping(2000), to: id, after: .seconds(2))
        #expect(sim.cancel(h))
        sim.runUntilQuiescent()
        #expect(a.log.map(\.1) == [2000])
        #expect(!sim.cancel(h))
    }
}

@Suite("Kernel determinism across processes")
struct KernelProcessTests {
    static func fingerprint(seed: String) throws -> String {
        let r = try CLIProcess.run(["bench", "kernel", "--pending", "100", "--events", "20000", "--seed", seed, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        #expect(object?["bench"] as? String == "kernel")
        #expect(object?["pending"] as? Int == 100 && object?["events"] as? Int == 20000)
        #expect((object?["events_per_second"] as? Double ?? 0) > 0)
        #expect(r.stdout.split(separator: "\n").count == 1)
        return try #require(object?["fingerprint"] as? String)
    }

    @Test func sameSeedSameFingerprintInTwoProcesses() throws {
        let first = try Self.fingerprint(seed: "7"), second = try Self.fingerprint(seed: "7")
        #expect(first == second)
        #expect(first.count == 16)
        #expect(try Self.fingerprint(seed: "8") != first)
    }

    @Test func badArgumentsExitTwoNamingTheOption() throws {
        let r = try CLIProcess.run(["bench", "kernel", "--pending", "0"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--pending must be an integer in 1...10000000"))
        let typo = try CLIProcess.run(["bench", "kernel", "--event", "5"])
        #expect(typo.status == 2 && typo.stderr.contains("did you mean '--events'"))
        let seed = try CLIProcess.run(["bench", "kernel", "--seed", "-1"])
        #expect(seed.status == 2 && seed.stderr.contains("--seed"))
    }
}
