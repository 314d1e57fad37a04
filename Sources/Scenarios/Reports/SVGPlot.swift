import Foundation
import Format
import ScenarioFile

/// A small deterministic SVG line-plot writer: titled axes with units, a legend,
/// and vertical error bars. Coordinates are printed with fixed precision so the
/// same data always gives the same bytes.
public struct SVGPlot: Sendable {
    /// How a numeric axis maps values to positions.
    public typealias AxisScale = PlotAxisScale

    public struct Series: Sendable {
        public var label: String
        /// (x, y, error bar from low to high, NaN for none); NaN y values are skipped. Points
        /// are drawn in x order.
        public var points: [(x: Double, y: Double, low: Double, high: Double)]
        public init(label: String, points: [(x: Double, y: Double, low: Double, high: Double)]) {
            self.label = label; self.points = points
        }
    }

    public var title: String
    public var xTitle: String
    public var yTitle: String
    public var series: [Series]
    /// Labels for categorical x (x = 0, 1, 2…); nil for numeric x.
    public var xCategories: [String]?
    /// The y axis's fixed range (0…1 for fractions and 0/1 metrics); nil: from the data,
    /// starting at `yFloor` when that is below the data.
    public var yRange: (lo: Double, hi: Double)?
    public var yFloor: Double?
    /// Numeric x values are integers (a count parameter): ticks at integers only.
    public var integerX = false
    /// The y quantity is a count (messages, shares, bytes …): ticks at integers only.
    public var integerY = false
    /// The axis quantity is a duration in seconds: ticks in s, min, h or d (whichever fits the
    /// largest value, `DurationUnit.fitting`), each tick labelled with its unit.
    public var xDuration = false, yDuration = false
    /// Linear or log numeric x axis; `.auto` is log when every x is positive and the values
    /// span more than two decades (largest / smallest > 100), else linear.
    public var xScale: AxisScale = .auto
    /// The x axis as drawn: categorical x is never log.
    public var xIsLog: Bool {
        guard xCategories == nil else { return false }
        let xs = series.flatMap(\.points).filter { $0.y.isFinite }.map(\.x)
        switch xScale {
        case .linear: return false
        case .log: return xs.allSatisfy { $0 > 0 }
        case .auto:
            guard let lo = xs.min(), let hi = xs.max(), lo > 0 else { return false }
            return hi / lo > Self.logSpan
        }
    }
    /// The span (largest / smallest x) above which `.auto` draws a log axis: two decades.
    public static let logSpan = 100.0
    /// Shown in the middle of a plot with no data point.
    public var emptyNote = "no data: the metric is undefined in every run"

    public init(title: String, xTitle: String, yTitle: String, series: [Series], xCategories: [String]? = nil) {
        self.title = title; self.xTitle = xTitle; self.yTitle = yTitle; self.series = series; self.xCategories = xCategories
    }

