/// Built-in scenarios comparing architectures, documented in docs/architectures.md.
extension BuiltinScenarios {
    static let architectures: [(name: String, summary: String, text: String)] = [
        ("grouper-vs-central", "10 devices with churn and a data-losing restart of server 1: Grouper vs a central server", grouperVsCentral),
    ]

    static let grouperVsCentral = """
    {
      "format": 1,
      "name": "grouper-vs-central",
      "description": "Ten devices write every 2 h on average while they churn (online 8 h, offline 6 h on average); server 1 restarts without its data at 20 h. Swept: the architecture. Grouper spreads f(2,3,3) shares over three TTL servers (TTL 1 d); the central server keeps each whole file until every addressed receiver fetched it. Churn stops 12 h before the end; only the safety checkers are required, since the central server is expected to lose what the restart destroyed.",
      "seed": 21,
      "replications": 3,
      "duration": "2d",
      "warmup": "1h",
      "group": {"devices": 10, "k": 2, "n": 3, "s": 3, "ttl": "1d"},
      "workload": {
        "update": {"every": {"dist": "exponential", "mean": "2h"}},
        "object_size": {"dist": "uniform", "min": 200, "max": 400}
      },
      "churn": {"online": {"dist": "exponential", "mean": "8h"}, "offline": {"dist": "exponential", "mean": "6h"}},
      "faults": [{"kind": "restart", "servers": [1], "at": "20h", "keep_data": false}],
      "sweep": [{"path": "architecture", "values": ["grouper", "central"]}],
      "settle": "12h",
      "require": ["no-phantom", "ttl"],
      "metrics": ["converged", "delivery_ratio", "propagation_latency", "propagation_censored", "propagation_latency_max",
                  "lost_messages", "delivery_latency", "delivery_latency_p95",
                  "bytes_uploaded", "bytes_downloaded", "requests", "bytes_at_rest_mean", "bytes_at_rest_max",
                  "plaintext_exposed_messages", "exposure_seconds_mean", "transfers_lost_in_restart"]
    }

    """
}
