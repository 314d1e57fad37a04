import Foundation
import Format
import ScenarioFile

/// Names a person reads in plot titles and legends for swept paths: what a parameter is
/// ("servers n", "the keep fault's servers"), not where it sits in the file.
extension ResultSet {
    /// Words for the paths scenarios sweep most; other paths are named by `axisName`'s rules.
    static let pathNames: [String: String] = [
        "group.k": "k", "group.n": "servers n", "group.s": "servers per message s", "group.devices": "devices",
        "group.ttl": "TTL", "group.sweep_period": "sweep period", "protocol.variant": "protocol variant",
        "protocol.rebuild": "rebuild policy", "architecture": "architecture", "sharing": "sharing scheme",
        "workload.update.burst": "messages N", "workload.object_size": "object size (bytes)",
        "workload.update.every": "update interval", "workload.update.every.mean": "mean update interval",
        "churn.online.mean": "mean online time", "churn.offline.mean": "mean offline time",
        "settle": "settle time", "duration": "duration", "device_store": "device store",
    ]

    /// What swept `path` is: a known path's words; `faults[I].X` as "the K fault's X" (K its
    /// `name` or `kind` in the scenario file); any other path as written.
    func axisName(_ path: String) -> String {
        if let known = Self.pathNames[path] { return known }
        if path.hasPrefix("faults["), let close = path.firstIndex(of: "]"),
           let i = Int(path[path.index(path.startIndex, offsetBy: 7)..<close]) {
            let rest = path[path.index(after: close)...].drop { $0 == "." }
            let fault = scenarioTree?["faults"].flatMap { f -> JSONValue? in
                if case .array(let a) = f, a.indices.contains(i) { return a[i] } else { return nil }
            }
            let label = [fault?["name"], fault?["kind"]].compactMap { v -> String? in
                if case .string(let s)? = v { return s } else { return nil }
            }.first
            let what = rest.isEmpty ? "settings" : rest.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: ".", with: " ")
            return label.map { "the \($0) fault's \(what)" } ?? path
        }
        return path
    }

    /// A legend entry for one sweep value: "k = 2", "the keep fault's servers = all".
    func assignmentLabel(_ path: String, _ value: JSONValue) -> String {
        "\(axisName(path)) = \(SweepPoint.text(value))"
    }

    /// The scenario file as parsed (nil only if it no longer parses, which loading rules out).
    var scenarioTree: JSONValue? { try? JSONParser.parse(bytes: scenario.source.bytes) }
}
