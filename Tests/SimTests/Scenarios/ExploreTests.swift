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
@testable import Shrink
@testable import Experiments
@testable import Explore

/// `grouper-sim explore`: the generator's cases are a function of (seed, profile, index) and
/// cover the feature space; the oracles flag contradictions at their boundaries; a run past its
/// event budget stops; the command writes its folder the same way for any --jobs.
@Suite struct ExploreTests {
    static func spec(_ doc: JSONValue) -> ScenarioSpec? {
        try? ScenarioLoader.load(ScenarioSource(label: "case.json", text: JSONWriter.pretty(doc))).base
    }

    @Test func casesDependOnlyOnSeedProfileAndIndex() {
        let a = ExploreGenerator(profile: .all, seed: 7), b = ExploreGenerator(profile: .all, seed: 7)
        #expect(JSONWriter.pretty(a.document(case: 5)) == JSONWriter.pretty(b.document(case: 5)))
        #expect(JSONWriter.pretty(a.document(case: 5)) != JSONWriter.pretty(a.document(case: 6)))
        #expect(JSONWriter.pretty(a.document(case: 5)) != JSONWriter.pretty(ExploreGenerator(profile: .all, seed: 8).document(case: 5)))
        #expect(JSONWriter.pretty(a.document(case: 5)) != JSONWriter.pretty(ExploreGenerator(profile: .hostile, seed: 7).document(case: 5)))
    }

    /// 300 documents of profile `all`: most read as valid, and every part of the feature space
    /// the generator promises shows up.
    @Test func theAllProfileCoversTheFeatureSpace() {
        let g = ExploreGenerator(profile: .all, seed: 1)
        var valid = 0
        var seen = Set<String>()
        for i in 0..<300 {
            guard let s = Self.spec(g.document(case: i)) else { continue }
            valid += 1
            seen.insert("architecture \(s.architecture)")
            if s.architecture == .grouper {
                seen.insert("variant \(s.protocolSpec.variant.rawValue)")
                seen.insert("rebuild \(s.protocolSpec.rebuild.rawValue)")
                seen.insert("confirm \(s.protocolSpec.confirm.mode.rawValue)")
                seen.insert("receive \(s.protocolSpec.receive.mode.rawValue)")
                if s.group.k == 1 { seen.insert("k = 1") }
                if s.group.s == s.group.n && s.group.n > 1 { seen.insert("s = n") }
            }
            if s.workload.chunking != nil { seen.insert("chunking") }
            if s.workload.delete != nil { seen.insert("deletes") }
            if !s.workload.writes.isEmpty { seen.insert("explicit writes") }
            if !s.group.invitations.isEmpty { seen.insert("invitations") }
            if s.churn.process != nil { seen.insert("churn process") }
            if s.settle > .zero { seen.insert("settle") }
            if s.deviceStore.atRest != .plain { seen.insert("encrypted store") }
            let w = s.churn.windows
            if w.indices.contains(where: { i in w.indices.contains { j in j != i && w[i].device == w[j].device && w[i].start < w[j].end && w[j].start < w[i].end } }) {
                seen.insert("overlapping windows")
            }
            for f in s.faults {
                switch f.kind {
                case .window(let mode, _, _), .process(let mode, _, _): seen.insert("fault \(mode)")
                case .restart(_, let keep): seen.insert("restart keep \(keep)")
                case .misbehave(let b, _): seen.insert("hostile \(b.kindName)")
                case .collude: seen.insert("hostile collude")
                }
            }
        }
        #expect(valid >= 200, "only \(valid) of 300 drawn documents read as valid")
        let expected = ["architecture grouper", "architecture central", "variant thesis", "variant as-built", "variant basic-multicast",
                        "variant no-recovery", "rebuild first-k", "rebuild check", "rebuild correct", "confirm periodic",
                        "confirm on-reconnect", "confirm never", "confirm after-receive", "receive push", "receive poll",
                        "receive push-and-poll", "k = 1", "s = n", "chunking", "deletes", "explicit writes", "invitations",
                        "churn process", "settle", "encrypted store", "overlapping windows", "restart keep true",
                        "restart keep false", "hostile tamper", "hostile stale", "hostile withhold", "hostile early-delete",
                        "hostile keep", "hostile collude"]
        let missing = expected.filter { !seen.contains($0) }
        #expect(missing.isEmpty, "never drawn: \(missing); drawn: \(seen.sorted())")
    }

