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
import GrouperModel

/// The live-state bookkeeping (incremental server lists, the receivers' list shortcut, indexed
/// partial messages, streaming timing means; `SystemConfig.compactState`) changes no run:
/// the same scenarios with it off give the same fingerprints, every catalog metric bit for
/// bit, the same checker verdicts and series. The scenarios churn devices, take servers down
/// (refuse and blackhole windows and processes), restart them with and without their data,
/// misbehave (lists that withhold shares for a while, stale re-puts, early deletes, a server
/// that keeps everything for a while), and run every protocol variant, so shares leave the
/// servers' lists from the front (TTL sweeps) and from the middle (re-puts, restarts), and
/// some lists are not the server's whole list.
@Suite(.tags(.slow)) struct CompactStateEquivalenceTests {
    static func scenario(_ variant: String, faults: String, seed: Int) -> String {
        """
        {
          "format": 1, "name": "equivalence-\(variant)", "seed": \(seed), "duration": "30h", "warmup": "3h",
          "group": {"devices": 5, "k": 2, "n": 4, "s": 3, "ttl": "4h"},
          "protocol": {"variant": "\(variant)"},
          "workload": {"update": {"every": {"dist": "exponential", "mean": "40min"}},
                       "delete": {"every": {"dist": "exponential", "mean": "6h"}}, "objects": 5},
          "churn": {"online": {"dist": "exponential", "mean": "3h"}, "offline": {"dist": "exponential", "mean": "2h"}},
          "faults": \(faults),
          "settle": "8h",
          "series": {"every": "3h", "metrics": ["shares_on_servers", "messages_rebuilt", "reuploads"]},
          "metrics": [\(MetricCatalog.all.map { "\"\($0.name)\"" }.joined(separator: ", "))]
        }
        """
    }

    static let faultSets = [
        "[]",
        """
        [{"kind": "refuse", "servers": [1], "window": {"start": "4h", "end": "12h"}},
         {"kind": "blackhole", "servers": [2], "up": {"dist": "exponential", "mean": "6h"}, "down": "1h"},
         {"kind": "restart", "servers": [3], "at": "14h", "keep_data": false},
         {"kind": "restart", "servers": [4], "at": "17h"}]
        """,
        """
        [{"kind": "refuse", "servers": [1, 2], "up": {"dist": "exponential", "mean": "4h"}, "down": "2h"}]
        """,
        """
        [{"kind": "withhold", "servers": [1], "mode": "list", "fraction": 0.5, "window": {"start": "3h", "end": "12h"}},
         {"kind": "stale", "servers": [2]},
         {"kind": "early-delete", "servers": [3], "ttl": "2h"},
         {"kind": "keep", "servers": [4], "window": {"start": "14h", "end": "20h"}}]
        """,
    ]

    static let variants = ["thesis", "as-built", "basic-multicast", "no-recovery"]

    static var cases: [(variant: String, faults: Int)] {
        variants.flatMap { v in faultSets.indices.map { (v, $0) } }
    }

    /// The cases run: by default every variant once and every fault set once (variant i with
    /// fault set i, 4 runs); every variant with every fault set (16 runs, several minutes) when
    /// the environment sets `GROUPER_SIM_FULL_EQUIVALENCE=1`. A case keeps its seed either way.
    static var selected: [Int] {
        if ProcessInfo.processInfo.environment["GROUPER_SIM_FULL_EQUIVALENCE"] == "1" { return Array(cases.indices) }
        return cases.indices.filter { variants.firstIndex(of: cases[$0].variant) == cases[$0].faults }
    }

    /// Servers that alter a share of some messages: receivers join sets of shares that differ
    /// from device to device (`JoinMemo` must join each set that differs on its own).
    static let tamperFaults = """
        [{"kind": "tamper", "servers": [1, 2], "fraction": 0.3},
         {"kind": "refuse", "servers": [3], "up": {"dist": "exponential", "mean": "5h"}, "down": "1h"}]
        """

    @Test func tamperedSharesGiveTheSameRuns() throws {
        let compact = try Self.compare(variant: "thesis", faults: Self.tamperFaults, seed: 41, label: "tamper")
        let corrupted = MetricCatalog.all.firstIndex { $0.name == "corrupted_deliveries" }!
        #expect(compact.metrics[corrupted] > 0, "some altered shares must be joined")
    }

    /// A coalition, a server that keeps everything, a restart that loses its data and chunked
    /// (costed) objects: the held-bytes and coalition observations read from the servers'
    /// `HoldingsTally` equal those of a pass over the shares after every event.
    static let holdingsFaults = """
        [{"kind": "collude", "servers": [1, 2]},
         {"kind": "keep", "servers": [2], "window": {"start": "5h", "end": "16h"}},
         {"kind": "restart", "servers": [1], "at": "12h", "keep_data": false},
         {"kind": "early-delete", "servers": [3], "ttl": "2h"}]
        """

    @Test func holdingsObservedFromTheTallyGiveTheSameRuns() throws {
        let chunked = Self.scenario("thesis", faults: Self.holdingsFaults, seed: 43)
            .replacingOccurrences(of: "\"objects\": 5}", with: "\"objects\": 5, \"object_size\": 3000000, \"chunking\": {\"chunk_size\": 1048576}}")
        #expect(chunked.contains("chunking"))
        let compact = try Self.compare(text: chunked, label: "holdings, chunked")
        let names = MetricCatalog.all.map(\.name)
        for metric in ["coalition_exposed_messages", "bytes_at_rest_max"] {
            let i = try #require(names.firstIndex(of: metric), "\(metric)")
            #expect(compact.metrics[i] > 0, "\(metric) must be observed")
        }
    }

    @Test(arguments: selected)
    func compactAndPlainBookkeepingGiveTheSameRuns(_ i: Int) throws {
        let (variant, f) = Self.cases[i]
        try Self.compare(variant: variant, faults: Self.faultSets[f], seed: 11 + i, label: "faults \(f)")
    }

    /// Runs the scenario with the compact bookkeeping and without; returns the compact run.
    @discardableResult
    static func compare(variant: String, faults: String, seed: Int, label f: String) throws -> RunRecord {
        try compare(text: Self.scenario(variant, faults: faults, seed: seed), label: "\(variant), \(f)")
    }

    @discardableResult
    static func compare(text: String, label: String) throws -> RunRecord {
        let (variant, f) = (label, "")
        let loaded = try ScenarioLoader.load(ScenarioSource(label: "equivalence.json", text: text))
        let run = RunPlan(loaded).runs[0]
        let compact = try ParallelRunner.record(run, executor: GrouperExecutor(compactState: true))
        let plain = try ParallelRunner.record(run, executor: GrouperExecutor(compactState: false))
        #expect(compact.fingerprint == plain.fingerprint, "\(variant), \(f)")
        for (k, name) in loaded.base.metrics.enumerated() {
            #expect(compact.metrics[k].bitPattern == plain.metrics[k].bitPattern,
                    "\(variant), \(f): \(name) \(compact.metrics[k]) vs \(plain.metrics[k])")
        }
        #expect(compact.checkers == plain.checkers)
        #expect(compact.series == plain.series)
        let rebuilt = loaded.base.metrics.firstIndex(of: "messages_rebuilt")!
        #expect(compact.metrics[rebuilt] > 50, "the scenario must exercise the receivers")
        return compact
    }
}