    static let plotWidth = 440.0, height = 440.0
    static let left = 80.0, top = 40.0, bottom = 60.0
    /// Room right of the plot for the legend: as wide as the longest label needs (about 7 px
    /// per character at 12 px), at least 120 px.
    var right: Double { max(120, 60 + 7 * Double(series.map { $0.label.count + ($0.points.contains { $0.y.isFinite } ? 0 : Self.noDataMark.count) }.max() ?? 0)) }
    /// Appended to the legend label of a series with no defined point.
    static let noDataMark = " (no data)"
    var width: Double { Self.left + Self.plotWidth + right }
    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]

    /// The SVG document text.
    public func render() -> String {
        let (xr, yr) = ranges()
        let xu = xDuration ? DurationUnit.fitting(max(abs(xr.lo), abs(xr.hi))) : .none
        let yu = yDuration ? DurationUnit.fitting(max(abs(yr.lo), abs(yr.hi))) : .none
        let log = xIsLog
        let xt = xCategories.map { c in c.indices.map(Double.init) }
            ?? (log ? Self.logTicks(xr.lo, xr.hi) : Self.ticks(xr.lo / xu.seconds, xr.hi / xu.seconds, integer: integerX && xu == .none).map { $0 * xu.seconds })
        let yt = Self.ticks(yr.lo / yu.seconds, yr.hi / yu.seconds, integer: integerY && yu == .none).map { $0 * yu.seconds }
        let width = self.width
        let xs = Scale(lo: xt.first!, hi: xt.last!, a: Self.left + Self.pad, b: Self.left + Self.plotWidth - Self.pad, log: log)
        let ys = Scale(lo: yt.first!, hi: yt.last!, a: Self.height - Self.bottom, b: Self.top)
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(f(width))\" height=\"\(f(Self.height))\" viewBox=\"0 0 \(f(width)) \(f(Self.height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        s += "<text x=\"\(f(width / 2))\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">\(esc(title))</text>\n"
        s += axes(xs: xs, ys: ys, xt: xt, yt: yt, xu: xu, yu: yu)
        let drawn = series.indices.filter { series[$0].points.contains { $0.y.isFinite } }
        for (slot, i) in drawn.enumerated() {
            let shift = Self.dodge(slot, of: drawn.count)
            s += draw(series[i], color: Self.palette[i % Self.palette.count], xs: xs, ys: ys, shift: shift)
        }
        if drawn.isEmpty {
            s += "<text x=\"\(f((Self.left + Self.left + Self.plotWidth) / 2))\" y=\"\(f((ys.a + ys.b) / 2))\" text-anchor=\"middle\" fill=\"#888\">\(esc(emptyNote))</text>\n"
        }
        s += legend()
        return s + "</svg>\n"
    }

    /// Empty room (px) between the y axis and the first x value, and after the last.
    static let pad = 16.0

    /// Horizontal offset (px) of series `slot` of `count` drawn series, so that equal points and
    /// overlapping error bars of different series stay visible side by side.
    static func dodge(_ slot: Int, of count: Int) -> Double {
        guard count > 1 else { return 0 }
        return (Double(slot) - Double(count - 1) / 2) * min(6, 36 / Double(count))
    }

    private func ranges() -> (x: (lo: Double, hi: Double), y: (lo: Double, hi: Double)) {
        var xlo = Double.infinity, xhi = -Double.infinity, ylo = Double.infinity, yhi = -Double.infinity
        for p in series.flatMap(\.points) where p.y.isFinite {
            xlo = min(xlo, p.x); xhi = max(xhi, p.x)
            ylo = min(ylo, p.y, p.low.isFinite ? p.low : p.y); yhi = max(yhi, p.y, p.high.isFinite ? p.high : p.y)
        }
        if !xlo.isFinite { xlo = 0; xhi = 1 }
        if !ylo.isFinite { ylo = 0; yhi = 1 }
        if let floor = yFloor { ylo = min(ylo, floor) }  // counts and times start at zero
        if let r = yRange { return ((xlo, xhi), r) }
        return ((xlo, xhi), (ylo, yhi))
    }

    private func axes(xs: Scale, ys: Scale, xt: [Double], yt: [Double], xu: DurationUnit, yu: DurationUnit) -> String {
        let x0 = Self.left, x1 = Self.left + Self.plotWidth
        var s = "<g stroke=\"#000\" fill=\"none\">\n"
        s += "<line x1=\"\(f(x0))\" y1=\"\(f(ys.a))\" x2=\"\(f(x1))\" y2=\"\(f(ys.a))\"/>\n"
        s += "<line x1=\"\(f(x0))\" y1=\"\(f(ys.a))\" x2=\"\(f(x0))\" y2=\"\(f(ys.b))\"/>\n</g>\n"
        for (i, t) in xt.enumerated() {
            let x = xs(t)
            let label = xCategories?[i] ?? (xs.log ? Self.tickText(t, step: t)
                : xu.label(Self.tickText(t / xu.seconds, step: xt.count > 1 ? (xt[1] - xt[0]) / xu.seconds : 1)))
            s += "<line x1=\"\(f(x))\" y1=\"\(f(ys.a))\" x2=\"\(f(x))\" y2=\"\(f(ys.a + 5))\" stroke=\"#000\"/>"
            s += "<text x=\"\(f(x))\" y=\"\(f(ys.a + 19))\" text-anchor=\"middle\">\(esc(label))</text>\n"
        }
        for t in yt {
            let y = ys(t)
            let label = yu.label(Self.tickText(t / yu.seconds, step: (yt[1] - yt[0]) / yu.seconds))
            s += "<line x1=\"\(f(x0 - 5))\" y1=\"\(f(y))\" x2=\"\(f(x1))\" y2=\"\(f(y))\" stroke=\"#ddd\"/>"
            s += "<text x=\"\(f(x0 - 8))\" y=\"\(f(y + 4))\" text-anchor=\"end\">\(esc(label))</text>\n"
        }
        let xName = xTitle + (xs.log ? ", log scale" : "")
        s += "<text x=\"\(f((x0 + x1) / 2))\" y=\"\(f(Self.height - 15))\" text-anchor=\"middle\">\(esc(xName))</text>\n"
        let cy = (ys.a + ys.b) / 2
        s += "<text x=\"18\" y=\"\(f(cy))\" text-anchor=\"middle\" transform=\"rotate(-90 18 \(f(cy)))\">\(esc(yTitle))</text>\n"
        return s
    }

    /// One series: points with error bars, joined by a line in x order on a numeric x axis;
    /// points alone on a categorical one (its categories have no order in between).
    private func draw(_ ser: Series, color: String, xs: Scale, ys: Scale, shift: Double) -> String {
        let pts = ser.points.filter { $0.y.isFinite }.sorted { $0.x < $1.x }
        guard !pts.isEmpty else { return "" }
        var s = "<g stroke=\"\(color)\" fill=\"\(color)\">\n"
        if xCategories == nil {
            s += "<polyline fill=\"none\" stroke-width=\"2\" points=\"" + pts.map { "\(f(xs($0.x) + shift)),\(f(ys($0.y)))" }.joined(separator: " ") + "\"/>\n"
        }
        for p in pts {
            let x = xs(p.x) + shift, y = ys(p.y)
            if p.low.isFinite && p.high.isFinite && p.high > p.low {
                let y0 = ys(p.low), y1 = ys(p.high)
                s += "<line x1=\"\(f(x))\" y1=\"\(f(y0))\" x2=\"\(f(x))\" y2=\"\(f(y1))\"/>"
                s += "<line x1=\"\(f(x - 4))\" y1=\"\(f(y0))\" x2=\"\(f(x + 4))\" y2=\"\(f(y0))\"/>"
                s += "<line x1=\"\(f(x - 4))\" y1=\"\(f(y1))\" x2=\"\(f(x + 4))\" y2=\"\(f(y1))\"/>"
            }
            s += "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"3\"/>\n"
        }
        return s + "</g>\n"
    }

    private func legend() -> String {
        var s = ""
        let x = Self.left + Self.plotWidth + 15
        for (i, ser) in series.enumerated() {
            let y = Self.top + 10 + Double(i) * 18
            let c = Self.palette[i % Self.palette.count]
            // A series without any defined point keeps its place, greyed and marked.
            let empty = !ser.points.contains { $0.y.isFinite }
            if xCategories == nil || empty {
                s += "<line x1=\"\(f(x))\" y1=\"\(f(y))\" x2=\"\(f(x + 20))\" y2=\"\(f(y))\" stroke=\"\(empty ? "#bbb" : c)\" stroke-width=\"2\"/>"
            } else {
                s += "<circle cx=\"\(f(x + 10))\" cy=\"\(f(y))\" r=\"4\" fill=\"\(c)\"/>"
            }
            s += "<text x=\"\(f(x + 26))\" y=\"\(f(y + 4))\"\(empty ? " fill=\"#888\"" : "")>\(esc(ser.label + (empty ? Self.noDataMark : "")))</text>\n"
        }
        return s
    }

    struct Scale {
        var lo: Double, hi: Double, a: Double, b: Double
        var log = false
        func callAsFunction(_ v: Double) -> Double {
            guard hi != lo else { return (a + b) / 2 }
            if log { return a + (Self.log10(v) - Self.log10(lo)) / (Self.log10(hi) - Self.log10(lo)) * (b - a) }
            return a + (v - lo) / (hi - lo) * (b - a)
        }
        static func log10(_ v: Double) -> Double { Foundation.log10(v) }
    }

    /// Log-axis ticks: the powers of ten from the one at or below `lo` to the one at or above `hi`.
    static func logTicks(_ lo: Double, _ hi: Double) -> [Double] {
        var t = 1.0
        while t > lo { t /= 10 }
        while t * 10 <= lo { t *= 10 }
        var out = [t]
        while out.last! < hi * (1 - 1e-12) { out.append(out.last! * 10) }
        return out.count >= 2 ? out : [t, t * 10]
    }

    /// The unit a duration axis is labelled in.
    public enum DurationUnit: Sendable, Equatable {
        case none, s, min, h, d
        public var seconds: Double {
            switch self { case .none, .s: 1; case .min: 60; case .h: 3600; case .d: 86400 }
        }
        /// The largest unit of which `largest` (seconds) holds at least two: 2 min → min, 2 h → h, 2 d → d.
        public static func fitting(_ largest: Double) -> DurationUnit {
            largest >= 2 * 86400 ? .d : largest >= 2 * 3600 ? .h : largest >= 2 * 60 ? .min : .s
        }
        func label(_ number: String) -> String { self == .none ? number : "\(number) \(self)" }
    }

    /// "Nice" ticks (1, 2, 5 × 10^k) covering [lo, hi]; at least two; with `integer`, steps of
    /// at least 1 (integer-valued axes get integer ticks).
    static func ticks(_ lo: Double, _ hi: Double, integer: Bool = false) -> [Double] {
        var lo = lo, hi = hi
        if hi <= lo { hi = lo + (lo == 0 ? 1 : abs(lo) * 0.1) }
        let raw = (hi - lo) / 6
        var mag = 1.0
        while mag * 10 <= raw { mag *= 10 }
        while mag > raw { mag /= 10 }
        var step = [1.0, 2, 5, 10].map { $0 * mag }.first { $0 >= raw } ?? mag * 10
        if integer { step = max(1, step.rounded()) }
        lo = (lo / step).rounded(.down) * step
        hi = (hi / step).rounded(.up) * step
        var out: [Double] = []
        var k = 0.0
        while lo + k * step <= hi + step * 1e-9 { out.append(lo + k * step); k += 1 }
        return out.count >= 2 ? out : [lo, lo + step]
    }

    static func tickText(_ v: Double, step: Double) -> String {
        var digits = 0, s = step
        while s < 1 && digits < 9 && s > 0 { s *= 10; digits += 1 }
        return NumberFormat.fixed(abs(v) < step * 1e-9 ? 0 : v, digits: digits)
    }

    private func f(_ v: Double) -> String { NumberFormat.fixed(v, digits: 2) }
    private func esc(_ s: String) -> String { Self.escape(s) }
    /// Text for SVG and HTML: `&`, `<`, `>` and `"` as entities.
    static func escape(_ s: String) -> String {
        var o = ""
        for c in s {
            switch c { case "&": o += "&amp;"; case "<": o += "&lt;"; case ">": o += "&gt;"; case "\"": o += "&quot;"; default: o.append(c) }
        }
        return o
    }
}
