import SimKernel
import Format
import Catalogs
import ScenarioFile

/// The `series` outputs: `series.csv` and one time plot per series metric.
extension ResultSet {
    /// `series.csv`: long format, one row per (sweep point, sample time, series metric).
    /// Columns: point, swept paths, time_s, metric, unit, n, mean, ci95_half_width (Student t,
    /// before clipping; empty when n < 2), ci95_low, ci95_high (the interval inside the series'
    /// range, as the plots draw it; empty when n < 2). Means are over replications.
    public var seriesCSV: String? {
        guard let series = spec.series else { return nil }
        let times = series.times(duration: spec.duration)
        var rows = [["point"] + sweptPaths + ["time_s", "metric", "unit", "n", "mean", "ci95_half_width", "ci95_low", "ci95_high"]]
        for (p, point) in scenario.points.enumerated() {
            let params = point.assignments.map { SweepPoint.text($0.value) }
            for (t, time) in times.enumerated() {
                for (m, name) in series.metrics.enumerated() {
                    let s = seriesSummary(point: p, sample: t, metric: m)
                    rows.append([String(p)] + params + [NumberFormat.fixed(time.sinceStart.seconds), name.rawValue,
                                 Self.seriesUnit(name), String(s.n), NumberFormat.fixed(s.mean),
                                 Self.cell(s.ci95HalfWidth), Self.cell(s.low), Self.cell(s.high)])
                }
            }
        }
        return CSV.render(rows)
    }

    /// Summary over replications of series metric `m` at sample `t` of point `p`.
    func seriesSummary(point p: Int, sample t: Int, metric m: Int) -> SampleSummary {
        SampleSummary(records(point: p).map { $0.series[t][m] }, range: MetricRange.of(unit: Self.seriesUnit(spec.series!.metrics[m])))
    }

    /// One plot per series metric: value against time (hours when the run is longer than
    /// two hours, else minutes), one line per sweep point, error bars = 95% CI.
    public var seriesPlots: [(fileName: String, plot: SVGPlot)] {
        guard let series = spec.series else { return [] }
        let times = series.times(duration: spec.duration)
        let hours = spec.duration > .hours(2)
        let scale = hours ? 3600.0 : 60.0
        return series.metrics.enumerated().map { m, name in
            let lines = scenario.points.indices.map { p -> SVGPlot.Series in
                let label = scenario.points[p].assignments.isEmpty ? name.rawValue
                    : scenario.points[p].assignments.map { assignmentLabel($0.path, $0.value) }.joined(separator: ", ")
                let pts = times.indices.map { t -> (x: Double, y: Double, low: Double, high: Double) in
                    let s = seriesSummary(point: p, sample: t, metric: m)
                    return (times[t].sinceStart.seconds / scale, s.mean, s.low, s.high)
                }
                return SVGPlot.Series(label: label, points: pts)
            }
            let unit = Self.seriesUnit(name)
            var plot = SVGPlot(title: "\(spec.name): \(name) over time\(engineMark)", xTitle: "time (\(hours ? "h" : "min"))",
                               yTitle: unit == MetricUnit.seconds.rawValue ? name.rawValue : "\(name) (\(unit))", series: lines)
            Self.fitAxes(&plot, unit: unit, xValues: [])
            plot.xScale = .linear
            plot.emptyNote = "no data: \(name) is undefined in every run"
            return ("plot-series-\(name).svg", plot)
        }
    }

    /// A number cell, empty for NaN (no interval).
    static func cell(_ v: Double) -> String { v.isNaN ? "" : NumberFormat.fixed(v) }

    static func seriesUnit(_ name: SeriesName) -> String { SeriesCatalog.metric(name).unit }
}
