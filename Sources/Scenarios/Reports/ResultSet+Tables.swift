import Foundation
import SimKernel

extension ResultSet {
    /// `runs.csv`: one row per run.
    /// Columns: run, point, replication, seed, one column per swept path (its value),
    /// one column per metric (name as in the catalog), checkers (`ok` or
    /// `failed:` + names joined by `;`), fingerprint (16 hex digits).
    public var runsCSV: String {
        var rows = [["run", "point", "replication", "seed"] + sweptPaths + spec.metrics + ["checkers", "fingerprint"]]
        for r in records {
            let params = scenario.points[r.point].assignments.map { SweepPoint.text($0.value) }
            let checks = r.failedCheckers.isEmpty ? "ok" : "failed:" + r.failedCheckers.map(\.name).joined(separator: ";")
            rows.append([String(r.index), String(r.point), String(r.replication), String(r.seed)] + params
                        + r.metrics.map { NumberFormat.fixed($0) } + [checks, r.fingerprint.hex])
        }
        return CSV.render(rows)
    }

    /// `summary.csv`: long format, one row per (sweep point, metric).
    /// Columns: point, swept paths, metric, unit, n, mean, stddev, ci95_half_width,
    /// ci95_low, ci95_high (the interval, inside the metric's range), ci95_method
    /// (student-t, student-t-clipped or wilson); interval columns empty when there is none.
    public var summaryCSV: String {
        var rows = [["point"] + sweptPaths + ["metric", "unit", "n", "mean", "stddev", "ci95_half_width", "ci95_low", "ci95_high", "ci95_method"]
                    + (spec.precision == nil ? [] : Self.precisionColumns)]
        for (p, point) in scenario.points.enumerated() {
            let params = point.assignments.map { SweepPoint.text($0.value) }
            for (m, name) in spec.metrics.enumerated() {
                let s = summary(point: p, metric: m)
                let opt = { (v: Double) in v.isNaN ? "" : NumberFormat.fixed(v) }
                let ci = [opt(s.stddev), opt(s.ci95HalfWidth), opt(s.low), opt(s.high), s.low.isNaN ? "" : s.method.rawValue]
                rows.append([String(p)] + params + [name, Self.unit(name), String(s.n), NumberFormat.fixed(s.mean)] + ci
                            + precisionCells(point: p, metric: m, s))
            }
        }
        return CSV.render(rows)
    }

    /// `summary.md`: a table with mean ± 95% CI half-width per point and metric.
    public var summaryMarkdown: String {
        var s = "# \(spec.name)\n\n"
        if !spec.description.isEmpty { s += spec.description + "\n\n" }
        s += engine == .grouper ? "Engine: grouper (the protocol model).\n\n"
            : "**Engine: \(engine.rawValue) — a deterministic stand-in for testing the pipeline; these numbers mean nothing.**\n\n"
        s += replicationSentence
        s += "Cells: mean ± half-width of the 95% confidence interval (Student t) across replications; "
        s += "[low, high] where that interval is cut at the metric's range (counts and times ≥ 0, fractions ≤ 1); "
        s += "\"k of n runs\" for 0/1 metrics.\n\n"
        let header = ["point"] + sweptPaths + precisionHeader + spec.metrics.map { "\($0) (\(Self.unit($0)))" }
        s += "| " + header.joined(separator: " | ") + " |\n"
        s += "|" + header.map { _ in "---" }.joined(separator: "|") + "|\n"
        for (p, point) in scenario.points.enumerated() {
            let cells = spec.metrics.indices.map { m -> String in
                summary(point: p, metric: m).cell()
            }
            s += "| " + ([String(p)] + point.assignments.map { SweepPoint.text($0.value) } + precisionRow(point: p) + cells).joined(separator: " | ") + " |\n"
        }
        let failed = failedRuns
        if !failed.isEmpty {
            s += "\n## Checker failures\n\n"
            for r in failed {
                for c in r.failedCheckers {
                    s += "- run \(r.index) (point \(r.point), replication \(r.replication), seed \(r.seed)): \(c.name) (\(c.kind.rawValue)): \(c.detail)\n"
                }
            }
        }
        return s
    }

    package static func unit(_ metric: String) -> String { MetricCatalog.metric(named: metric)?.unit ?? "" }
}

/// RFC 4180 CSV with `\n` line ends; fields with `,`, `"` or a line break are quoted.
enum CSV {
    static func render(_ rows: [[String]]) -> String {
        rows.map { $0.map(field).joined(separator: ",") }.joined(separator: "\n") + "\n"
    }

    static func field(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
