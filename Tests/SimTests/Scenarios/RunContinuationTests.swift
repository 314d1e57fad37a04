import Testing
import Scenarios
import SimKernel

/// The decisions of continuing a run, taken by the library without a command line: which
/// models, which kept records, and what differs from an unfinished run in the same folder.
@Suite struct RunContinuationTests {
    static func header(seed: UInt64? = nil, replications: Int? = nil) throws -> PartialRun.Header {
        let loaded = try ScenarioLoader.load(BuiltinScenarios.resolve("smoke")).overriding(seed: seed, replications: replications)
        return PartialRun.Header(loaded, engine: .grouper)
    }

    @Test func modelsMixOnlyWhenAllowed() throws {
        let current = ModelIdentity.current
        #expect(try RunContinuation.models([current], of: "r", allowMix: false, mode: "--resume") == [current])
        let other = "0000000000000000"
        #expect(throws: ContinuationRefusal.self) { try RunContinuation.models([other], of: "r", allowMix: false, mode: "--resume") }
        #expect(try RunContinuation.models([other], of: "r", allowMix: true, mode: "--resume") == [current, other].sorted())
    }

    @Test func differencesNameWhatDiffers() throws {
        let mine = try Self.header(seed: 7, replications: 2)
        #expect(RunContinuation.differences(mine, mine).isEmpty)
        let seed = try Self.header(seed: 8, replications: 2)
        #expect(RunContinuation.differences(mine, seed) == ["seed (8 there)"])
        let reps = try Self.header(seed: 7, replications: 3)
        #expect(RunContinuation.differences(mine, reps) == ["replications (3 there)"])
    }

    @Test func keptRecordsAreFoundByPointAndReplication() {
        let r = RunRecord(index: 5, point: 1, replication: 2, seed: 9, metrics: [], checkers: [], fingerprint: RunFingerprint(value: 0))
        #expect(RunContinuation.reusable([r])[RunKey(point: 1, replication: 2)] == r)
        #expect(RunContinuation.reusable([r])[RunKey(point: 2, replication: 1)] == nil)
    }

    @Test func aChangedScenarioCannotContinue() throws {
        let h = try Self.header()
        #expect(throws: ContinuationRefusal.self) {
            try RunContinuation.scenario("smoke", recorded: h.scenarioFile, hash: h.scenarioHash &+ 1, dir: "r", mode: "--resume")
        }
        #expect(try RunContinuation.scenario("smoke", recorded: h.scenarioFile, hash: h.scenarioHash, dir: "r", mode: "--resume").base.name == "smoke")
        #expect(throws: ContinuationRefusal.self) {
            try RunContinuation.scenario(nil, recorded: "my.json", hash: h.scenarioHash, dir: "r", mode: "--resume")
        }
    }
}
