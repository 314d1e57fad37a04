import Foundation
import GrouperModel

/// The thesis timing experiments (Fig 6.1, Fig 6.2 a–c), built into the tool: `grouper-sim run
/// thesis-fig6-1` runs one by name, `grouper-sim reproduce` runs them all, and the tests need no
/// files. These texts are the source: `scenarios/thesis-*.json` are copies written with
/// `grouper-sim list NAME > scenarios/NAME.json` (a test checks them byte for byte). Each has a
/// `gf256` twin: the same text with `"sharing": "gf256"` and the name suffixed `-gf256`.
public enum ThesisScenarios {
    /// (name, JSON text) of the four csss257 scenarios, in figure order.
    public static var primary: [(name: String, text: String)] { experiments.map { ($0.name, $0.text) } }

    /// The gf256 twin of a primary scenario text.
    public static func gf256Twin(_ text: String) -> String {
        var t = text.replacingOccurrences(of: "\"sharing\": \"csss257\"", with: "\"sharing\": \"gf256\"")
        if let r = t.range(of: "\"name\": \"") , let end = t[r.upperBound...].firstIndex(of: "\"") {
            t.insert(contentsOf: "-gf256", at: end)
        }
        return t
    }

    /// Every scenario `reproduce` runs: the four primaries, then their gf256 twins.
    public static var all: [(name: String, text: String)] { builtins.map { ($0.name, $0.text) } }

    /// `all` with a one-line summary each, as `grouper-sim list` shows them.
    public static let builtins: [(name: String, summary: String, text: String)] =
        experiments.map { ($0.name, $0.summary, $0.text) }
        + experiments.map { ($0.name + "-gf256", $0.summary + ", gf256 twin", gf256Twin($0.text)) }

    static let experiments = [fig6_1, fig6_2a, fig6_2b, fig6_2c]

    static let fig6_1 = ThesisScenarioText(
        name: "thesis-fig6-1", summary: "Fig 6.1: a burst of N = 1…100 updates, f(2,3,3)",
        description: "Thesis Fig 6.1: f(2,3,3); device 1 sends a burst of N (1…100) updates of a 323-byte record at 1 s, device 2 receives them. Upload and download time split into data sync, secret sharing and network.",
        seed: 61, group: (k: 2, n: 3, s: 3),
        workload: #"{"writers": [1], "update": {"burst": 10, "at": "1s"}, "objects": 1000, "object_size": 323}"#,
        sweep: "[\(axis("workload.update.burst", [1] + Array(stride(from: 10, through: 100, by: 10))))]")

    static let fig6_2a = ThesisScenarioText(
        name: "thesis-fig6-2a", summary: "Fig 6.2a: one update, k = 3, n = s = 6…30",
        description: "Thesis Fig 6.2a: k = 3, n = s = 6, 9, …, 30; device 1 sends one 323-byte update, device 2 receives it.",
        seed: 62, group: (k: 3, n: 6, s: 6),
        sweep: "[{\"zip\": [\(axis("group.n", Array(stride(from: 6, through: 30, by: 3)))),\n"
            + String(repeating: " ", count: 21) + "\(axis("group.s", Array(stride(from: 6, through: 30, by: 3))))]}]")

    static let fig6_2b = ThesisScenarioText(
        name: "thesis-fig6-2b", summary: "Fig 6.2b: one update, n = s = 30, k = 3…27",
        description: "Thesis Fig 6.2b: n = s = 30, k = 3, 6, …, 27; device 1 sends one 323-byte update, device 2 receives it.",
        seed: 63, group: (k: 3, n: 30, s: 30),
        sweep: "[\(axis("group.k", Array(stride(from: 3, through: 27, by: 3))))]")

    static let fig6_2c = ThesisScenarioText(
        name: "thesis-fig6-2c", summary: "Fig 6.2c: one update, k = 20, n = 30, s = 20…30, 5 servers refuse",
        description: "Thesis Fig 6.2c: k = 20, n = 30, s = 20…30; servers 1, 7, 13, 19 and 25 refuse requests for the whole run, so 25 servers can hold shares. Device 1 sends one 323-byte update; device 2 receives it on the push or, when the upload failed (no push), on its next poll (every minute). Variant as-built: like the published client the thesis measured, the upload verdict waits for all n answers.",
        seed: 64, group: (k: 20, n: 30, s: 20),
        protocolJSON: #"{"variant": "as-built", "receive": {"policy": "push-and-poll", "poll_period": "1min"}, "confirm": {"policy": "never"}, "unsent_retry": "on-reconnect"}"#,
        faults: #"[{"kind": "refuse", "servers": [1, 7, 13, 19, 25], "window": {"start": "0s"}}]"#,
        sweep: "[\(axis("group.s", Array(20...30)))]", require: #"["no-phantom", "ttl"]"#)

    /// `{"path": P, "values": [v1, v2, …]}`.
    static func axis(_ path: String, _ values: [Int]) -> String {
        "{\"path\": \"\(path)\", \"values\": [\(values.map(String.init).joined(separator: ", "))]}"
    }
}

/// The text of one thesis timing scenario: what the four share (two devices, device 1 writes
/// 323-byte records, csss257, the thesis testbed profiles, the timing metrics) is written once
/// here; each figure gives only what differs. `text` is the exact JSON of the scenario.
struct ThesisScenarioText: Sendable {
    var name: String
    var summary: String
    var description: String
    var seed: Int
    var group: (k: Int, n: Int, s: Int)
    var workload = #"{"writers": [1], "update": {"burst": 1, "at": "1s"}, "object_size": 323}"#
    var protocolJSON = #"{"receive": {"policy": "push"}, "confirm": {"policy": "never"}}"#
    var faults: String?
    var sweep: String
    var require: String?

    static let profiles = "{\"device\": \"\(DeviceProfile.a5.name)\", \"network\": \"\(NetworkProfile.lab80211n.name)\", "
        + "\"server\": \"\(ServerProfile.tomcatMySQL.name)\"}"
    static let metrics = """
        ["upload_time", "upload_sync_time", "upload_sharing_time", "upload_network_time",
                      "download_time", "download_sync_time", "download_sharing_time", "download_network_time",
                      "updates_uploaded", "upload_failures", "messages_rebuilt"]
        """

    init(name: String, summary: String, description: String, seed: Int, group: (k: Int, n: Int, s: Int),
         workload: String? = nil, protocolJSON: String? = nil, faults: String? = nil, sweep: String, require: String? = nil) {
        self.name = name; self.summary = summary; self.description = description; self.seed = seed
        self.group = group; self.faults = faults; self.sweep = sweep; self.require = require
        if let workload { self.workload = workload }
        if let protocolJSON { self.protocolJSON = protocolJSON }
    }

    /// The scenario file: one top-level key a line (a value may wrap), in the thesis files' order.
    var text: String {
        var keys: [(String, String)] = [
            ("format", "1"), ("name", "\"\(name)\""), ("description", "\"\(description)\""), ("seed", "\(seed)"),
            ("replications", "3"), ("duration", "\"10min\""),
            ("group", "{\"devices\": 2, \"k\": \(group.k), \"n\": \(group.n), \"s\": \(group.s)}"),
            ("sharing", "\"csss257\""), ("protocol", protocolJSON), ("workload", workload),
        ]
        if let faults { keys.append(("faults", faults)) }
        keys += [("profiles", Self.profiles), ("sweep", sweep)]
        if let require { keys.append(("require", require)) }
        keys.append(("metrics", Self.metrics))
        return "{\n" + keys.map { "  \"\($0)\": \($1)" }.joined(separator: ",\n") + "\n}\n"
    }
}
