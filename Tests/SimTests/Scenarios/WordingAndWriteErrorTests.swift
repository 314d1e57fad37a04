import Foundation
import Testing
import SimKernel
import GrouperModel
@testable import Scenarios

/// Counts in errors and findings with their noun and verb in the right number, and a write
/// that the system refuses said in its words, with nothing written.
@Suite struct WordingAndWriteErrorTests {
    @Test func timerLoadErrorCountsOneServer() throws {
        func error(servers: Int) throws -> String {
            let text = """
            {"format": 1, "name": "t", "duration": "1d",
             "group": {"devices": 2, "k": 1, "n": \(servers), "s": 1, "sweep_period": "1ms"}}
            """
            do { _ = try ScenarioLoader.load(ScenarioSource(label: "t.json", text: text)) } catch { return "\(error)" }
            Issue.record("a 1 ms sweep over a day loaded")
            return ""
        }
        let one = try error(servers: 1), two = try error(servers: 2)
        #expect(one.contains("timer firings per run over 1 server, expected at most"), "\(one)")
        #expect(two.contains("timer firings per run over 2 servers, expected at most"), "\(two)")
    }

    /// Device 2 is away while servers 1 and 2 restart without data: one server of three still
    /// holds the write's share, fewer than k = 2.
    @Test func oneServerStillHoldsIt() throws {
        var c = SystemConfig(devices: 2, threshold: .f233, ttl: .minutes(10), variant: .noRecovery)
        c.receive = ReceivePolicy(onPush: true, pullPeriod: .minutes(2), onReconnect: true)
        let system = try GrouperSystem(config: c)
        system.setOnline(false, device: 1, at: .zero)
        system.update(device: 0, objectID: "a", size: 20, at: SimTime.zero + .minutes(1))
        for j in 0..<2 { system.restartServer(j, keepData: false, at: SimTime.zero + .minutes(2)) }
        system.setOnline(true, device: 1, at: SimTime.zero + .minutes(4))
        system.run(until: SimTime.zero + .minutes(6))
        let f = system.check().findings(of: .convergence).filter { $0.message.hasPrefix("D2 lacks") }
        #expect(f.count == 1 && f[0].message.hasSuffix("(1 server still holds it)"), "\(f)")
    }

    /// A path the system cannot create (a new file in /proc): exit 2, the system's
    /// reason, not Foundation's error dump, and nothing written.
    @Test func equationsWriteScenarioToAnImpossiblePath() throws {
        let r = runCLI(["equations", "--write-scenario", "/proc/x.json"])
        #expect(r.code == 2, "\(r.err)")
        #expect(r.err.contains("equations: --write-scenario /proc/x.json: cannot write the file (No such file or directory); nothing was written"),
                "\(r.err)")
        #expect(!r.err.contains("NSCocoaErrorDomain") && !r.err.contains("UserInfo"))
        #expect(!FileManager.default.fileExists(atPath: "/proc/x.json"))
    }
}
