import Foundation
import Testing
import SimKernel
import GrouperModel
@testable import Scenarios
@testable import Format
@testable import Catalogs
@testable import ScenarioFile
@testable import Plan
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Experiments
@testable import Shrink
@testable import Explore

/// The scenario option `"network"` (docs/scenarios.md#network): read, refused with located
/// errors, off by default without a trace, and run on both architectures.
@Suite struct NetworkScenarioTests {
    static func text(_ network: String?, architecture: String = "grouper", extra: String = "") -> String {
        """
        {"format": 1, "name": "net", "seed": 4, "duration": "6h", "settle": "3h",
         "group": {"devices": 4, "k": 2, "n": 3, "s": 2, "ttl": "1h"},
         "architecture": "\(architecture)",
         "workload": {"update": {"every": {"dist": "exponential", "mean": "10min"}}},
         "churn": {"online": {"dist": "exponential", "mean": "1h"}, "offline": {"dist": "exponential", "mean": "20min"}}\(extra)\(network.map { ",\n \"network\": " + $0 } ?? "")}
        """
    }

    static func load(_ text: String) throws(ScenarioError) -> LoadedScenario {
        try ScenarioLoader.load(ScenarioSource(label: "net.json", text: text))
    }

    static func issues(_ text: String) -> [String] {
        do { _ = try load(text); return [] } catch { return error.issues.map(\.description) }
    }

    static func records(_ text: String) throws -> String {
        RecordJSON.lines(try RunPlan(try load(text)).runs.map { try ParallelRunner.record($0, executor: GrouperExecutor()) })
    }