    /// The liveness profile draws only cases that must converge, and `all` draws some too.
    @Test func theThesisProfileDrawsOnlyCasesThatMustConverge() {
        let g = ExploreGenerator(profile: .thesis, seed: 3)
        var valid = 0
        for i in 0..<60 {
            guard let s = Self.spec(g.document(case: i)) else { continue }
            valid += 1
            #expect(CaseTraits(s).mustConverge, "case \(i) of profile thesis")
        }
        #expect(valid >= 50)
        let all = ExploreGenerator(profile: .all, seed: 3)
        #expect((0..<200).contains { Self.spec(all.document(case: $0)).map { CaseTraits($0).mustConverge } ?? false })
    }

    static func outcome(_ metrics: [(MetricName, Double)], checkers: [CheckerVerdict] = []) -> RunOutcome {
        RunOutcome(metrics: metrics.map { ($0.0, $0.1) }, checkers: checkers,
                   fingerprint: RunFingerprint(value: 0), series: [])
    }

    static let grouper = CaseTraits(try! ScenarioLoader.load(ScenarioSource(label: "g.json", text: """
        {"format": 1, "name": "g", "duration": "4h", "settle": "3h", "group": {"devices": 2, "k": 2, "n": 3, "s": 2, "ttl": "1h"}}
        """)).base)

    @Test func metricOraclesHoldAtTheirBoundaries() {
        let t = Self.grouper
        #expect(t.mustConverge)
        func findings(_ m: [(MetricName, Double)]) -> [String] { ExploreOracles.metricFindings(Self.outcome(m), t).map(\.message) }
        #expect(findings([(.converged, 1), (.deliveryRatio, 1), (.lostMessages, 0)]).isEmpty)
        #expect(findings([(.converged, 1), (.deliveryRatio, 1 - 1e-12)]).count == 1)
        #expect(findings([(.converged, 1), (.lostMessages, 1)]).count == 1)
        #expect(findings([(.converged, 0), (.deliveryRatio, 0.5)]).isEmpty)
        #expect(findings([(.failedUploadsRebuildable, 3), (.uploadFailures, 3)]).isEmpty)
        #expect(findings([(.failedUploadsRebuildable, 4), (.uploadFailures, 3)]).count == 1)
        #expect(findings([(.deliveryLatencyP50, 2), (.deliveryLatencyP95, 2), (.deliveryLatencyMax, 2)]).isEmpty)
        #expect(findings([(.deliveryLatencyP50, 2), (.deliveryLatencyP95, 1.9), (.deliveryLatencyMax, 3)]).count == 1)
        #expect(findings([(.plaintextExposedMessages, 1)]).count == 1)
        #expect(findings([(.corruptedDeliveries, 1)]).count == 1)
        #expect(findings([(.sharePuts, .nan)]).count == 1)
        #expect(findings([(.transfersDeclined, 0)]).count == 1)
        #expect(findings([(.messagesUploaded, 5), (.updatesUploaded, 3), (.deletesUploaded, 1), (.confirmsUploaded, 1), (.resendsUploaded, 0)]).isEmpty)
        #expect(findings([(.messagesUploaded, 4), (.updatesUploaded, 3), (.deletesUploaded, 1), (.confirmsUploaded, 1), (.resendsUploaded, 0)]).count == 1)
    }

