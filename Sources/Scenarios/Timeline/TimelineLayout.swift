/// What a timeline page draws: the recording cut to a window, filtered, and capped. Items
/// beyond the caps are not dropped silently: they are counted into aggregates (one count per
/// lane and time bucket) and the page says how many were aggregated (`notes`).
public struct Timeline: Equatable, Sendable {
    public var recording: TimelineRecording
    public var from: Int64, to: Int64
    /// Why this window (the default is the first finding's story: `TimelineLayout.defaultWindow`).
    public var windowReason: String
    /// Lanes shown (indices into `recording.lanes`).
    public var lanes: [Int]
    public var bands: [TimelineBand]
    public var spans: [TimelineSpan]
    /// Sub-row of each span in its lane (spans that overlap in time get different rows).
    public var spanRows: [Int]
    public var arrows: [TimelineArrow]
    public var links: [TimelineLink]
    public var markers: [TimelineMarker]
    public var aggregates: [TimelineAggregate]
    public var notes: [String]
}

/// Items not drawn one by one: `count` of `what` on `lane` in [start, end).
public struct TimelineAggregate: Equatable, Sendable {
    public var lane: Int
    public var start: Int64, end: Int64
    public var what: String
    public var count: Int
}

/// Window, filters and caps (`grouper-sim timeline` options).
public struct TimelineOptions: Equatable, Sendable {
    /// Nanoseconds; nil: the default window.
    public var from: Int64?, to: Int64?
    /// Devices to show (0-based model indices); nil: all.
    public var devices: [Int]?
    /// Objects whose messages to show; nil: all.
    public var objects: [String]?
    /// At most this many arrows, spans and write markers drawn one by one.
    public var maxArrows = 2000, maxSpans = 2000, maxWrites = 400, maxBands = 2000
    /// Time buckets per lane for what does not fit.
    public var buckets = 120
    public init() {}
}

public enum TimelineLayout {
    /// The default window: without findings the whole run; with findings, from one TTL
    /// before the first moment an item concerns the first finding's messages to the end of
    /// the run (the checkers judge at the end), so the message's write, its shares' lives and
    /// the recovery attempts are in view.
    public static func defaultWindow(_ r: TimelineRecording) -> (from: Int64, to: Int64, reason: String, focus: Int64) {
        guard let f = r.markers.first(where: { $0.kind == .finding }) else {
            return (0, r.end, "the whole run (no checker finding)", 0)
        }
        let ids = Set(f.messageIDs)
        var first: Int64? = nil
        for a in r.arrows where a.messageIDs.contains(where: ids.contains) { first = min(first ?? a.sent, a.sent) }
        for s in r.spans where ids.contains(s.messageID) { first = min(first ?? s.start, s.start) }
        guard let first else { return (0, r.end, "the whole run (the first finding names no message drawn)", f.time) }
        let from = max(0, first - r.ttl)
        return (from, r.end, "from one TTL before the first finding's message appears to the end of the run", first)
    }

