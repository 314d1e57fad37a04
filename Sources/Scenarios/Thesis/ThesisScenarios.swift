import Foundation

/// The thesis timing experiments (Fig 6.1, Fig 6.2 a–c), shipped inside the tool so that
/// `grouper-sim reproduce` and the tests need no files. `scenarios/thesis-*.json` hold the
/// same bytes (a test checks it). Each has a `gf256` twin: the same file with
/// `"sharing": "gf256"` and the name suffixed `-gf256`.
public enum ThesisScenarios {
    /// (name, JSON text) of the four csss257 scenarios, in figure order.
    public static let primary: [(name: String, text: String)] = [
        ("thesis-fig6-1", fig6_1),
        ("thesis-fig6-2a", fig6_2a),
        ("thesis-fig6-2b", fig6_2b),
        ("thesis-fig6-2c", fig6_2c),
    ]

    /// The gf256 twin of a primary scenario text.
    public static func gf256Twin(_ text: String) -> String {
        var t = text.replacingOccurrences(of: "\"sharing\": \"csss257\"", with: "\"sharing\": \"gf256\"")
        if let r = t.range(of: "\"name\": \"") , let end = t[r.upperBound...].firstIndex(of: "\"") {
            t.insert(contentsOf: "-gf256", at: end)
        }
        return t
    }

    /// Every scenario `reproduce` runs: the four primaries, then their gf256 twins.
    public static var all: [(name: String, text: String)] {
        primary + primary.map { ($0.name + "-gf256", gf256Twin($0.text)) }
    }

    static let fig6_1 = """
    {
      "format": 1,
      "name": "thesis-fig6-1",
      "description": "Thesis Fig 6.1: f(2,3,3); device 1 sends a burst of N (1…100) updates of a 323-byte record at 1 s, device 2 receives them. Upload and download time split into data sync, secret sharing and network.",
      "seed": 61,
      "replications": 3,
      "duration": "10min",
      "group": {"devices": 2, "k": 2, "n": 3, "s": 3},
      "sharing": "csss257",
      "protocol": {"receive": {"policy": "push"}, "confirm": {"policy": "never"}},
      "workload": {"writers": [1], "update": {"burst": 10, "at": "1s"}, "objects": 1000, "object_size": 323},
      "profiles": {"device": "a5", "network": "lab-80211n", "server": "tomcat-mysql"},
      "sweep": [{"path": "workload.update.burst", "values": [1, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]}],
      "metrics": ["upload_time", "upload_sync_time", "upload_sharing_time", "upload_network_time",
                  "download_time", "download_sync_time", "download_sharing_time", "download_network_time",
                  "updates_uploaded", "upload_failures", "messages_rebuilt"]
    }

    """

    static let fig6_2a = """
    {
      "format": 1,
      "name": "thesis-fig6-2a",
      "description": "Thesis Fig 6.2a: k = 3, n = s = 6, 9, …, 30; device 1 sends one 323-byte update, device 2 receives it.",
      "seed": 62,
      "replications": 3,
      "duration": "10min",
      "group": {"devices": 2, "k": 3, "n": 6, "s": 6},
      "sharing": "csss257",
      "protocol": {"receive": {"policy": "push"}, "confirm": {"policy": "never"}},
      "workload": {"writers": [1], "update": {"burst": 1, "at": "1s"}, "object_size": 323},
      "profiles": {"device": "a5", "network": "lab-80211n", "server": "tomcat-mysql"},
      "sweep": [{"zip": [{"path": "group.n", "values": [6, 9, 12, 15, 18, 21, 24, 27, 30]},
                         {"path": "group.s", "values": [6, 9, 12, 15, 18, 21, 24, 27, 30]}]}],
      "metrics": ["upload_time", "upload_sync_time", "upload_sharing_time", "upload_network_time",
                  "download_time", "download_sync_time", "download_sharing_time", "download_network_time",
                  "updates_uploaded", "upload_failures", "messages_rebuilt"]
    }

    """

    static let fig6_2b = """
    {
      "format": 1,
      "name": "thesis-fig6-2b",
      "description": "Thesis Fig 6.2b: n = s = 30, k = 3, 6, …, 27; device 1 sends one 323-byte update, device 2 receives it.",
      "seed": 63,
      "replications": 3,
      "duration": "10min",
      "group": {"devices": 2, "k": 3, "n": 30, "s": 30},
      "sharing": "csss257",
      "protocol": {"receive": {"policy": "push"}, "confirm": {"policy": "never"}},
      "workload": {"writers": [1], "update": {"burst": 1, "at": "1s"}, "object_size": 323},
      "profiles": {"device": "a5", "network": "lab-80211n", "server": "tomcat-mysql"},
      "sweep": [{"path": "group.k", "values": [3, 6, 9, 12, 15, 18, 21, 24, 27]}],
      "metrics": ["upload_time", "upload_sync_time", "upload_sharing_time", "upload_network_time",
                  "download_time", "download_sync_time", "download_sharing_time", "download_network_time",
                  "updates_uploaded", "upload_failures", "messages_rebuilt"]
    }

    """

    static let fig6_2c = """
    {
      "format": 1,
      "name": "thesis-fig6-2c",
      "description": "Thesis Fig 6.2c: k = 20, n = 30, s = 20…30; servers 1, 7, 13, 19 and 25 refuse requests for the whole run, so 25 servers can hold shares. Device 1 sends one 323-byte update; device 2 receives it on the push or, when the upload failed (no push), on its next poll (every minute). Variant as-built: like the published client the thesis measured, the upload verdict waits for all n answers.",
      "seed": 64,
      "replications": 3,
      "duration": "10min",
      "group": {"devices": 2, "k": 20, "n": 30, "s": 20},
      "sharing": "csss257",
      "protocol": {"variant": "as-built", "receive": {"policy": "push-and-poll", "poll_period": "1min"}, "confirm": {"policy": "never"}, "unsent_retry": "on-reconnect"},
      "workload": {"writers": [1], "update": {"burst": 1, "at": "1s"}, "object_size": 323},
      "faults": [{"kind": "refuse", "servers": [1, 7, 13, 19, 25], "window": {"start": "0s"}}],
      "profiles": {"device": "a5", "network": "lab-80211n", "server": "tomcat-mysql"},
      "sweep": [{"path": "group.s", "values": [20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30]}],
      "require": ["no-phantom", "ttl"],
      "metrics": ["upload_time", "upload_sync_time", "upload_sharing_time", "upload_network_time",
                  "download_time", "download_sync_time", "download_sharing_time", "download_network_time",
                  "updates_uploaded", "upload_failures", "messages_rebuilt"]
    }

    """
}
