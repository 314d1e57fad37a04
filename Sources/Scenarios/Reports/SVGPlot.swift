/// A small deterministic SVG line-plot writer: titled axes with units, a legend,
/// and vertical error bars. Coordinates are printed with fixed precision so the
/// same data always gives the same bytes.
public struct SVGPlot: Sendable {
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
    /// Shown in the middle of a plot with no data point.
    public var emptyNote = "no data: the metric is undefined in every run"

    public init(title: String, xTitle: String, yTitle: String, series: [Series], xCategories: [String]? = nil) {
        self.title = title; self.xTitle = xTitle; self.yTitle = yTitle; self.series = series; self.xCategories = xCategories
    }

    static let plotWidth = 440.0, height = 440.0
    static let left = 80.0, top = 40.0, bottom = 60.0
    /// Room right of the plot for the legend: as wide as the longest label needs (about 7 px
    /// per character at 12 px), at least 120 px.
    var right: Double { max(120, 60 + 7 * Double(series.map(\.label.count).max() ?? 0)) }
    var width: Double { Self.left + Self.plotWidth + right }
    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]

    /// The SVG document text.
    public func render() -> String {
        let (xr, yr) = ranges()
        let xt = xCategories.map { c in c.indices.map(Double.init) } ?? Self.ticks(xr.lo, xr.hi, integer: integerX)
        let yt = Self.ticks(yr.lo, yr.hi)
        let width = self.width
        let xs = Scale(lo: xt.first!, hi: xt.last!, a: Self.left, b: Self.left + Self.plotWidth)
        let ys = Scale(lo: yt.first!, hi: yt.last!, a: Self.height - Self.bottom, b: Self.top)
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(f(width))\" height=\"\(f(Self.height))\" viewBox=\"0 0 \(f(width)) \(f(Self.height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        s += "<text x=\"\(f(width / 2))\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">\(esc(title))</text>\n"
        s += axes(xs: xs, ys: ys, xt: xt, yt: yt)
        for (i, ser) in series.enumerated() { s += draw(ser, color: Self.palette[i % Self.palette.count], xs: xs, ys: ys) }
        if !series.contains(where: { $0.points.contains { $0.y.isFinite } }) {
            s += "<text x=\"\(f((xs.a + xs.b) / 2))\" y=\"\(f((ys.a + ys.b) / 2))\" text-anchor=\"middle\" fill=\"#888\">\(esc(emptyNote))</text>\n"
        }
        s += legend()
        return s + "</svg>\n"
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

    private func axes(xs: Scale, ys: Scale, xt: [Double], yt: [Double]) -> String {
        var s = "<g stroke=\"#000\" fill=\"none\">\n"
        s += "<line x1=\"\(f(xs.a))\" y1=\"\(f(ys.a))\" x2=\"\(f(xs.b))\" y2=\"\(f(ys.a))\"/>\n"
        s += "<line x1=\"\(f(xs.a))\" y1=\"\(f(ys.a))\" x2=\"\(f(xs.a))\" y2=\"\(f(ys.b))\"/>\n</g>\n"
        for (i, t) in xt.enumerated() {
            let x = xs(t)
            let label = xCategories?[i] ?? Self.tickText(t, step: xt.count > 1 ? xt[1] - xt[0] : 1)
            s += "<line x1=\"\(f(x))\" y1=\"\(f(ys.a))\" x2=\"\(f(x))\" y2=\"\(f(ys.a + 5))\" stroke=\"#000\"/>"
            s += "<text x=\"\(f(x))\" y=\"\(f(ys.a + 19))\" text-anchor=\"middle\">\(esc(label))</text>\n"
        }
        for t in yt {
            let y = ys(t)
            s += "<line x1=\"\(f(xs.a - 5))\" y1=\"\(f(y))\" x2=\"\(f(xs.b))\" y2=\"\(f(y))\" stroke=\"#ddd\"/>"
            s += "<text x=\"\(f(xs.a - 8))\" y=\"\(f(y + 4))\" text-anchor=\"end\">\(esc(Self.tickText(t, step: yt[1] - yt[0])))</text>\n"
        }
        s += "<text x=\"\(f((xs.a + xs.b) / 2))\" y=\"\(f(Self.height - 15))\" text-anchor=\"middle\">\(esc(xTitle))</text>\n"
        let cy = (ys.a + ys.b) / 2
        s += "<text x=\"18\" y=\"\(f(cy))\" text-anchor=\"middle\" transform=\"rotate(-90 18 \(f(cy)))\">\(esc(yTitle))</text>\n"
        return s
    }

    private func draw(_ ser: Series, color: String, xs: Scale, ys: Scale) -> String {
        let pts = ser.points.filter { $0.y.isFinite }.sorted { $0.x < $1.x }
        guard !pts.isEmpty else { return "" }
        var s = "<g stroke=\"\(color)\" fill=\"\(color)\">\n"
        s += "<polyline fill=\"none\" stroke-width=\"2\" points=\"" + pts.map { "\(f(xs($0.x))),\(f(ys($0.y)))" }.joined(separator: " ") + "\"/>\n"
        for p in pts {
            let x = xs(p.x), y = ys(p.y)
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
            s += "<line x1=\"\(f(x))\" y1=\"\(f(y))\" x2=\"\(f(x + 20))\" y2=\"\(f(y))\" stroke=\"\(c)\" stroke-width=\"2\"/>"
            s += "<text x=\"\(f(x + 26))\" y=\"\(f(y + 4))\">\(esc(ser.label))</text>\n"
        }
        return s
    }

    struct Scale {
        var lo: Double, hi: Double, a: Double, b: Double
        func callAsFunction(_ v: Double) -> Double { hi == lo ? (a + b) / 2 : a + (v - lo) / (hi - lo) * (b - a) }
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
    private func esc(_ s: String) -> String {
        var o = ""
        for c in s {
            switch c { case "&": o += "&amp;"; case "<": o += "&lt;"; case ">": o += "&gt;"; case "\"": o += "&quot;"; default: o.append(c) }
        }
        return o
    }
}
