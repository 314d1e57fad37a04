import Format
/// A deterministic SVG figure of stacked bars in side-by-side panels sharing one y axis, as
/// the thesis draws Fig 6.1 and 6.2: one panel per direction (upload, download), one bar per
/// category (sweep point), each bar stacked from its parts bottom up, with an error bar on
/// the stack's top where the total varies between replications. Where the parts under the top
/// one are too small to read beside it (`detailRow`), a second row of panels draws them alone,
/// each panel on its own y axis.
public struct StackedBarFigure: Sendable {
    public struct Bar: Sendable {
        /// Part values (means) bottom up, in `parts` order; NaN: no bar.
        public var values: [Double]
        /// 95% interval of the bar's total; drawn only when `high > low`.
        public var low: Double, high: Double
        public var total: Double { values.reduce(0, +) }
        public init(values: [Double], low: Double, high: Double) { self.values = values; self.low = low; self.high = high }
    }
    public struct Panel: Sendable {
        public var title: String
        /// One bar per category.
        public var bars: [Bar]
        public init(title: String, bars: [Bar]) { self.title = title; self.bars = bars }
    }

    public var title: String
    public var xTitle: String
    public var yTitle: String
    public var categories: [String]
    /// Names of the stacked parts, bottom up (the legend).
    public var parts: [String]
    public var panels: [Panel]

    public init(title: String, xTitle: String, yTitle: String, categories: [String], parts: [String], panels: [Panel]) {
        self.title = title; self.xTitle = xTitle; self.yTitle = yTitle; self.categories = categories
        self.parts = parts; self.panels = panels
    }

    public static let partColors = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2"]
    /// The shortest error bar drawn, in pixels.
    static let minimumErrorBar = 1.0
    static let height = 460.0, plotTop = 80.0, plotBottom = 390.0, left = 80.0, gap = 80.0, right = 30.0
    /// The second row's plot area, and the figure's height with it.
    static let detailTop = 500.0, detailBottom = 660.0, detailHeight = 730.0
    /// The second row is drawn when, in some panel, the tallest stack of the parts under the
    /// top one is positive and under this share of the y axis.
    public static let detailBelow = 0.25

    /// Where things are drawn, for the figure and for tests that measure it.
    public struct Layout: Sendable {
        public var panelWidth: Double
        public var width: Double
        /// The y axis: value `yMax` at pixel `top`, 0 at pixel `bottom`.
        public var yMax: Double, top: Double, bottom: Double
        public var barWidth: Double
        /// x of the left edge of panel `p`'s plot area.
        public func panelLeft(_ p: Int) -> Double { StackedBarFigure.left + Double(p) * (panelWidth + StackedBarFigure.gap) }
        /// x of the centre of bar `i` of panel `p` among `count`.
        public func barCenter(panel p: Int, bar i: Int, of count: Int) -> Double {
            panelLeft(p) + panelWidth * (Double(i) + 0.5) / Double(count)
        }
        /// Pixels from the baseline for a value.
        public func pixels(_ v: Double) -> Double { v / yMax * (bottom - top) }
        /// The figure's height: taller with the second row.
        public var height: Double
    }

    /// The parts under the top one (all but the last), drawn alone in the second row when
    /// `detailRow`.
    public var detailParts: [Int] { Array(parts.indices.dropLast()) }

    /// The tallest stack of `detailParts` among panel `p`'s bars (0 without data).
    public func detailMax(panel p: Int) -> Double {
        panels[p].bars.map { b in detailParts.map { b.values[$0] }.reduce(0, +) }.filter(\.isFinite).max() ?? 0
    }

    /// Whether the second row is drawn: some panel's parts under the top one reach less than
    /// `detailBelow` of the y axis (and more than nothing).
    public var detailRow: Bool {
        guard parts.count > 1 else { return false }
        let yMax = yTicks.last!
        return panels.indices.contains { p in
            let m = detailMax(panel: p)
            return m > 0 && m < Self.detailBelow * yMax
        }
    }

    public var yTicks: [Double] {
        let tops = panels.flatMap(\.bars).flatMap { b in [b.total, b.high].filter(\.isFinite) }
        return SVGPlot.ticks(0, tops.max() ?? 1)
    }

