/// Built-in scenarios with hostile servers, documented in docs/adversaries.md.
extension BuiltinScenarios {
    static let hostile: [(name: String, summary: String, text: String)] = [
        ("hostile-tamper", "f(3,7,5), 1–3 servers alter shares they serve; rebuild first-k / check / correct", hostileTamper),
        ("hostile-collusion", "f(3,7,5), a coalition of 2–4 servers, honest or keeping every share; TTL 30 min vs 2 h", hostileCollusion),
    ]

    static let hostileTamper = """
    {
      "format": 1,
      "name": "hostile-tamper",
      "description": "Seven servers, k = 3. Servers 1…t alter one byte of every share they serve (all of them the same byte of a message). Swept: the receivers' rebuild policy and t. Tampering never stops, so only the TTL checker is required: no-phantom reports first-k's corrupted deliveries, convergence reports what check could not deliver.",
      "seed": 11,
      "replications": 3,
      "duration": "4h",
      "group": {"devices": 4, "k": 3, "n": 7, "s": 5, "ttl": "1d"},
      "workload": {
        "update": {"every": {"dist": "exponential", "mean": "10min"}, "stop": "3h"},
        "object_size": {"dist": "uniform", "min": 300, "max": 600}
      },
      "faults": [{"kind": "tamper", "servers": "1", "fraction": 1}],
      "sweep": [
        {"path": "protocol.rebuild", "values": ["first-k", "check", "correct"]},
        {"path": "faults[0].servers", "values": ["1", "1-2", "1-3"]}
      ],
      "require": ["ttl"],
      "metrics": ["delivery_ratio", "corrupted_deliveries", "phantom_objects", "tamper_detected", "tamper_corrected",
                  "messages_unrecoverable", "messages_rebuilt"]
    }

    """

    static let hostileCollusion = """
    {
      "format": 1,
      "name": "hostile-collusion",
      "description": "Seven servers, k = 3. Servers 1…c pool what they store. Swept: c, which servers ignore the TTL (keep: all of them, or only server 7, outside every coalition, so the coalition itself is honest), and the TTL. With c < k the coalition learns nothing; with c ≥ k it can rebuild every message, for about a TTL each while it sweeps and until the end of the run when it keeps.",
      "seed": 12,
      "replications": 3,
      "duration": "6h",
      "group": {"devices": 4, "k": 3, "n": 7, "s": 5, "ttl": "30min"},
      "workload": {
        "update": {"every": {"dist": "exponential", "mean": "15min"}, "stop": "3h"},
        "object_size": {"dist": "uniform", "min": 300, "max": 600}
      },
      "faults": [
        {"kind": "collude", "name": "coalition", "servers": "1-2"},
        {"kind": "keep", "servers": "all"}
      ],
      "sweep": [
        {"path": "faults[0].servers", "values": ["1-2", "1-3", "1-4"]},
        {"path": "faults[1].servers", "values": ["7", "all"]},
        {"path": "group.ttl", "values": ["30min", "2h"]}
      ],
      "require": ["no-phantom", "ttl"],
      "metrics": ["messages_uploaded", "coalition_exposed_messages", "coalition_exposure_seconds",
                  "shares_on_servers_mean", "delivery_ratio"]
    }

    """
}