    @Test func checkerOraclesSeparateSafetyFromLiveness() {
        let failing = [CheckerVerdict(name: "convergence", kind: .liveness, passed: false, detail: "D2 lacks …"),
                       CheckerVerdict(name: "no-phantom", kind: .safety, passed: false, detail: "D1 holds …")]
        let must = ExploreOracles.judge(Self.outcome([], checkers: failing), Self.grouper)
        #expect(Set(must.map(\.oracle)) == [.liveness, .safety])
        var relaxed = Self.grouper
        relaxed.mustConverge = false
        relaxed.hostileKinds = ["tamper"]
        // A phantom is what a tampering server does to a first-k receiver; convergence is not promised.
        #expect(ExploreOracles.judge(Self.outcome([], checkers: failing), relaxed).isEmpty)
        relaxed.rebuild = "check"
        #expect(ExploreOracles.judge(Self.outcome([], checkers: failing), relaxed).map(\.oracle) == [.safety])
    }

    /// `check` and `correct` always see one altered share among k + 1 or more; two altering
    /// servers can line up into another codeword, so only then is a phantom explained.
    @Test func aPhantomIsExplainedByTwoAlteringServersOrFirstK() throws {
        func traits(_ rebuild: String, _ faults: String) throws -> CaseTraits {
            CaseTraits(try ScenarioLoader.load(ScenarioSource(label: "t.json", text: """
                {"format": 1, "name": "t", "duration": "4h", "group": {"devices": 2, "k": 2, "n": 4, "s": 4, "ttl": "1h"},
                 "protocol": {"rebuild": "\(rebuild)"}, "faults": [\(faults)]}
                """)).base)
        }
        let phantom = [CheckerVerdict(name: "no-phantom", kind: .safety, passed: false, detail: "D1 holds …")]
        func flagged(_ t: CaseTraits) -> Bool { !ExploreOracles.judge(Self.outcome([], checkers: phantom), t).isEmpty }
        let one = #"{"kind": "tamper", "servers": [2]}"#
        let two = #"{"kind": "tamper", "servers": [2, 3]}"#
        let staleOther = #"{"kind": "stale", "servers": [4]}"#
        let staleSame = #"{"kind": "stale", "servers": [2]}"#
        let all = #"{"kind": "tamper", "servers": "all"}"#
        for rebuild in ["check", "correct"] {
            #expect(try traits(rebuild, one).alteringServers == 1)
            #expect(flagged(try traits(rebuild, one)), "\(rebuild), one tampering server")
            #expect(flagged(try traits(rebuild, one + ", " + staleSame)), "\(rebuild), one server tampering and stale")
            #expect(!flagged(try traits(rebuild, two)), "\(rebuild), two tampering servers")
            #expect(!flagged(try traits(rebuild, one + ", " + staleOther)), "\(rebuild), one tampering, one stale")
            #expect(try traits(rebuild, all).alteringServers == 4)
            #expect(!flagged(try traits(rebuild, all)))
        }
        #expect(!flagged(try traits("first-k", one)))
        #expect(flagged(try traits("check", #"{"kind": "tamper", "servers": [2, 3], "fraction": 0}"#)), "a tamper fraction of 0 alters nothing")
        #expect(flagged(try traits("check", #"{"kind": "withhold", "servers": [2, 3]}"#)), "withholding alters nothing")
    }

