import Foundation
import SimKernel
import GrouperModel
import Format
import Catalogs
import ScenarioFile
import Plan
import GrouperBinding

extension ResultSet {
    /// `runs.csv`: one row per run.
    /// Columns: run, point, replication, seed, one column per swept path (its value),
    /// one column per metric (name as in the catalog), checkers (`RunRecord.checkersCell`: `ok`
    /// only when every checker passed, required or not), fingerprint (16 hex digits).
    public var runsCSV: String {
        var rows = [["run", "point", "replication", "seed"] + sweptPaths + spec.metrics.map(\.rawValue) + ["checkers", "fingerprint"]]
        for r in records {
            let params = scenario.points[r.point].assignments.map { SweepPoint.text($0.value) }
            rows.append([String(r.index), String(r.point), String(r.replication), String(r.seed)] + params
                        + r.metrics.map { NumberFormat.fixed($0) } + [r.checkersCell, r.fingerprint.hex])
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
                rows.append([String(p)] + params + [name.rawValue, Self.unit(name), String(s.n), NumberFormat.fixed(s.mean)] + ci
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
        s += "Cells: mean ± half-width of the 95% confidence interval (Student t) across replications, means with 4 significant digits and half-widths to the mean's last decimal "
        s += "(times in ms where every point's mean is below 1 s); "
        s += "[low, high] where that interval is cut at the metric's range (counts and times ≥ 0, fractions ≤ 1); "
        s += "\"k of n runs\" for 0/1 metrics.\n\n"
        if anyCheckerFailed {
            s += "Checkers: per point, every checker that failed in some run (required or not: `require` decides only "
            s += "the exit code); \"none failed\" when all passed.\n\n"
        }
        let units = displayUnits, header = summaryHeader(units)
        s += "| " + header.joined(separator: " | ") + " |\n"
        s += "|" + header.map { _ in "---" }.joined(separator: "|") + "|\n"
        for p in scenario.points.indices {
            s += "| " + summaryRow(point: p, units).joined(separator: " | ") + " |\n"
        }
        let failures = checkerFailures
        if !failures.isEmpty {
            s += "\n## Checker failures\n\n"
            for (r, c) in failures {
                s += "- run \(r.index) (point \(r.point), replication \(r.replication), seed \(r.seed)): \(c.name) "
                    + "(\(c.kind.rawValue)\(c.required ? "" : ", not required")): \(c.detail)\n"
            }
        }
        return s
    }

    /// The summary table's header (summary.md and index.html): point, swept values, the
    /// precision columns with a target, every metric with its unit as shown (`displayUnits`),
    /// and `checkers` when some checker failed.
    func summaryHeader(_ units: [(unit: String, scale: Double)]) -> [String] {
        ["point"] + sweptPaths + precisionHeader + spec.metrics.indices.map { "\(spec.metrics[$0]) (\(units[$0].unit))" }
            + (anyCheckerFailed ? ["checkers"] : [])
    }

    /// How the summary table shows metric `m`: times in ms when every point's mean is below
    /// 1 s (the thesis's transfer times are milliseconds), other units as they are.
    var displayUnits: [(unit: String, scale: Double)] { spec.metrics.indices.map(displayUnit) }

    func displayUnit(metric m: Int) -> (unit: String, scale: Double) {
        let unit = Self.unit(spec.metrics[m])
        guard unit == MetricUnit.seconds.rawValue else { return (unit, 1) }
        let means = scenario.points.indices.map { summary(point: $0, metric: m).mean }.filter(\.isFinite)
        return !means.isEmpty && means.allSatisfy({ abs($0) < 1 }) ? ("ms", 1000) : (unit, 1)
    }

    /// One row of the summary table (summary.md and index.html), cells as text.
    func summaryRow(point p: Int, _ units: [(unit: String, scale: Double)]) -> [String] {
        [String(p)] + scenario.points[p].assignments.map { SweepPoint.text($0.value) } + precisionRow(point: p)
            + spec.metrics.indices.map { summary(point: p, metric: $0).cell(scale: units[$0].scale) }
            + (anyCheckerFailed ? [checkersSummary(point: p)] : [])
    }

    /// Whether a checker failed in some run, required or not (the summary then has a `checkers`
    /// column, so no row reads as success while a checker failed in it).
    var anyCheckerFailed: Bool { records.contains { r in r.checkers.contains { !$0.passed } } }

    /// The `checkers` cell of point `p`: each checker that failed in some of its runs, in the
    /// records' checker order, with in how many runs, its kind and whether it was required.
    func checkersSummary(point p: Int) -> String {
        let runs = records(point: p)
        var names: [String] = []
        var first: [String: CheckerVerdict] = [:], count: [String: Int] = [:]
        for r in runs {
            for c in r.checkers where !c.passed {
                if first[c.name] == nil { names.append(c.name); first[c.name] = c }
                count[c.name, default: 0] += 1
            }
        }
        guard !names.isEmpty else { return "none failed" }
        return names.map { n in
            let c = first[n]!
            return "\(n) failed in \(count[n]!) of \(Wording.count(runs.count, "run")) (\(c.kind.rawValue)\(c.required ? "" : ", not required"))"
        }.joined(separator: "; ")
    }

    /// Every failed checker verdict, required or not, in run order.
    var checkerFailures: [(run: RunRecord, verdict: CheckerVerdict)] {
        records.flatMap { r in r.checkers.filter { !$0.passed }.map { (r, $0) } }
    }

    package static func unit(_ metric: MetricName) -> String { MetricCatalog.metric(metric).unit }
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
