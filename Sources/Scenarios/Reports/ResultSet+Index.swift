import GrouperBinding
/// `index.html` of a results folder: the scenario, the summary table and every figure, in one
/// file that needs no network and no other file (the SVGs are inlined).
extension ResultSet {
    /// The page, from the files written before it (their SVGs are inlined in order).
    func indexHTML(files: [(name: String, contents: String)]) -> String {
        let e = SVGPlot.escape
        var s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>\(e(spec.name))</title>\n"
        s += "<style>body{font-family:sans-serif;margin:2em;max-width:1200px}table{border-collapse:collapse;font-size:13px}"
        // A wide table scrolls in its own box instead of widening the page; a cell never breaks
        // inside "mean ± half-width".
        s += "td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}td{white-space:nowrap}th{background:#f4f4f4}"
        s += ".table{overflow-x:auto;max-width:100%}svg{max-width:100%;height:auto}"
        s += "pre{background:#f8f8f8;padding:1em;overflow:auto;font-size:12px}figure{margin:1em 0}</style>\n</head>\n<body>\n"
        s += "<h1>\(e(spec.name))</h1>\n"
        if !spec.description.isEmpty { s += "<p>\(e(spec.description))</p>\n" }
        s += "<p>Engine: \(e(engine.rawValue)). \(e(replicationSentence))"
        s += "Cells: mean ± half-width of the 95% confidence interval, means with 4 significant digits and half-widths to the mean's last decimal (times in ms where every "
        s += "point's mean is below 1 s); [low, high] where it is cut at the "
        s += "metric's range; k of n runs for 0/1 metrics"
        s += anyCheckerFailed ? "; checkers: every checker that failed in some run of the point, required or not. " : ". "
        s += "Files: "
        s += files.map { "<a href=\"\(e($0.name))\">\(e($0.name))</a>" }.joined(separator: ", ") + ", manifest.json.</p>\n"
        s += "<h2>Summary</h2>\n" + summaryTableHTML
        let failures = checkerFailures
        if !failures.isEmpty {
            s += "<h2>Checker failures</h2>\n<ul>\n"
            let pages = Set(files.map(\.name))
            for (r, c) in failures {
                let page = Self.timelineFileName(point: r.point, replication: r.replication)
                s += "<li>run \(r.index) (point \(r.point), replication \(r.replication)): \(e(c.name)) "
                    + "(\(c.kind.rawValue)\(c.required ? "" : ", not required")): \(e(c.detail))"
                    + (pages.contains(page) ? " (<a href=\"\(e(page))\">timeline</a>)" : "") + "</li>\n"
            }
            s += "</ul>\n"
        }
        let figures = files.filter { $0.name.hasSuffix(".svg") }
        if !figures.isEmpty { s += "<h2>Figures</h2>\n" }
        for f in figures { s += "<figure>\n\(f.contents)<figcaption>\(e(f.name))</figcaption>\n</figure>\n" }
        s += "<h2>Scenario (\(e(scenario.source.fileName)))</h2>\n<pre>\(e(String(decoding: scenario.source.bytes, as: UTF8.self)))</pre>\n"
        return s + "</body>\n</html>\n"
    }

    /// The summary table of `summary.md` as HTML: the same columns and cells.
    var summaryTableHTML: String {
        let e = SVGPlot.escape
        let units = displayUnits
        var s = "<div class=\"table\"><table>\n<tr>" + summaryHeader(units).map { "<th>\(e($0))</th>" }.joined() + "</tr>\n"
        for p in scenario.points.indices {
            s += "<tr>" + summaryRow(point: p, units).map { "<td>\(e($0))</td>" }.joined() + "</tr>\n"
        }
        return s + "</table></div>\n"
    }
}
