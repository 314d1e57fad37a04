import Foundation
import Testing
@testable import Scenarios
@testable import Format
@testable import Catalogs
@testable import ScenarioFile
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore
import SimKernel

/// Profile fields: each one the model reads (a field no run can see is dead), and none can be
/// given a value that overflows the arithmetic it feeds.
@Suite struct ProfileFieldTests {
    /// A small run whose profile `kind` overrides `field` with `value` (JSON text).
    static func scenario(_ kind: String, _ field: String, _ value: String) -> String {
        let base = ["device": "a5", "network": "lab-80211n", "server": "tomcat-mysql"]
        let profiles = base.keys.sorted().map { k in
            k == kind ? "\"\(k)\": {\"base\": \"\(base[k]!)\", \"\(field)\": \(value)}" : "\"\(k)\": \"\(base[k]!)\""
        }.joined(separator: ", ")
        // The at-rest fields cost something only with an encrypted store (issue #10).
        let store = ProfileCatalog.quietFields.contains(field) ? "\"device_store\": {\"at_rest\": \"aes256-cbc\"}," : ""
        return """
        {"format": 1, "name": "profile-field", "duration": "2h", "seed": 5, \(store)
         "group": {"devices": 3, "k": 2, "n": 3, "s": 3, "ttl": "1h"},
         "workload": {"update": {"every": {"dist": "exponential", "mean": "10min"}}},
         "churn": {"online": "30min", "offline": "10min"},
         "faults": [{"kind": "blackhole", "servers": [2], "window": {"start": "10min", "end": "20min"}}],
         "profiles": {\(profiles)}}
        """
    }

    static func fingerprint(_ text: String) throws -> RunFingerprint {
        let s = try ScenarioLoader.load(ScenarioSource(label: "p.json", text: text))
        return try ParallelRunner.record(RunPlan(s).runs[0], executor: GrouperExecutor()).fingerprint
    }

    /// Two values per field (SI units) that a run must tell apart.
    static func values(_ f: ProfileCatalog.Field) -> (String, String) {
        switch f.unit {
        case .duration: return ("\"0s\"", f.longest >= .seconds(Int64(1)) ? "\"1s\"" : "\"\(f.longest)\"")
        case .bytesPerSecond: return ("1000", "1000000")
        case .bytes: return ("0", "100000")
        }
    }

    @Test(arguments: [ProfileSpec.Kind.device, .network, .server])
    func everyFieldChangesTheFingerprint(_ kind: ProfileSpec.Kind) throws {
        for f in ProfileCatalog.fields(kind) {
            let (a, b) = Self.values(f)
            let fa = try Self.fingerprint(Self.scenario("\(kind)", f.name, a))
            let fb = try Self.fingerprint(Self.scenario("\(kind)", f.name, b))
            #expect(fa != fb, "\(kind).\(f.name): \(a) and \(b) give the same fingerprint")
        }
    }

    /// Too long a duration is a located error; the longest accepted one runs to the end.
    @Test(arguments: [ProfileSpec.Kind.device, .network, .server])
    func everyDurationFieldIsBoundedAndTheBoundRuns(_ kind: ProfileSpec.Kind) throws {
        for f in ProfileCatalog.fields(kind) where f.unit == .duration {
            do {
                _ = try Self.fingerprint(Self.scenario("\(kind)", f.name, "\"106751d\""))
                Issue.record("\(kind).\(f.name) = 106751d was accepted")
            } catch let e as ScenarioError {
                #expect(e.issues.map(\.description) == ["p.json: profiles.\(kind).\(f.name): got \"106751d\", expected a duration ≤ \(f.longest)"])
            }
            _ = try Self.fingerprint(Self.scenario("\(kind)", f.name, "\"\(f.longest)\""))
        }
    }

    @Test func everyScenarioDurationIsBounded() throws {
        let text = Self.scenario("device", "request", "\"5ms\"").replacingOccurrences(of: "\"ttl\": \"1h\"", with: "\"ttl\": \"3651d\"")
        #expect(throws: ScenarioError.self) { try Self.fingerprint(text) }
        let v = runCLIValidate(text)
        #expect(v.code == 2 && v.err.contains("group.ttl: got \"3651d\", expected a duration ≤ 3650d"), "\(v.err)")
    }

    func runCLIValidate(_ text: String) -> (code: Int32, out: String, err: String) {
        let dir = ScenarioFixtures.tempDir("bounds")
        let file = dir.appendingPathComponent("b.json")
        try? Data(text.utf8).write(to: file)
        return runCLI(["validate", file.path])
    }
}
