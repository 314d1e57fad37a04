import Foundation
import Testing
import SimKernel
@testable import GrouperModel
@testable import Scenarios
@testable import Format
@testable import Catalogs
@testable import ScenarioFile
@testable import Plan
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore
@testable import GrouperSimCLI

/// A scheme whose split always fails: an operation that cannot fail on valid state.
struct BrokenSplit: SecretSharingScheme {
    var kind: SharingSchemeKind { .gf256 }
    func split(_ secret: [UInt8], k: Int, n: Int, rng: inout Xoshiro256StarStar)
        throws(SharingError) -> (shares: [[UInt8]], work: SharingWork) { throw .emptySecret }
    func join(_ shares: [[UInt8]], k: Int) throws(SharingError) -> (secret: [UInt8], work: SharingWork) {
        try GF256Sharing().join(shares, k: k)
    }
    func shareLength(secretLength length: Int) -> Int { length }
}

/// Internal failures are loud: recorded, failing the run, with an exit code of their own.
@Suite struct InternalFailureTests {
    @Test func aFailedSplitIsAnInternalFailureNotALogLine() throws {
        let c = try SystemConfig(devices: 2, servers: 3, k: 2, s: 2, ttl: .minutes(10))
        let system = try GrouperSystem(config: c, scheme: BrokenSplit())
        system.update(device: 0, objectID: "a", size: 10, at: SimTime.zero + .seconds(Int64(1)))
        system.run(until: SimTime.zero + .minutes(5))
        #expect(!system.internalFailures.isEmpty)
        #expect(system.internalFailures.allSatisfy { $0.contains("cannot split") })
        let healthy = try GrouperSystem(config: c)
        healthy.update(device: 0, objectID: "a", size: 10, at: SimTime.zero + .seconds(Int64(1)))
        healthy.run(until: SimTime.zero + .minutes(5))
        #expect(healthy.internalFailures.isEmpty)
    }

    /// An executor that breaks is exit code 3, neither bad input (2) nor a checker failure (1).
    @Test func aBrokenExecutorExitsWithTheInternalErrorCode() throws {
        struct Broken: RunExecutor {
            func execute(_ run: ResolvedRun) throws -> RunOutcome {
                throw RunFailure(runIndex: run.index, message: "internal error (a bug in the model, not bad input): test")
            }
        }
        let dir = ScenarioFixtures.tempDir("internal")
        let file = dir.appendingPathComponent("s.json")
        try Data(ScenarioFixtures.sweepText.utf8).write(to: file)
        var o = RunOptions()
        o.files = [file.path]; o.out = dir.appendingPathComponent("out").path; o.jobs = 1
        let captured = CapturedOutput()
        do {
            _ = try RunCommand.execute(o, executor: Broken(), io: captured.io, terminal: false)
            Issue.record("the run succeeded")
        } catch let e as CLIError {
            #expect(e.exitCode == .internalError && e.exitCode.rawValue == 3)
            #expect(e.message.contains("internal error"))
        }
        #expect(!FileManager.default.fileExists(atPath: o.out!))
    }
}
