import Testing
@testable import SimKernel

private final class Recorder: SimComponent {
    let name = "recorder"
    var log: [(Int64, Int)] = []
    func handle(_ event: Int, in sim: Simulation<Int>) { log.append((sim.now.nanoseconds, event)) }
}

@Test func equalTimesRunInSchedulingOrder() {
    let sim = Simulation<Int>(seed: 1)
    let r = Recorder()
    let id = sim.add(r)
    sim.schedule(3, to: id, at: SimTime(nanoseconds: 20))
    sim.schedule(1, to: id, at: SimTime(nanoseconds: 10))
    sim.schedule(2, to: id, at: SimTime(nanoseconds: 10))
    let h = sim.schedule(99, to: id, at: SimTime(nanoseconds: 15))
    #expect(sim.cancel(h))
    sim.runUntilQuiescent()
    #expect(r.log.map(\.1) == [1, 2, 3])
    #expect(r.log.map(\.0) == [10, 10, 20])
}

@Test func cliHelpRunsAsAProcess() throws {
    let r = try CLIProcess.run(["--help"])
    #expect(r.status == 0)
    #expect(r.stdout.contains("USAGE: grouper-sim"))
    let bad = try CLIProcess.run(["no-such-command"])
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("unknown command 'no-such-command'"))
}
