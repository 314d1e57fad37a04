import SimKernel
import Format
import Catalogs
import ScenarioFile

extension ResultSet {
    /// One plot per metric: the metric against the first swept path, one line per
    /// combination of the other axes, error bars = 95% CI inside the metric's range. A
    /// first axis that zips several paths is one line against its first path (points in x
    /// order, the partners named in the x title); when that path repeats a value, its
    /// partners' values split the lines instead. No sweep: no plots.
    public var plots: [(fileName: String, plot: SVGPlot)] {
        guard let first = spec.sweep.first, let xParam = first.parameters.first else { return [] }
        let xValues = xParam.values.map(Self.numeric)
        let numeric = xValues.allSatisfy { $0 != nil }
        let partners = first.parameters.dropFirst().map(\.path)
        let repeats = Set(xParam.values.map { JSONWriter.compact($0) }).count < xParam.values.count
        let xDuration = numeric && Self.isDuration(xParam.values)
        var xTitle = axisName(xParam.path)
        if !partners.isEmpty && !repeats { xTitle += " (zipped with \(partners.map(axisName).joined(separator: ", ")))" }
        let lines = lineLayout(first: first, splitByPartners: repeats)
        return spec.metrics.enumerated().map { m, name in
            let series = lines.map { line -> SVGPlot.Series in
                let pts = line.points.map { (xi, p) -> (x: Double, y: Double, low: Double, high: Double) in
                    let s = summary(point: p, metric: m)
                    return (numeric ? xValues[xi]! : Double(xi), s.mean, s.low, s.high)
                }
                return SVGPlot.Series(label: line.label.isEmpty ? name.rawValue : line.label, points: pts)
            }
            let unit = Self.unit(name)
            var plot = SVGPlot(title: "\(spec.name): \(name)\(engineMark)", xTitle: xTitle,
                               yTitle: unit == MetricUnit.seconds.rawValue ? name.rawValue : "\(name) (\(unit))",
                               series: series, xCategories: numeric ? nil : xParam.values.map(SweepPoint.text))
            Self.fitAxes(&plot, unit: unit, xValues: numeric && !xDuration ? xValues.map { $0! } : [])
            plot.xDuration = xDuration
            plot.xScale = spec.plot.xScale
            plot.emptyNote = "no data: \(name) is undefined in every run"
            return ("plot-\(name).svg", plot)
        }
    }

    /// Appended to plot titles: empty for the protocol model.
    var engineMark: String { engine == .grouper ? "" : " [\(engine.rawValue) engine: numbers mean nothing]" }

    /// The lines of a sweep plot: for each, its label and its (x index, point) pairs.
    func lineLayout(first: SweepAxis, splitByPartners: Bool) -> [(label: String, points: [(Int, Int)])] {
        // Points are laid out with the first axis slowest: point = xi * inner + rest.
        let inner = scenario.points.count / first.count
        let skip = splitByPartners ? 1 : first.parameters.count
        var lines: [(label: String, points: [(Int, Int)])] = []
        // Lookup only; lines keep the order in which their first point appears.
        var index: [String: Int] = [:]
        for xi in 0..<first.count {
            for rest in 0..<inner {
                let p = xi * inner + rest
                let label = scenario.points[p].assignments.dropFirst(skip)
                    .map { assignmentLabel($0.path, $0.value) }.joined(separator: ", ")
                if let i = index[label] { lines[i].points.append((xi, p)) } else {
                    index[label] = lines.count
                    lines.append((label, [(xi, p)]))
                }
            }
        }
        return lines
    }

    /// Axes that match the metric: 0…1 for fractions and 0/1 metrics, from 0 for counts and
    /// times; times in s, min, h or d; integer ticks for counts and for an integer-valued
    /// parameter.
    static func fitAxes(_ plot: inout SVGPlot, unit: String, xValues: [Double]) {
        switch MetricRange.of(unit: unit) {
        case .binary, .fraction: plot.yRange = (0, 1)
        case .nonNegative: plot.yFloor = 0
        case .unbounded: break
        }
        let measure = MetricUnit(rawValue: unit)
        plot.yDuration = measure == .seconds
        plot.integerY = measure.map { $0.range == .nonNegative && $0 != .seconds } ?? false
        plot.integerX = !xValues.isEmpty && xValues.allSatisfy { $0 == $0.rounded() }
    }

    /// A number, or a duration string in seconds; nil for other values.
    static func numeric(_ v: JSONValue) -> Double? {
        switch v {
        case .number(let d, _): return d
        case .string(let s): return (try? SimDuration(parsing: s))?.seconds
        default: return nil
        }
    }

    static func isDuration(_ vs: [JSONValue]) -> Bool {
        vs.allSatisfy { if case .string(let s) = $0 { return (try? SimDuration(parsing: s)) != nil } else { return false } }
    }
}