    public static func layout(_ r: TimelineRecording, _ o: TimelineOptions = TimelineOptions()) -> Timeline {
        let w = defaultWindow(r)
        let from = o.from ?? (o.to == nil ? w.from : 0), to = o.to ?? r.end
        let reason = o.from == nil && o.to == nil ? w.reason : "as asked (--from/--to)"
        let deviceSet = o.devices.map(Set.init), objectSet = o.objects.map(Set.init)
        func laneShown(_ l: Int) -> Bool {
            r.lanes[l].kind == .server || (deviceSet?.contains(r.lanes[l].index) ?? true)
        }
        func inWindow(_ a: Int64, _ b: Int64) -> Bool { b >= from && a <= to }
        func objectsMatch(_ objs: [String]) -> Bool { objectSet.map { s in objs.contains(where: s.contains) } ?? true }
        let lanes = r.lanes.indices.filter(laneShown)
        var bands = r.bands.filter { b in inWindow(b.start, b.end) && (b.lane.map(laneShown) ?? true) }
        var notes: [String] = []
        var aggregates: [TimelineAggregate] = []
        let findingIDs = Set(r.markers.filter { $0.kind == .finding }.flatMap(\.messageIDs))
        let focus = o.from == nil && o.to == nil ? w.focus : from
        func distance(_ t: Int64) -> Int64 { t >= focus ? t - focus : focus - t }

        // Bands: the settle period and those nearest the focus.
        if bands.count > o.maxBands {
            let order = bands.indices.sorted { (bands[$0].lane == nil ? 0 : 1, distance(bands[$0].start), $0)
                < (bands[$1].lane == nil ? 0 : 1, distance(bands[$1].start), $1) }
            let keep = Set(order.prefix(o.maxBands))
            notes.append("\(bands.count - o.maxBands) of \(bands.count) offline and outage periods in this window are not drawn (cap \(o.maxBands)).")
            bands = bands.indices.filter { keep.contains($0) }.map { bands[$0] }
        }

        // Arrows.
        var arrows = r.arrows.filter { a in
            inWindow(a.sent, a.answered ?? a.arrived) && laneShown(a.device)
                && (objectSet == nil || objectsMatch(a.objects))
        }
        let linked = Set(r.links.flatMap { [$0.from, $0.to] })
        func arrowRank(_ a: TimelineArrow) -> Int {
            if a.messageIDs.contains(where: findingIDs.contains) { return 0 }
            if a.outcome != .ok || linked.contains(a.id) { return 1 }
            return 2
        }
        let bucket = max(1, (to - from) / Int64(max(1, o.buckets)))
        func aggregate<T>(_ dropped: [T], what: String, lane: (T) -> Int, time: (T) -> Int64) {
            var counts: [Int: [Int64: Int]] = [:]
            for d in dropped {
                let b = max(0, (time(d) - from) / bucket)
                counts[lane(d), default: [:]][b, default: 0] += 1
            }
            for l in counts.keys.sorted() {
                for b in counts[l]!.keys.sorted() {
                    aggregates.append(TimelineAggregate(lane: l, start: from + b * bucket, end: from + (b + 1) * bucket,
                                                        what: what, count: counts[l]![b]!))
                }
            }
        }
        if arrows.count > o.maxArrows {
            let ordered = arrows.sorted { (arrowRank($0), distance($0.sent), $0.id) < (arrowRank($1), distance($1.sent), $1.id) }
            let kept = Set(ordered.prefix(o.maxArrows).map(\.id))
            let dropped = arrows.filter { !kept.contains($0.id) }
            aggregate(dropped, what: "requests", lane: { $0.device }, time: { $0.sent })
            notes.append("\(dropped.count) of \(arrows.count) requests in this window are not drawn one by one (cap \(o.maxArrows)): "
                         + "they are counted in grey bars on their device lanes. Narrow the window (--from/--to) or filter (--devices, --objects) to see them.")
            arrows = arrows.filter { kept.contains($0.id) }
        }
        let shownArrows = Set(arrows.map(\.id))

        // Spans.
        var spans = r.spans.filter { s in
            inWindow(s.start, s.end) && (objectSet == nil || objectsMatch([s.object]))
                && (deviceSet == nil || s.sender.map { deviceSet!.contains($0) } ?? true
                    || s.receiver.map { name in deviceSet!.contains { "D\($0 + 1)" == name } } ?? true)
        }
        if spans.count > o.maxSpans {
            func rank(_ s: TimelineSpan) -> Int { findingIDs.contains(s.messageID) ? 0 : 1 }
            let order = spans.indices.sorted { (rank(spans[$0]), distance(spans[$0].start), $0) < (rank(spans[$1]), distance(spans[$1].start), $1) }
            let keep = Set(order.prefix(o.maxSpans))
            let dropped = spans.indices.filter { !keep.contains($0) }.map { spans[$0] }
            aggregate(dropped, what: "shares stored", lane: { $0.lane }, time: { $0.start })
            notes.append("\(dropped.count) of \(spans.count) shares in this window are not drawn as spans (cap \(o.maxSpans)): "
                         + "they are counted in grey bars on their server lanes.")
            spans = spans.indices.filter { keep.contains($0) }.map { spans[$0] }
        }

        // Markers: every finding; writes up to the cap.
        let inMarkers = r.markers.filter { m in
            m.time >= from && m.time <= to && laneShown(m.lane) && (objectSet == nil || m.kind == .finding || objectsMatch([m.object]))
        }
        var markers = inMarkers.filter { $0.kind == .finding }
        let writes = inMarkers.filter { $0.kind == .write }
        if writes.count > o.maxWrites {
            let order = writes.indices.sorted { (distance(writes[$0].time), $0) < (distance(writes[$1].time), $1) }
            let keep = Set(order.prefix(o.maxWrites))
            aggregate(writes.indices.filter { !keep.contains($0) }.map { writes[$0] }, what: "writes", lane: { $0.lane }, time: { $0.time })
            notes.append("\(writes.count - o.maxWrites) of \(writes.count) writes in this window are counted, not drawn (cap \(o.maxWrites)).")
            markers += writes.indices.filter { keep.contains($0) }.map { writes[$0] }
        } else {
            markers += writes
        }
        markers.sort { ($0.time, $0.lane, $0.kind.rawValue) < ($1.time, $1.lane, $1.kind.rawValue) }
        let links = r.links.filter { shownArrows.contains($0.from) && shownArrows.contains($0.to) }
        aggregates.sort { ($0.lane, $0.start, $0.what) < ($1.lane, $1.start, $1.what) }
        return Timeline(recording: r, from: from, to: to, windowReason: reason, lanes: lanes, bands: bands, spans: spans,
                        spanRows: rows(spans),
                        arrows: arrows, links: links, markers: markers, aggregates: aggregates, notes: notes)
    }

    /// Greedy interval partitioning per lane, in start order: each span takes the lowest row
    /// free at its start.
    static func rows(_ spans: [TimelineSpan]) -> [Int] {
        var out = Array(repeating: 0, count: spans.count)
        var rowEnds: [Int: [Int64]] = [:]
        let order = spans.indices.sorted { (spans[$0].start, $0) < (spans[$1].start, $1) }
        for i in order {
            let s = spans[i]
            var ends = rowEnds[s.lane] ?? []
            if let r = ends.firstIndex(where: { $0 <= s.start }) { out[i] = r; ends[r] = s.end } else { out[i] = ends.count; ends.append(s.end) }
            rowEnds[s.lane] = ends
        }
        return out
    }
}