    static func outcome(_ text: String) throws -> RunOutcome {
        let loaded = try load(text)
        return try GrouperExecutor().execute(try #require(RunPlan(loaded).runs.first))
    }

    @Test func readsTheBlock() throws {
        let s = try Self.load(Self.text(#"{"jitter": "250ms", "duplicate": 0.1, "late": 0.02}"#)).base
        #expect(s.network == NetworkFaults(jitter: .milliseconds(250), duplicate: 0.1, late: 0.02))
        #expect(s.networkFaults.until == SimTime.zero + .hours(3), "faults stop at the settle's start")
        #expect(try Self.load(Self.text(nil)).base.network.isOff)
        #expect(try Self.load(Self.text("{}")).base.network == NetworkFaults())
    }

    @Test func refusesBadValuesWithTheirPath() {
        #expect(Self.issues(Self.text(#"{"duplicate": 1.5}"#))
                == ["net.json: network.duplicate: got 1.5, expected a probability in [0, 1]"])
        #expect(Self.issues(Self.text(#"{"late": -0.1}"#)) == ["net.json: network.late: got -0.1, expected a probability in [0, 1]"])
        #expect(Self.issues(Self.text(#"{"jitter": 5}"#))
                == [#"net.json: network.jitter: got 5, expected a duration such as "250ms", "1.5s", "10min", "2h", "1d""#])
        #expect(Self.issues(Self.text(#"{"jiter": "1s"}"#)).first?.hasPrefix(
            "net.json: network.jiter: unknown key 'jiter' (did you mean 'jitter'?); allowed keys: jitter, duplicate, late") == true)
        #expect(Self.issues(Self.text(#""200ms""#)) == [#"net.json: network: got "200ms", expected an object"#])
    }

    /// The jitter must be shorter than the request timeout (60 s by default, or the profile's).
    @Test func jitterBelowTheRequestTimeout() {
        #expect(Self.issues(Self.text(#"{"jitter": "59999999999ns"}"#)).isEmpty)
        #expect(Self.issues(Self.text(#"{"jitter": "60s"}"#)) == [
            #"net.json: network.jitter: got "60s", expected a jitter shorter than the request timeout (1min, profiles.network.timeout): a reply delayed that long always times out"#])
        let profiles = #", "profiles": {"network": {"base": "lab-80211n", "timeout": "2min"}}"#
        #expect(Self.issues(Self.text(#"{"jitter": "90s"}"#, extra: profiles)).isEmpty)
        #expect(Self.issues(Self.text(#"{"jitter": "2d"}"#, extra: profiles)).contains(
            #"net.json: network.jitter: got "2d", expected a duration ≤ 1d"#))
    }

    /// Off (absent, empty, or every value 0) is byte for byte the run without the block.
    @Test func offIsByteIdentical() throws {
        let none = try Self.records(Self.text(nil))
        #expect(try Self.records(Self.text("{}")) == none)
        #expect(try Self.records(Self.text(#"{"jitter": "0s", "duplicate": 0, "late": 0}"#)) == none)
        let central = try Self.records(Self.text(nil, architecture: "central"))
        #expect(try Self.records(Self.text("{}", architecture: "central")) == central)
    }

    /// On: the same seed twice gives the same records; the run differs from the one without;
    /// with the settle every checker passes, on both architectures.
    @Test(arguments: ["grouper", "central"]) func onIsDeterministicChangesTheRunAndConverges(architecture: String) throws {
        let on = Self.text(#"{"jitter": "2s", "duplicate": 0.2, "late": 0.1}"#, architecture: architecture)
        #expect(try Self.records(on) == Self.records(on))
        let a = try Self.outcome(on), off = try Self.outcome(Self.text(nil, architecture: architecture))
        #expect(a.fingerprint != off.fingerprint)
        #expect(a.checkers.allSatisfy { $0.passed }, "\(a.checkers.filter { !$0.passed })")
        let failed = a.metrics.first { $0.name == "converged" }?.value
        #expect(failed == 1)
    }

    /// Sweepable by path, and written to `resolved.json` only when on.
    @Test func sweepsAndResolvedJSON() throws {
        let swept = try Self.load(Self.text(#"{"duplicate": 0.1}"#,
                                            extra: #", "sweep": [{"path": "network.jitter", "values": ["0s", "1s"]}]"#))
        #expect(swept.pointSpecs.map(\.network.jitter) == [.zero, .seconds(1)])
        let on = try Self.load(Self.text(#"{"jitter": "1500ms", "late": 0.25}"#)).base
        let text = JSONWriter.pretty(on.resolvedJSON)
        #expect(text.contains(#""jitter": "1500ms""#) && text.contains(#""late": 0.25"#))
        #expect(try ScenarioLoader.load(ScenarioSource(label: "r", text: text)).base.network == on.network)
        #expect(!JSONWriter.pretty(try Self.load(Self.text("{}")).base.resolvedJSON).contains("jitter"))
    }

    /// `explore` draws the block in every profile, valid, with every fault; the liveness
    /// profile's cases with it still must converge, and their settle covers the faults' seconds.
    @Test(arguments: ExploreProfile.allCases) func exploreDrawsIt(profile: ExploreProfile) {
        let g = ExploreGenerator(profile: profile, seed: 1)
        var drawn = 0, duplicates = 0, late = 0
        for i in 0..<80 {
            guard let s = try? ScenarioLoader.load(ScenarioSource(label: "case.json", text: JSONWriter.pretty(g.document(case: i)))).base,
                  !s.network.isOff else { continue }
            drawn += 1
            if s.network.duplicate > 0 { duplicates += 1 }
            if s.network.late > 0 { late += 1 }
            #expect(s.network.jitter <= .seconds(5))
            if profile == .thesis {
                #expect(CaseTraits(s).mustConverge, "case \(i)")
                #expect(s.settle >= .seconds(60) + .seconds(10), "case \(i): the settle covers a timeout and two jitters")
            }
        }
        #expect(drawn >= 10 && duplicates > 0 && late > 0, "\(profile): \(drawn) cases with network faults")
    }

    /// `shrink` may drop the network faults as one element; a scenario without them has none.
    @Test func shrinkCanDropTheFaults() throws {
        let on = try Self.load(Self.text(#"{"jitter": "1s", "duplicate": 0.5}"#)).base
        #expect(on.elements.contains(.network))
        #expect(on.keeping(on.elements.filter { $0 != .network }).network.isOff)
        #expect(on.keeping(on.elements).network == on.network)
        #expect(!(try Self.load(Self.text(nil)).base.elements.contains(.network)))
    }
}
