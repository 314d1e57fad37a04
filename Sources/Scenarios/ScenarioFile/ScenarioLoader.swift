import Foundation
import Format
import Catalogs

/// The bytes of a scenario and the name errors and the manifest use for it.
public struct ScenarioSource: Equatable, Sendable {
    /// How errors name the file (the path as given on the command line).
    public var label: String
    public var bytes: [UInt8]
    public init(label: String, bytes: [UInt8]) { self.label = label; self.bytes = bytes }
    public init(label: String, text: String) { self.init(label: label, bytes: Array(text.utf8)) }

    /// The file name without folders (what the manifest records).
    public var fileName: String { String(label.split(separator: "/").last ?? Substring(label)) }

    /// Reads a file; a missing or unreadable file is a `ScenarioError`.
    public static func read(path: String) throws(ScenarioError) -> ScenarioSource {
        guard let data = FileManager.default.contents(atPath: path) else {
            let why = FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "no such file"
            throw ScenarioError(issues: [ScenarioIssue(file: path, path: "", message: why)])
        }
        return ScenarioSource(label: path, bytes: Array(data))
    }
}

/// A validated scenario: the base spec and one spec per sweep point.
public struct LoadedScenario: Sendable {
    public var source: ScenarioSource
    public var base: ScenarioSpec
    public var points: [SweepPoint]
    /// `pointSpecs[i]` is the scenario with point i's values applied.
    public var pointSpecs: [ScenarioSpec]

    /// Applies `--seed` / `--replications` / `--precision` to the base and every point.
    /// `--replications` replaces a precision target by a fixed count; `--precision` sets the
    /// target of the scenario's `precision` (or, without one, of all its metrics with the
    /// default bounds).
    /// `precision` without a precision block targets `precisionMetrics`, else the scenario's
    /// first metric (all of them would let a heavy-tailed or mostly-zero count decide the run
    /// time); with a block, `precisionMetrics` replaces the block's metrics. `precisionStop`
    /// replaces the target's `stop` (together or per point).
    public func overriding(seed: UInt64?, replications: Int?, precision: Double? = nil, precisionMetrics: [MetricName]? = nil,
                           precisionStop: PrecisionSpec.Stop? = nil) -> LoadedScenario {
        var copy = self
        func apply(_ s: inout ScenarioSpec) {
            if let seed { s.seed = seed }
            if let replications { s.replications = replications; s.precision = nil }
            if let precision {
                var p = s.precision ?? PrecisionSpec(metrics: Array(s.metrics.prefix(1)), relativeCI95: precision)
                p.relativeCI95 = precision
                s.precision = p
                s.replications = p.maxReplications
            }
            if let precisionMetrics, s.precision != nil { s.precision!.metrics = precisionMetrics }
            if let precisionStop, s.precision != nil { s.precision!.stop = precisionStop }
        }
        apply(&copy.base)
        for i in copy.pointSpecs.indices { apply(&copy.pointSpecs[i]) }
        return copy
    }
}

public enum ScenarioLoader {
    /// Parses and validates a scenario and every sweep point; throws all issues found.
    public static func load(_ source: ScenarioSource) throws(ScenarioError) -> LoadedScenario {
        let sink = IssueSink(file: source.label)
        let tree: JSONValue
        do { tree = try JSONParser.parse(bytes: source.bytes) } catch {
            throw ScenarioError(issues: [ScenarioIssue(file: source.label, path: "", message: "invalid JSON at \(error)")])
        }
        let reader = ScenarioReader(sink: sink)
        guard let base = reader.read(tree), sink.isEmpty else {
            // A typo in a sweep path is reported together with the file's other problems.
            let scratch = IssueSink(file: source.label)
            if let sweep = tree["sweep"], let axes = ScenarioReader(sink: scratch).readSweep(Node(value: sweep, path: "sweep", sink: scratch)),
               scratch.isEmpty {
                checkSweepPaths(axes, tree: tree, sink: sink)
            }
            throw ScenarioError(issues: sink.issues)
        }
        checkSweepPaths(base.sweep, tree: tree, sink: sink)
        checkOverlaps(base.sweep, sink: sink)
        guard sink.isEmpty else { throw ScenarioError(issues: sink.issues) }
        let points = SweepPoint.expand(base.sweep)
        var specs: [ScenarioSpec] = []
        specs.reserveCapacity(points.count)
        for p in points {
            sink.context = p.assignments.isEmpty ? "" : "in sweep point \(p.index) (\(p.label)): "
            if let t = patched(tree, p, sink: sink), let s = reader.read(t) { specs.append(s) }
        }
        guard sink.isEmpty else { throw ScenarioError(issues: sink.issues) }
        return LoadedScenario(source: source, base: base, points: points, pointSpecs: specs)
    }

    /// `tree` with the point's values applied; a value that cannot be placed
    /// (a later path crossing an earlier value) is a located issue, not a crash.
    static func patched(_ tree: JSONValue, _ point: SweepPoint, sink: IssueSink) -> JSONValue? {
        var t = tree
        for a in point.assignments {
            guard let path = JSONPath.parse(a.path) else { sink.add("sweep", "got \"\(a.path)\", expected a path"); return nil }
            do { t = try JSONPath.setting(t, path[...], to: a.value) } catch {
                sink.add("sweep", "got \"\(a.path)\", which cannot be set: \(error.message)")
                return nil
            }
        }
        return t
    }

    /// Two swept paths where one is a prefix of the other (`group` and
    /// `group.k`) would overwrite each other; say which entries clash.
    static func checkOverlaps(_ axes: [SweepAxis], sink: IssueSink) {
        var seen: [(path: [JSONPathComponent], text: String, where_: String)] = []
        for (i, axis) in axes.enumerated() {
            for (j, p) in axis.parameters.enumerated() {
                let where_ = axis.parameters.count > 1 ? "sweep[\(i)].zip[\(j)].path" : "sweep[\(i)].path"
                guard let path = JSONPath.parse(p.path) else { continue }
                for s in seen where s.path.starts(with: path) || path.starts(with: s.path) {
                    sink.add(where_, "got \"\(p.path)\", which overlaps \"\(s.text)\" at \(s.where_); expected disjoint sweep paths")
                }
                seen.append((path, p.path, where_))
            }
        }
    }

    /// Every sweep path must land on a place in the document (checked once, so
    /// the message points at the sweep entry rather than at every point).
    static func checkSweepPaths(_ axes: [SweepAxis], tree: JSONValue, sink: IssueSink) {
        for (i, axis) in axes.enumerated() {
            for (j, p) in axis.parameters.enumerated() {
                let where_ = axis.parameters.count > 1 ? "sweep[\(i)].zip[\(j)].path" : "sweep[\(i)].path"
                let t: JSONValue
                do { t = try JSONPath.setting(tree, JSONPath.parse(p.path)![...], to: p.values[0]) } catch {
                    sink.add(where_, "got \"\(p.path)\", expected a path into the scenario: \(error.message)")
                    continue
                }
                // A path that only creates an unknown key is a typo in the sweep, not in every point.
                let scratch = IssueSink(file: sink.file)
                _ = ScenarioReader(sink: scratch).read(t)
                if let unknown = scratch.issues.first(where: { $0.path == p.path && $0.message.hasPrefix("unknown key") }) {
                    sink.add(where_, "got \"\(p.path)\", expected a path to a field of the scenario: \(unknown.message)")
                }
            }
        }
    }
}
