import Foundation
import SimKernel
import Format
import Catalogs
import ScenarioFile
import Plan
import Execution
import GrouperBinding

/// Which model made a result: the FNV-1a 64 of the exact records (every metric, checker
/// verdict and detail, fingerprint and series sample) of a fixed set of small reference runs
/// of the protocol and central models. It changes whenever a change of the code changes what
/// those runs do or report, and it is the same on every machine and for every build of the
/// same code (runs are deterministic, as `reproduce`'s byte-for-byte check relies on).
///
/// Why runs and not a source hash: SwiftPM without plugins cannot embed a hash of the
/// sources at build time, a hash read at run time would describe the checkout rather than
/// the binary, and a source hash would also change for edits that change no number (comments,
/// docs). The reference runs measure the binary itself. Their limit: a change that none of
/// them exercises goes unseen, so they cover every architecture, churn, both fault kinds of
/// servers going away, hostile servers (tamper, collusion, keep), recovery, chunked large
/// files with an encrypted store, both sharing schemes with the thesis's cost profiles, every
/// metric and every series. They take well under a second in a release build; the identity
/// is computed once per process and only by commands that record or compare it.
public enum ModelIdentity {
    /// For tests: an identity to use instead of the computed one (as if another build ran).
    public static let testVariable = "GROUPER_SIM_TEST_MODEL_IDENTITY"

    /// This build's identity (16 hex digits), computed on first use.
    public static var current: String { cached }

    private static let cached: String = {
        if let forced = ProcessInfo.processInfo.environment[testVariable], !forced.isEmpty { return forced }
        return compute()
    }()

    /// The option that lets `--resume`, `--add-replications` and `merge` combine runs of
    /// several model identities (the result then lists them all).
    public static let mixOption = "--allow-model-mix"

    /// How manifest.json, incomplete.json and shard.json record `models`: `"model": ID`, or
    /// for runs of several builds `"model": "mixed"`, `"models": [ID, …]` and
    /// `"models_mixed_by": "--allow-model-mix"`.
    public static func json(_ models: [String]) -> [(String, JSONValue)] {
        guard models.count != 1 else { return [("model", .string(models[0]))] }
        return [("model", .string(models.isEmpty ? "unknown" : "mixed")), ("models", .array(models.map { .string($0) })),
                ("models_mixed_by", .string(mixOption))]
    }

    /// The identities `root` records (empty when it records none: written before identities).
    public static func read(_ root: JSONValue) -> [String] {
        if case .string(let m)? = root["model"], m != "mixed", m != "unknown" { return [m] }
        guard case .array(let list)? = root["models"] else { return [] }
        return list.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
    }

    /// "model 1a2b…" or "models 1a2b…, 3c4d…" or "no model identity (an older grouper-sim)".
    public static func describe(_ models: [String]) -> String {
        models.isEmpty ? "no model identity (an older grouper-sim)"
            : (models.count == 1 ? "model " : "models ") + models.joined(separator: ", ")
    }

    /// The identity of the models `executor` runs.
    public static func compute(executor: any RunExecutor = GrouperExecutor()) -> String {
        var hash = StableHash.fnv1a64("grouper-sim model identity 1")
        for (name, text) in references {
            hash = StableHash.fnv1a64(bytes: Array(name.utf8), seed: hash)
            do {
                hash = StableHash.fnv1a64(bytes: Array(RecordJSON.lines(try records(text, name: name, executor: executor)).utf8), seed: hash)
            } catch {
                // A reference run that fails is behaviour too (and a bug `ModelIdentityTests` reports).
                hash = StableHash.fnv1a64(bytes: Array("failed: \(error)".utf8), seed: hash)
            }
        }
        return StableHash.hex(hash)
    }

    /// The records of one reference scenario's runs, in run order.
    static func records(_ text: String, name: String, executor: any RunExecutor) throws -> [RunRecord] {
        let scenario = try ScenarioLoader.load(ScenarioSource(label: "reference:\(name)", text: text))
        return try RunPlan(scenario).runs.map { try ParallelRunner.record($0, executor: executor) }
    }

    /// Every metric name, as a JSON list.
    static var allMetrics: String { "[" + MetricCatalog.all.map { "\"\($0.name)\"" }.joined(separator: ", ") + "]" }

