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

/// Names, fingerprints and (k, n, s) are typed values, checked once and carried everywhere
/// (issue #14, "Typed parameters").
@Suite struct TypedParameterTests {
    // MARK: Metric, series and checker names

    /// Each catalog lists every case of its enum exactly once, in the enum's order: a metric
    /// cannot be offered to scenario files without an engine computing it (the engines switch
    /// over the enum with no `default:`), nor computed without being offered.
    @Test func catalogsListEveryCaseOnceInOrder() {
        #expect(MetricCatalog.all.map(\.id) == MetricName.allCases)
        #expect(SeriesCatalog.all.map(\.id) == SeriesName.allCases)
        #expect(Set(MetricCatalog.all.map(\.name)).count == MetricCatalog.all.count)
        #expect(Set(MetricCatalog.defaults).count == MetricCatalog.defaults.count)
        #expect(MetricCatalog.all.allSatisfy { MetricCatalog.metric($0.id).name == $0.id.rawValue })
    }

    /// Units are an enum too: the printed unit reads back to its range; every count (objects and
    /// transfers included), time and size is bounded at 0.
    @Test func unitsImplyTheirRanges() {
        for u in MetricUnit.allCases { #expect(MetricRange.of(unit: u.rawValue) == u.range, "\(u)") }
        #expect(MetricRange.of(unit: "") == .unbounded)
        #expect(MetricCatalog.metric(.converged).measure.range == .binary)
        #expect(MetricCatalog.metric(.deliveryRatio).measure.range == .fraction)
        #expect(MetricCatalog.metric(.uploadTime).unit == "s" && MetricCatalog.metric(.uploadTime).measure.range == .nonNegative)
        #expect(MetricCatalog.metric(.transfersExpired).measure.range == .nonNegative)
        #expect(MetricCatalog.metric(.phantomObjects).measure.range == .nonNegative)
        #expect(MetricUnit.allCases.allSatisfy { $0.range != .unbounded })
    }

    static let smoke = """
        {"format": 1, "name": "typed", "duration": "3h", "seed": 4,
         "group": {"devices": 3, "k": 2, "n": 3, "s": 3, "ttl": "1h"},
         "workload": {"update": {"every": {"dist": "exponential", "mean": "10min"}}},
         "churn": {"online": "40min", "offline": "10min"},
         "require": ["no-phantom", "ttl"],
         "metrics": ["upload_time", "upload_sync_time", "upload_sharing_time", "upload_network_time",
                     "download_time", "download_sync_time", "download_sharing_time", "download_network_time",
                     "delivery_latency", "delivery_latency_p50", "delivery_latency_max",
                     "bytes_uploaded", "bytes_downloaded", "requests"]}
        """

    static func outcome(_ text: String, architecture: String? = nil) throws -> (RunOutcome, [String: Double]) {
        var t = text
        if let architecture { t = t.replacingOccurrences(of: "\"seed\": 4,", with: "\"seed\": 4, \"architecture\": \"\(architecture)\",") }
        let s = try ScenarioLoader.load(ScenarioSource(label: "typed.json", text: t))
        let o = try GrouperExecutor().execute(RunPlan(s).runs[0])
        var byName: [String: Double] = [:]
        for m in o.metrics { byName[m.name.rawValue] = m.value }
        return (o, byName)
    }

    /// Each timing, latency and traffic metric reads its own quantity: a total is the sum of
    /// its parts, upload and download differ, the median lies between 0 and the maximum.
    @Test func eachMetricComputesItsOwnQuantity() throws {
        let (_, m) = try Self.outcome(Self.smoke)
        for d in ["upload", "download"] {
            let parts = m["\(d)_sync_time"]! + m["\(d)_sharing_time"]! + m["\(d)_network_time"]!
            #expect(abs(m["\(d)_time"]! - parts) <= 1e-9 * max(1, parts), "\(d)")
            #expect(m["\(d)_network_time"]! > 0 && m["\(d)_sharing_time"]! > 0, "\(d)")
        }
        #expect(m["upload_time"]! != m["download_time"]!)
        #expect(m["delivery_latency_p50"]! > 0 && m["delivery_latency_p50"]! <= m["delivery_latency_max"]!)
        #expect(m["delivery_latency"]! <= m["delivery_latency_max"]!)
        #expect(m["bytes_uploaded"]! != m["bytes_downloaded"]! && m["requests"]! >= 1 && m["requests"]! < m["bytes_uploaded"]!)
    }

    /// Every run reports every checker by name, with its kind; `require` decides which can fail it.
    @Test func verdictsNameEveryCheckerWithItsKind() throws {
        for architecture in [nil, "central"] {
            let (o, _) = try Self.outcome(Self.smoke, architecture: architecture)
            #expect(o.checkers.map(\.name) == CheckerName.allCases.map(\.rawValue))
            #expect(o.checkers.map(\.kind) == CheckerName.allCases.map { $0.isLiveness ? .liveness : .safety })
        }
        let spec = try ScenarioLoader.load(ScenarioSource(label: "typed.json", text: Self.smoke)).base
        #expect(spec.require == [.noPhantom, .ttl])
        #expect(CheckerName.allCases.filter(\.isLiveness) == [.convergence, .delivery, .outbox])
        #expect(CentralSystem.checkers == [.convergence, .noPhantom])
    }

    // MARK: Fingerprints

    @Test func fingerprintsReadBackOnlyWhatHexWrites() {
        for v: UInt64 in [0, 1, 0xff, 0x0123_4567_89ab_cdef, .max] {
            let f = RunFingerprint(value: v)
            #expect(f.hex.count == 16 && f.hex == StableHash.hex(v) && "\(f)" == f.hex)
            #expect(RunFingerprint(hex: f.hex) == f)
        }
        for bad in ["", "ff", "00000000000000FF", "0x000000000000ff", "000000000000000g", "00000000000000ff0", "-0000000000000ff"] {
            #expect(RunFingerprint(hex: bad) == nil, "\(bad)")
        }
    }

    /// A run record carries a `RunFingerprint`: written as 16 hex digits, read back equal, and a
    /// record whose fingerprint is not that form is malformed.
    @Test func recordsCarryTheFingerprintType() throws {
        struct Bad: Error { let why: String }
        let r = RunRecord(index: 0, point: 0, replication: 0, seed: 7, metrics: [1.5], checkers: [],
                          fingerprint: RunFingerprint(value: 0xabc))
        let json = RecordJSON.encode(r)
        #expect(json["fingerprint"] == .string("0000000000000abc"))
        #expect(try RecordJSON.decode(json, bad: { Bad(why: $0) }) == r)
        guard case .object(var fields) = json else { Issue.record("not an object"); return }
        fields = fields.map { $0.0 == "fingerprint" ? ($0.0, .string("ABC")) : $0 }
        #expect(throws: Bad.self) { try RecordJSON.decode(.object(fields), bad: { Bad(why: $0) }) }
    }

    // MARK: (k, n, s)

    /// The sharing schemes' (k, n) checks are `ShareThreshold`'s rule: the same refusals, the
    /// same words.
    @Test(arguments: SharingSchemeKind.allCases)
    func splitAndJoinRefuseWhatTheThresholdRuleRefuses(kind: SharingSchemeKind) throws {
        let scheme = kind.makeScheme()
        for (k, n) in [(1, 1), (2, 3), (0, 3), (4, 3), (2, 256), (255, 255), (3, 0)] {
            var rng = Xoshiro256StarStar(seed: 1)
            let rule = ShareThreshold.sharingViolations(k: k, n: n)
            do {
                _ = try scheme.split([1, 2, 3], k: k, n: n, rng: &rng)
                #expect(rule.isEmpty, "split accepted f(\(k),\(n))")
            } catch {
                guard case .invalidParameters(k, n, let reason) = error else { Issue.record("\(error)"); continue }
                #expect(reason == rule.first?.message, "f(\(k),\(n))")
            }
        }
        #expect(ShareThreshold.sharingViolations(k: 4, n: 3).map(\.message) == ["got 4, expected k ≤ n (n = 3); the rule is 1 ≤ k ≤ n ≤ 255"])
        var rng = Xoshiro256StarStar(seed: 2)
        let shares = try scheme.split([1, 2, 3], k: 2, n: 3, rng: &rng).shares
        for k in [0, 256] {
            do { _ = try scheme.join(shares, k: k); Issue.record("join accepted k = \(k)") } catch {
                guard case .invalidParameters(k, 3, let reason) = error else { Issue.record("\(error)"); continue }
                #expect(reason == ShareThreshold.sharingViolations(k: k, n: 255).first?.message)
            }
        }
    }

    /// The server's group set-up refuses with the rule's own words.
    @Test func serverInitialiseQuotesTheRule() {
        var server = UntrustedServer(index: 0, rng: Xoshiro256StarStar(seed: 3))
        guard case .success(.masterKey) = server.register(groupID: "g", name: "g", ownerNode: "n", now: .zero) else {
            Issue.record("register"); return
        }
        let refused = server.initialise(0, k: 3, n: 3, s: 2, ttl: .hours(1))
        guard case .failure(.invalidParameters(let text)) = refused else { Issue.record("\(refused)"); return }
        #expect(text == ShareThreshold.violations(k: 3, n: 3, s: 2).first!.description)
        guard case .success = server.initialise(0, k: 2, n: 3, s: 2, ttl: .hours(1)) else { Issue.record("f(2,3,2)"); return }
    }
}