    public var layout: Layout {
        let panelWidth = max(240, Double(categories.count) * 26 + 20)
        let width = Self.left + Double(panels.count) * panelWidth + Double(max(0, panels.count - 1)) * Self.gap + Self.right
        let slot = panelWidth / Double(max(1, categories.count))
        return Layout(panelWidth: panelWidth, width: width, yMax: yTicks.last!, top: Self.plotTop, bottom: Self.plotBottom,
                      barWidth: min(22, slot * 0.6), height: detailRow ? Self.detailHeight : Self.height)
    }

    /// The SVG document text.
    public func render() -> String {
        let l = layout
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(f(l.width))\" height=\"\(f(l.height))\" viewBox=\"0 0 \(f(l.width)) \(f(l.height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        s += "<text x=\"\(f(l.width / 2))\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">\(esc(title))</text>\n"
        s += legend(l)
        for p in panels.indices { s += panel(p, l) }
        var rows = [(l.top + l.bottom) / 2]
        if detailRow {
            for p in panels.indices { s += detailPanel(p, l) }
            rows.append((Self.detailTop + Self.detailBottom) / 2)
        }
        for cy in rows {
            s += "<text x=\"18\" y=\"\(f(cy))\" text-anchor=\"middle\" transform=\"rotate(-90 18 \(f(cy)))\">\(esc(yTitle))</text>\n"
        }
        return s + "</svg>\n"
    }

    private func legend(_ l: Layout) -> String {
        var s = "", x = Self.left
        for (i, name) in parts.enumerated() {
            s += "<rect x=\"\(f(x))\" y=\"36\" width=\"12\" height=\"12\" fill=\"\(Self.partColors[i % Self.partColors.count])\"/>"
            s += "<text x=\"\(f(x + 17))\" y=\"46\">\(esc(name))</text>\n"
            x += 30 + 7 * Double(name.count)
        }
        return s
    }

    private func panel(_ p: Int, _ l: Layout) -> String {
        let x0 = l.panelLeft(p), x1 = x0 + l.panelWidth
        let ticks = yTicks, step = ticks.count > 1 ? ticks[1] - ticks[0] : 1
        var s = "<text x=\"\(f((x0 + x1) / 2))\" y=\"\(f(l.top - 8))\" text-anchor=\"middle\" font-weight=\"bold\">\(esc(panels[p].title))</text>\n"
        for t in ticks {
            let y = l.bottom - l.pixels(t)
            s += "<line x1=\"\(f(x0 - 5))\" y1=\"\(f(y))\" x2=\"\(f(x1))\" y2=\"\(f(y))\" stroke=\"#ddd\"/>"
            s += "<text x=\"\(f(x0 - 8))\" y=\"\(f(y + 4))\" text-anchor=\"end\">\(esc(SVGPlot.tickText(t, step: step)))</text>\n"
        }
        let bars = panels[p].bars
        for (i, bar) in bars.enumerated() {
            let cx = l.barCenter(panel: p, bar: i, of: bars.count)
            s += "<text x=\"\(f(cx))\" y=\"\(f(l.bottom + 17))\" text-anchor=\"middle\" font-size=\"10\">\(esc(categories[i]))</text>\n"
            s += stack(bar, cx: cx, l)
        }
        s += "<g stroke=\"#000\" fill=\"none\"><line x1=\"\(f(x0))\" y1=\"\(f(l.bottom))\" x2=\"\(f(x1))\" y2=\"\(f(l.bottom))\"/>"
        s += "<line x1=\"\(f(x0))\" y1=\"\(f(l.bottom))\" x2=\"\(f(x0))\" y2=\"\(f(l.top))\"/></g>\n"
        s += "<text x=\"\(f((x0 + x1) / 2))\" y=\"\(f(Self.height - 30))\" text-anchor=\"middle\">\(esc(xTitle))</text>\n"
        return s
    }

