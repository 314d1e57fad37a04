import SimKernel
import Catalogs
import Format

extension ResultSet {
    /// Every output file (name, contents) in a fixed order; `manifest.json` last.
    /// A pure function of the scenario bytes, overrides and run records.
    public var files: [(name: String, contents: String)] {
        var out: [(name: String, contents: String)] = [("runs.csv", runsCSV), ("summary.csv", summaryCSV), ("summary.md", summaryMarkdown)]
        if let figure = transferFigure { out.append((Self.transferFigureFile, figure.render())) }
        out += plots.map { ($0.fileName, $0.plot.render()) }
        if let csv = seriesCSV { out.append(("series.csv", csv)) }
        out += seriesPlots.map { ($0.fileName, $0.plot.render()) }
        out.append((Self.recordsFileName, RecordJSON.lines(records)))
        out.append(("resolved.json", resolvedJSON))
        out += timelinePages
        out.append(("index.html", indexHTML(files: out)))
        out.append(("manifest.json", manifest(files: out)))
        return out
    }

    /// `manifest.json`: tool and version, the model identity, scenario file name, size and
    /// FNV-1a 64 hash, seed and replications, the sweep points, every run's seed and
    /// fingerprint, each output file's hash, and a fingerprint of all runs.
    func manifest(files: [(name: String, contents: String)]) -> String {
        let src = scenario.source
        let points: [JSONValue] = scenario.points.map { p in
            .object([("index", .number(Double(p.index))),
                     ("values", .object(p.assignments.map { ($0.path, $0.value) }))] + manifestPrecision(p.index))
        }
        let runs: [JSONValue] = records.map { r in
            .object([("run", .number(Double(r.index))), ("point", .number(Double(r.point))),
                     ("replication", .number(Double(r.replication))), ("seed", Self.integer(r.seed)),
                     ("fingerprint", .string(r.fingerprint.hex)),
                     ("checkers", .string(r.failedCheckers.isEmpty ? "ok" : "failed:" + r.failedCheckers.map(\.name).joined(separator: ";")))])
        }
        let doc = JSONValue.object(([
            ("tool", .string("grouper-sim")), ("version", .string(Tool.version)), ("engine", .string(engine.rawValue)),
        ] + ModelIdentity.json(models) + [

            ("scenario", .object([("name", .string(spec.name)), ("file", .string(src.fileName)),
                                  ("bytes", .number(Double(src.bytes.count))),
                                  ("fnv1a64", .string(StableHash.hex(StableHash.fnv1a64(bytes: src.bytes))))])),
            ("seed", Self.integer(spec.seed)),
            spec.precision.map { ("precision", $0.json) } ?? ("replications", .number(Double(spec.replications))),
            ("metrics", .array(spec.metrics.map { .string($0.rawValue) })),
            ("points", .array(points)), ("runs", .array(runs)),
            ("files", .object(files.map { ($0.name, .string(StableHash.hex(StableHash.fnv1a64($0.contents)))) })),
            ("fingerprint", .string(fingerprint.hex)),
        ] as [(String, JSONValue)]))
        return JSONWriter.pretty(doc)
    }

    /// Every run's exact record, one JSON line each: what `run --add-replications` extends.
    public static let recordsFileName = "records.jsonl"

    /// A UInt64 as an exact JSON integer literal (not rounded through Double).
    package static func integer(_ v: UInt64) -> JSONValue { .number(Double(v), text: String(v)) }
}