    /// What the long searches found, shrunk: servers 2, 4 and 6 tamper and a `check` receiver
    /// with 8 shares (k = 7) accepts an altered update. The oracle explains it by the three
    /// altering servers; the same run with server 2 tampering alone has no phantom.
    @Test(.tags(.slow)) func theShrunkThreeTampererPhantomIsExplainedAndOneTampererMakesNone() throws {
        let url = ScenarioFixtures.root.appendingPathComponent("findings/two-tamperers-line-up.json")
        let data = try Data(contentsOf: url)
        func run(_ bytes: Data) throws -> (RunOutcome, CaseTraits) {
            let loaded = try ScenarioLoader.load(ScenarioSource(label: url.lastPathComponent, bytes: Array(bytes)))
            return (try GrouperExecutor().execute(try #require(RunPlan(loaded).runs.first)), CaseTraits(loaded.base))
        }
        let (outcome, traits) = try run(data)
        #expect(outcome.checkers.first { $0.name == "no-phantom" }?.passed == false)
        #expect(traits.alteringServers == 3)
        #expect(!ExploreOracles.judge(outcome, traits).contains { $0.oracle == .safety })

        var doc = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let faults = try #require(doc["faults"] as? [[String: Any]])
        doc["faults"] = faults.filter { $0["kind"] as? String != "tamper" || ($0["servers"] as? [Int]) == [2] }
        let (alone, aloneTraits) = try run(try JSONSerialization.data(withJSONObject: doc, options: [.sortedKeys]))
        #expect(aloneTraits.alteringServers == 1)
        #expect(alone.checkers.first { $0.name == "no-phantom" }?.passed == true)
        #expect(alone.fingerprint != outcome.fingerprint)
    }

    /// What seed 21's search found, shrunk: a blackholed server fails device 2's uploads and
    /// `unsent_retry: on-reconnect` never retries them while it stays online. Such a case is not
    /// promised to converge; with a retry timer it is (settle ≥ 3× the timer) and it does.
    @Test func aCaseMustConvergeOnlyWithAnUnsentRetryTimerWithinTheSettle() throws {
        let url = ScenarioFixtures.root.appendingPathComponent("findings/unsent-on-reconnect-stays-queued.json")
        let data = try Data(contentsOf: url)
        func load(_ unsentRetry: String?) throws -> LoadedScenario {
            var doc = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            var proto = try #require(doc["protocol"] as? [String: Any])
            if let unsentRetry { proto["unsent_retry"] = unsentRetry }
            doc["protocol"] = proto
            let bytes = try JSONSerialization.data(withJSONObject: doc, options: [.sortedKeys])
            return try ScenarioLoader.load(ScenarioSource(label: url.lastPathComponent, bytes: Array(bytes)))
        }
        func outbox(_ l: LoadedScenario) throws -> Bool? {
            try GrouperExecutor().execute(try #require(RunPlan(l).runs.first)).checkers.first { $0.name == "outbox" }?.passed
        }
        let asFound = try load(nil)
        #expect(asFound.base.settle == .hours(3))
        #expect(!CaseTraits(asFound.base).mustConverge)
        #expect(try outbox(asFound) == false)
        let timer = try load("1h")   // settle = 3 × 1 h, the slowest period
        #expect(CaseTraits(timer.base).mustConverge)
        #expect(try outbox(timer) == true)
        #expect(!CaseTraits(try load("61min").base).mustConverge, "a settle under 3× the unsent retry")
    }

    /// What seed 22's search found, shrunk: an invitee holds the group's history under Grouper
    /// (the owner hands it over) and not under the central server. The start members agree,
    /// so the differential oracle compares only them.
    @Test func theCentralDifferentialComparesOnlyTheStartMembers() throws {
        let url = ScenarioFixtures.root.appendingPathComponent("findings/invitee-history-grouper-vs-central.json")
        let loaded = try ScenarioLoader.load(ScenarioSource(label: url.lastPathComponent, bytes: Array(try Data(contentsOf: url))))
        let t = CaseTraits(loaded.base)
        #expect(t.comparesWithCentral && t.initialMembers == [1, 4])
        var run = try #require(RunPlan(loaded).runs.first)
        let executor = GrouperExecutor(audits: true)
        let grouper = try executor.execute(run)
        run.spec.architecture = .central
        let central = try executor.execute(run)
        #expect(!grouper.finalObjects.isEmpty)
        #expect(Set(grouper.finalObjects).subtracting(central.finalObjects).contains { $0.hasPrefix("D2 ") || $0.hasPrefix("D3 ") })
        #expect(ExploreOracles.centralDifference(grouper, central, members: t.initialMembers) == nil)
        #expect(ExploreOracles.centralDifference(grouper, central, members: [1, 2, 3, 4]) != nil)
    }

    @Test(.tags(.slow)) func aRunPastItsEventBudgetStops() throws {
        let spec = try ScenarioLoader.load(ScenarioSource(label: "b.json", text: """
            {"format": 1, "name": "b", "duration": "6h", "group": {"devices": 3, "k": 2, "n": 3, "s": 3, "ttl": "1h"},
             "workload": {"update": {"every": "5min"}}}
            """)).base
        var run = ResolvedRun(index: 0, point: 0, replication: 0, seed: 1, spec: spec, assignments: [])
        let full = try GrouperExecutor().execute(run)
        let events = full.metrics.first { $0.name == "events" }!.value
        // Exactly the run's events fit; one fewer stops it.
        run.eventBudget = UInt64(events)
        let again = try GrouperExecutor().execute(run)
        #expect(again.fingerprint == full.fingerprint)
        run.eventBudget = UInt64(events) - 1
        #expect(throws: EventBudgetExceeded.self) { _ = try GrouperExecutor().execute(run) }
    }

    @Test(.tags(.slow)) func theCommandWritesTheSameFolderForAnyJobsAndRefusesForeignFolders() throws {
        let dir = ScenarioFixtures.tempDir("explore-cli")
        var texts: [String] = []
        for jobs in ["1", "2"] {
            let out = dir.appendingPathComponent("ex").path
            let r = runCLI(["explore", "--cases", "6", "--seed", "11", "--jobs", jobs, "--no-shrink", "--out", out])
            #expect(r.code == 0 || r.code == 1, "\(r.err)")
            #expect(r.out.contains("| oracle | cases judged | passed | failed |"))
            texts.append(try String(contentsOfFile: out + "/explore.json", encoding: .utf8)
                         + String(contentsOfFile: out + "/explore.md", encoding: .utf8))
        }
        #expect(texts[0] == texts[1])
        #expect(texts[0].contains("\"cases\": 6"))
        let foreign = dir.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: foreign.appendingPathComponent("notes.txt"))
        let refused = runCLI(["explore", "--cases", "1", "--out", foreign.path])
        #expect(refused.code == 2 && refused.err.contains("'notes.txt'") && refused.err.contains("nothing was written"), "\(refused.err)")
        #expect(try String(contentsOfFile: foreign.appendingPathComponent("notes.txt").path, encoding: .utf8) == "notes")
        // A user's file inside an earlier explore's findings/ is not the tool's to remove.
        let earlier = dir.appendingPathComponent("ex")
        let note = earlier.appendingPathComponent("findings/my-note.txt")
        try Data("mine".utf8).write(to: note)
        let kept = runCLI(["explore", "--cases", "1", "--no-shrink", "--out", earlier.path])
        #expect(kept.code == 2 && kept.err.contains("'findings/my-note.txt'"), "\(kept.err)")
        #expect(try String(contentsOf: note, encoding: .utf8) == "mine")
        let bad = runCLI(["explore", "--profile", "hostil"])
        #expect(bad.code == 2 && bad.err.contains("did you mean 'hostile'"), "\(bad.err)")
        let both = runCLI(["explore", "--cases", "2", "--seconds", "2"])
        #expect(both.code == 2 && both.err.contains("not both"), "\(both.err)")
    }

    /// The equations probe compares up to rounding: the long searches met 13.000000000000002
    /// against 13 (a mean over 7 devices). The tolerance is relative 1e-9, and no wider.
    @Test func theEquationsProbeAgreesUpToRoundingOnly() {
        #expect(EquationsProbe.agrees(13.000000000000002, 13))
        #expect(EquationsProbe.agrees(39.99999999999999, 40.00000000000001))
        #expect(EquationsProbe.agrees(1 + 5e-10, 1))
        #expect(!EquationsProbe.agrees(1 + 2e-9, 1))
        #expect(!EquationsProbe.agrees(812.001, 812))
        #expect(EquationsProbe.agrees(0, 1e-12) && !EquationsProbe.agrees(0, 1e-8))
    }

    /// The parameters the long searches flagged (a rounding difference each) now agree.
    @Test(.tags(.slow)) func flaggedEquationParametersAgree() throws {
        var p = EquationParameters()
        p.model = .thesis; p.devices = 7; p.updatesPerDevice = 6; p.confirms = 1; p.offline = 4
        p.offlineTime = .seconds(21_600); p.replications = 2; p.seed = 267
        let probe = EquationsProbe(parameters: p)
        #expect(probe.finding() == nil)
    }
}
