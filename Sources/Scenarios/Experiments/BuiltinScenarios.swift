import Foundation
import Format
import ScenarioFile

/// Scenarios shipped inside the tool: `grouper-sim run NAME` runs one when no
/// file of that name exists. The examples are documented in docs/scenarios.md, the thesis
/// experiments (`ThesisScenarios`) in docs/reproduction.md.
public enum BuiltinScenarios {
    /// The examples, the recovery cases, then the thesis experiments and their gf256 twins:
    /// `grouper-sim list` order.
    public static let all: [(name: String, summary: String, text: String)] = [
        ("smoke", "3 devices, f(2,3,3), one hour of updates, no faults", smoke),
        ("churn-k-sweep", "10 devices with churn, a server outage and two servers withholding half their shares, k = 1…3 × variant", churnSweep),
        ("ttl-series", "6 devices with churn, TTL 30 min vs 2 h: shares on servers over time", ttlSeries),
    ] + recovery + hostile + architectures + largeFiles + resendHoles + ThesisScenarios.builtins

    public static func source(named name: String) -> ScenarioSource? {
        all.first(where: { $0.name == name }).map { ScenarioSource(label: "builtin:\($0.name)", text: $0.text) }
    }

    /// What a command-line argument names: the file at that path if one exists, else the
    /// built-in of that name. Neither is an issue naming the argument, with a did-you-mean
    /// among the built-in names.
    public static func resolve(_ argument: String) throws(ScenarioError) -> ScenarioSource {
        if !FileManager.default.fileExists(atPath: argument), let b = source(named: argument) { return b }
        do { return try ScenarioSource.read(path: argument) } catch {
            guard !FileManager.default.fileExists(atPath: argument) else { throw error }
            let hint = didYouMean(argument, among: all.map(\.name))
            throw ScenarioError(issues: [ScenarioIssue(file: argument, path: "", message:
                "no such file or built-in scenario\(hint); `grouper-sim list` names the built-ins")])
        }
    }

    static let smoke = """
    {
      "format": 1,
      "name": "smoke",
      "description": "Three devices exchange updates over f(2,3,3) for an hour.",
      "seed": 1,
      "replications": 3,
      "duration": "1h",
      "group": {"devices": 3, "k": 2, "n": 3, "s": 3, "ttl": "30min"},
      "workload": {"update": {"every": {"dist": "exponential", "mean": "5min"}, "stop": "45min"}},
      "metrics": ["converged", "messages_uploaded", "messages_rebuilt", "upload_time", "download_time"]
    }

    """

    static let churnSweep = """
    {
      "format": 1,
      "name": "churn-k-sweep",
      "description": "Devices go offline for hours at a time, server 2 refuses requests for a while and servers 3 and 4 leave half of the shares they hold out of their replies; k and the protocol variant are swept. A message is stored on 3 of the 4 servers, so the larger k, the more often a receiver finds fewer than k shares: re-uploads (thesis) and lost messages (no-recovery) grow with k. Churn stops 12 h before the end; only the safety checkers are required, since no-recovery is expected to lose messages.",
      "seed": 7,
      "replications": 5,
      "duration": "3d",
      "warmup": "1h",
      "group": {"devices": 10, "k": 2, "n": 4, "s": 3, "ttl": "1d"},
      "workload": {
        "update": {"every": {"dist": "exponential", "mean": "2h"}, "stop": "2d"},
        "object_size": {"dist": "uniform", "min": 200, "max": 400}
      },
      "churn": {"online": {"dist": "exponential", "mean": "8h"}, "offline": {"dist": "exponential", "mean": "6h"}},
      "faults": [{"kind": "refuse", "servers": [2], "window": {"start": "6h", "end": "18h"}},
                 {"kind": "withhold", "servers": "3-4", "fraction": 0.5}],
      "sweep": [
        {"path": "group.k", "values": [1, 2, 3]},
        {"path": "protocol.variant", "values": ["thesis", "no-recovery"]}
      ],
      "settle": "12h",
      "require": ["no-phantom", "ttl"],
      "metrics": ["converged", "delivery_ratio", "propagation_latency", "propagation_censored", "lost_messages", "reuploads",
                  "resends_uploaded"]
    }

    """

    static let ttlSeries = """
    {
      "format": 1,
      "name": "ttl-series",
      "description": "Updates for 4 h, then quiet; devices churn until 2 h before the end. The series show shares piling up on the servers and draining as the TTL sweeps delete them, and the re-uploads the short TTL costs.",
      "seed": 3,
      "replications": 4,
      "duration": "8h",
      "group": {"devices": 6, "k": 2, "n": 3, "s": 3, "ttl": "1h"},
      "workload": {"update": {"every": {"dist": "exponential", "mean": "10min"}, "stop": "4h"}},
      "churn": {"online": {"dist": "exponential", "mean": "2h"}, "offline": {"dist": "exponential", "mean": "1h"}},
      "settle": "2h",
      "sweep": [{"path": "group.ttl", "values": ["30min", "2h"]}],
      "metrics": ["converged", "messages_uploaded", "reuploads", "delivery_latency", "delivery_latency_p95"],
      "series": {"every": "10min", "metrics": ["shares_on_servers", "devices_online", "messages_uploaded", "reuploads"]}
    }

    """
}
