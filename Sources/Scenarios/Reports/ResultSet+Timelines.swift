import SimKernel
import Plan
import Timelines

/// Timeline pages in a results folder: the first failing runs drawn as `grouper-sim timeline`
/// draws them (docs/timeline.md), linked from `index.html`.
extension ResultSet {
    /// At most this many failing runs get a page: each is a run of the model again, and a
    /// page is up to about 2 MB.
    public static let timelineLimit = 3

    /// The page's file name for a run.
    public static func timelineFileName(point: Int, replication: Int) -> String { "timeline-p\(point)-r\(replication).html" }

    /// `timeline-p<P>-r<R>.html` for the first `timelineLimit` runs, in run order, that failed
    /// a required checker on the protocol model (engine `grouper`, Grouper architecture): the
    /// page `grouper-sim timeline FILE --point P --replication R` writes for it (FILE by its
    /// name, as the manifest names it). A run the
    /// timeline cannot replay with the record's seed gets none.
    var timelinePages: [(name: String, contents: String)] {
        guard engine == .grouper else { return [] }
        var out: [(name: String, contents: String)] = []
        for r in records where !r.failedCheckers.isEmpty && out.count < Self.timelineLimit {
            let spec = scenario.pointSpecs[r.point]
            guard spec.architecture == .grouper,
                  RunPlan.runSeed(scenarioSeed: spec.seed, replication: r.replication) == r.seed,
                  let rec = try? TimelineRun.record(spec, point: r.point, replication: r.replication, runIndex: r.index) else { continue }
            // The file's name, not the path it was given by: the folder's bytes do not depend on it.
            let name = scenario.source.fileName
            let label = name.hasPrefix("builtin:") ? String(name.dropFirst(8)) : name
            let reps = r.replication >= spec.replications ? " --replications \(r.replication + 1)" : ""
            let command = "grouper-sim timeline \(label) --seed \(spec.seed)\(reps) --point \(r.point) --replication \(r.replication)"
            out.append((Self.timelineFileName(point: r.point, replication: r.replication),
                        TimelinePage.html(TimelineLayout.layout(rec), command: command)))
        }
        return out
    }
}
