import Format
import Catalogs
import ScenarioFile
/// The thesis's way of drawing transfer times (Fig 6.1, 6.2): upload and download side by side,
/// each bar stacked into data sync, secret sharing and network.
extension ResultSet {
    /// The file name of the figure in a results folder.
    public static let transferFigureFile = "figure-transfer-times.svg"
    /// The metrics the figure stacks, per direction, bottom up.
    public static let transferParts: [(direction: String, metrics: [MetricName])] = [
        ("upload", [.uploadSyncTime, .uploadSharingTime, .uploadNetworkTime]),
        ("download", [.downloadSyncTime, .downloadSharingTime, .downloadNetworkTime]),
    ]

    /// The figure, for a scenario that reports all six part metrics; nil otherwise. One bar per
    /// sweep point (labelled by its values); the error bar is the 95% interval of the per-run
    /// sum of the three parts, drawn where that sum varies between replications.
    public var transferFigure: StackedBarFigure? {
        let indices = Self.transferParts.map { $0.metrics.compactMap { spec.metrics.firstIndex(of: $0) } }
        guard indices.allSatisfy({ $0.count == 3 }) else { return nil }
        // A zipped first axis is labelled by its first path alone (as the line plots do), when
        // that path's values tell the points apart.
        let first = spec.sweep.first?.parameters ?? []
        let unique = Set(first.first?.values.map { JSONWriter.compact($0) } ?? []).count == first.first?.values.count
        let partners = unique ? first.dropFirst().map(\.path) : []
        let categories = scenario.points.map { p in
            p.assignments.isEmpty ? "all runs"
                : p.assignments.filter { !partners.contains($0.path) }.map { SweepPoint.text($0.value) }.joined(separator: ", ")
        }
        let panels = zip(Self.transferParts, indices).map { part, idx in
            StackedBarFigure.Panel(title: part.direction, bars: scenario.points.indices.map { transferBar(point: $0, metrics: idx) })
        }
        let xTitle = sweptPaths.filter { !partners.contains($0) }.map(axisName).joined(separator: ", ")
            + (partners.isEmpty ? "" : " (zipped with \(partners.map(axisName).joined(separator: ", ")))")
        return StackedBarFigure(title: "\(spec.name): upload and download time by part\(engineMark)", xTitle: xTitle,
                                yTitle: "time (s)", categories: categories,
                                parts: ["data sync", "secret sharing", "network"], panels: panels)
    }

    func transferBar(point p: Int, metrics idx: [Int]) -> StackedBarFigure.Bar {
        let means = idx.map { summary(point: p, metric: $0).mean }
        let totals = records(point: p).map { r in idx.map { r.metrics[$0] }.reduce(0, +) }
        let total = SampleSummary(totals, range: .nonNegative)
        return StackedBarFigure.Bar(values: means, low: total.low, high: total.high)
    }
}