    /// Every series name (without the per-TTL-window ones for the central server), as a JSON list.
    static func allSeries(central: Bool) -> String {
        "[" + SeriesCatalog.all.map(\.name).filter { !central || !$0.hasPrefix("ttl_window_") }.map { "\"\($0)\"" }
            .joined(separator: ", ") + "]"
    }

    /// The reference scenarios (small: a few simulated hours of a handful of devices).
    static var references: [(String, String)] {
        let churned = """
              "group": {"devices": 3, "k": 2, "n": 3, "s": 3, "ttl": "30min"},
              "workload": {"update": {"every": {"dist": "exponential", "mean": "30min"}, "stop": "100min"}, "objects": 3,
                           "object_size": {"dist": "uniform", "min": 200, "max": 400}},
              "churn": {"online": {"dist": "exponential", "mean": "45min"}, "offline": {"dist": "exponential", "mean": "20min"}},
              "faults": [{"kind": "refuse", "servers": [2], "window": {"start": "40min", "end": "70min"}},
                         {"kind": "restart", "servers": [1], "at": "80min", "keep_data": false}],
              "settle": "1h", "require": ["no-phantom", "ttl"],
            """
        return [
            ("protocol", """
            {"format": 1, "name": "ref-protocol", "seed": 101, "replications": 1, "duration": "3h", "warmup": "10min", "sharing": "gf256",
            \(churned)
              "sweep": [{"path": "protocol.variant", "values": ["thesis", "no-recovery"]}],
              "series": {"every": "1h", "metrics": \(allSeries(central: false))},
              "metrics": \(allMetrics)}
            """),
            ("central", """
            {"format": 1, "name": "ref-central", "seed": 102, "replications": 1, "duration": "3h", "warmup": "10min",
            \(churned)
              "architecture": "central",
              "series": {"every": "1h", "metrics": \(allSeries(central: true))},
              "metrics": \(allMetrics)}
            """),
            ("hostile", """
            {"format": 1, "name": "ref-hostile", "seed": 103, "replications": 1, "duration": "40min",
              "group": {"devices": 2, "k": 2, "n": 5, "s": 4, "ttl": "30min"}, "sharing": "gf256",
              "workload": {"update": {"every": {"dist": "exponential", "mean": "10min"}, "stop": "25min"},
                           "object_size": {"dist": "uniform", "min": 300, "max": 600}},
              "faults": [{"kind": "tamper", "servers": "1", "fraction": 1},
                         {"kind": "collude", "name": "coalition", "servers": "2-3"}, {"kind": "keep", "servers": "5"}],
              "sweep": [{"path": "protocol.rebuild", "values": ["first-k", "check", "correct"]}],
              "require": ["ttl"], "metrics": \(allMetrics)}
            """),
            ("recovery-large", """
            {"format": 1, "name": "ref-recovery-large", "seed": 104, "replications": 1, "duration": "3h", "settle": "1h",
              "group": {"devices": 3, "k": 2, "n": 3, "s": 3, "ttl": "1h"},
              "workload": {"writers": [1], "update": {"every": "30min"}, "object_size": {"dist": "uniform", "min": 1000000, "max": 2500000},
                           "chunking": {"chunk_size": 1048576}},
              "device_store": {"at_rest": "aes256-cbc", "kdf_iterations": 10},
              "churn": {"windows": [{"device": 2, "start": "0s", "end": "100min"}, {"device": 3, "start": "30min", "end": "1h"}]},
              "sweep": [{"path": "architecture", "values": ["grouper", "central"]}],
              "metrics": \(allMetrics)}
            """),
            ("timing", """
            {"format": 1, "name": "ref-timing", "seed": 105, "replications": 1, "duration": "10min",
              "group": {"devices": 2, "k": 2, "n": 3, "s": 3},
              "protocol": {"receive": {"policy": "push"}, "confirm": {"policy": "never"}},
              "workload": {"writers": [1], "update": {"burst": 5, "at": "1s"}, "objects": 100, "object_size": 323},
              "profiles": {"device": "a5", "network": "lab-80211n", "server": "tomcat-mysql"},
              "sweep": [{"path": "sharing", "values": ["csss257", "gf256"]}],
              "metrics": \(allMetrics)}
            """),
        ]
    }
}