    /// Panel `p`'s parts under the top one alone, on an axis of their own, below the panel:
    /// the same colours, no error bars (the interval is the whole stack's).
    private func detailPanel(_ p: Int, _ l: Layout) -> String {
        let x0 = l.panelLeft(p), x1 = x0 + l.panelWidth
        let ticks = SVGPlot.ticks(0, max(detailMax(panel: p), 0)), step = ticks[1] - ticks[0]
        var d = l
        d.top = Self.detailTop; d.bottom = Self.detailBottom; d.yMax = ticks.last!
        var s = "<text x=\"\(f((x0 + x1) / 2))\" y=\"\(f(d.top - 8))\" text-anchor=\"middle\" font-weight=\"bold\">"
            + "\(esc(panels[p].title)) without \(esc(parts.last!)) (own scale)</text>\n"
        for t in ticks {
            let y = d.bottom - d.pixels(t)
            s += "<line x1=\"\(f(x0 - 5))\" y1=\"\(f(y))\" x2=\"\(f(x1))\" y2=\"\(f(y))\" stroke=\"#ddd\"/>"
            s += "<text x=\"\(f(x0 - 8))\" y=\"\(f(y + 4))\" text-anchor=\"end\">\(esc(SVGPlot.tickText(t, step: step)))</text>\n"
        }
        let bars = panels[p].bars
        for (i, bar) in bars.enumerated() {
            let cx = d.barCenter(panel: p, bar: i, of: bars.count)
            s += "<text x=\"\(f(cx))\" y=\"\(f(d.bottom + 17))\" text-anchor=\"middle\" font-size=\"10\">\(esc(categories[i]))</text>\n"
            let lower = detailParts.map { bar.values[$0] }
            s += stack(.init(values: lower, low: .nan, high: .nan), cx: cx, d)
        }
        s += "<g stroke=\"#000\" fill=\"none\"><line x1=\"\(f(x0))\" y1=\"\(f(d.bottom))\" x2=\"\(f(x1))\" y2=\"\(f(d.bottom))\"/>"
        s += "<line x1=\"\(f(x0))\" y1=\"\(f(d.bottom))\" x2=\"\(f(x0))\" y2=\"\(f(d.top))\"/></g>\n"
        s += "<text x=\"\(f((x0 + x1) / 2))\" y=\"\(f(Self.detailHeight - 30))\" text-anchor=\"middle\">\(esc(xTitle))</text>\n"
        return s
    }

    /// One bar's parts bottom up (crisp edges, so pixel heights follow the values) and its error bar.
    private func stack(_ bar: Bar, cx: Double, _ l: Layout) -> String {
        guard bar.values.allSatisfy(\.isFinite) else {
            return "<text x=\"\(f(cx))\" y=\"\(f(l.bottom - 6))\" text-anchor=\"middle\" font-size=\"9\" fill=\"#888\">n/a</text>\n"
        }
        var s = "<g shape-rendering=\"crispEdges\">", base = 0.0
        for (j, v) in bar.values.enumerated() where v > 0 {
            let y0 = l.bottom - l.pixels(base + v), h = l.pixels(v)
            s += "<rect x=\"\(f(cx - l.barWidth / 2))\" y=\"\(f(y0))\" width=\"\(f(l.barWidth))\" height=\"\(f(h))\" fill=\"\(Self.partColors[j % Self.partColors.count])\"/>"
            base += v
        }
        s += "</g>\n"
        // No error bar where the spread does not show (under a pixel): caps on a line would
        // read as an interval that is not there.
        guard bar.low.isFinite, bar.high.isFinite, l.pixels(bar.high) - l.pixels(bar.low) >= Self.minimumErrorBar else { return s }
        let yl = l.bottom - l.pixels(bar.low), yh = l.bottom - l.pixels(bar.high), w = l.barWidth / 4
        s += "<g stroke=\"#000\"><line x1=\"\(f(cx))\" y1=\"\(f(yl))\" x2=\"\(f(cx))\" y2=\"\(f(yh))\"/>"
        s += "<line x1=\"\(f(cx - w))\" y1=\"\(f(yl))\" x2=\"\(f(cx + w))\" y2=\"\(f(yl))\"/>"
        s += "<line x1=\"\(f(cx - w))\" y1=\"\(f(yh))\" x2=\"\(f(cx + w))\" y2=\"\(f(yh))\"/></g>\n"
        return s
    }

    private func f(_ v: Double) -> String { NumberFormat.fixed(v, digits: 2) }
    private func esc(_ s: String) -> String { SVGPlot.escape(s) }
}
