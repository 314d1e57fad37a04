/// Recovery at scale: scenarios whose runs docs/protocol.md quotes.
extension BuiltinScenarios {
    static let recovery: [(name: String, summary: String, text: String)] = [
        ("recovery-stampede", "10 devices, 9 back at once after 10 h offline (TTL 1 h): one confirm period of settle", stampede),
        ("recovery-churn-100", "100 devices, f(3,5,4), TTL 2 h, heavy churn: one confirm period of settle", churn100),
    ]

    static let stampede = """
    {
      "format": 1,
      "name": "recovery-stampede",
      "description": "Device 1 writes every 30 min while devices 2-10 are offline for 10 h (10 TTLs); they come back together when the settle period starts and all ask device 1 for the same range. Settle is one confirm period (= TTL).",
      "seed": 17,
      "replications": 10,
      "duration": "11h",
      "settle": "1h",
      "group": {"devices": 10, "k": 2, "n": 3, "s": 3, "ttl": "1h"},
      "workload": {"writers": [1], "update": {"every": "30min"}},
      "churn": {"windows": [
        {"device": 2, "start": "0s", "end": "10h"}, {"device": 3, "start": "0s", "end": "10h"},
        {"device": 4, "start": "0s", "end": "10h"}, {"device": 5, "start": "0s", "end": "10h"},
        {"device": 6, "start": "0s", "end": "10h"}, {"device": 7, "start": "0s", "end": "10h"},
        {"device": 8, "start": "0s", "end": "10h"}, {"device": 9, "start": "0s", "end": "10h"},
        {"device": 10, "start": "0s", "end": "10h"}
      ]},
      "metrics": ["converged", "delivery_ratio", "lost_messages", "reuploads", "resend_requests", "delivery_latency_max"]
    }

    """

    static let churn100 = """
    {
      "format": 1,
      "name": "recovery-churn-100",
      "description": "100 devices over f(3,5,4) with a 2 h TTL all write while they churn (online 4 h, offline 6 h on average, 30 % start offline); settle is one confirm period (= TTL).",
      "seed": 100,
      "replications": 2,
      "duration": "50h",
      "settle": "2h",
      "group": {"devices": 100, "k": 3, "n": 5, "s": 4, "ttl": "2h"},
      "workload": {"update": {"every": {"dist": "exponential", "mean": "6h"}}, "objects": 200},
      "churn": {"online": {"dist": "exponential", "mean": "4h"}, "offline": {"dist": "exponential", "mean": "6h"},
                "start_offline": 0.3},
      "metrics": ["converged", "delivery_ratio", "lost_messages", "reuploads", "resend_requests", "updates_uploaded",
                  "delivery_latency_max"]
    }

    """
}
