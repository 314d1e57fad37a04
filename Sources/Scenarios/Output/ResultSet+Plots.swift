import SimKernel

extension ResultSet {
    /// One plot per metric: the metric against the first swept path, one line per
    /// combination of the other axes, error bars = 95% CI. No sweep: no plots.
    public var plots: [(fileName: String, plot: SVGPlot)] {
        guard let first = spec.sweep.first, let xParam = first.parameters.first else { return [] }
        let xValues = xParam.values.map(Self.numeric)
        let numeric = xValues.allSatisfy { $0 != nil }
        let xTitle = xParam.path + (Self.isDuration(xParam.values) ? " (s)" : "")
        // Points are laid out with the first axis slowest: point = xi * inner + rest.
        let inner = scenario.points.count / first.count
        return spec.metrics.enumerated().map { m, name in
            let series = (0..<inner).map { rest -> SVGPlot.Series in
                let pts = (0..<first.count).map { xi -> (x: Double, y: Double, error: Double) in
                    let s = summary(point: xi * inner + rest, metric: m)
                    return (numeric ? xValues[xi]! : Double(xi), s.mean, s.ci95HalfWidth)
                }
                let others = scenario.points[rest].assignments.dropFirst(first.parameters.count)
                let label = others.isEmpty ? name : others.map { "\($0.path)=\(SweepPoint.text($0.value))" }.joined(separator: ", ")
                return SVGPlot.Series(label: label, points: pts)
            }
            let unit = Self.unit(name)
            let plot = SVGPlot(title: "\(spec.name): \(name)", xTitle: xTitle, yTitle: "\(name) (\(unit))",
                               series: series, xCategories: numeric ? nil : xParam.values.map(SweepPoint.text))
            return ("plot-\(name).svg", plot)
        }
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
