import SimKernel
import SimJSON

/// The timeline as one self-contained HTML page: the drawn items as a JSON object in a
/// `<script>` and a small script that draws them as SVG (no network, no external file or
/// font; opens from disk). Deterministic: the same timeline gives the same bytes.
public enum TimelinePage {
    /// In every page's `<head>`: how `TimelineRun.checkDestination` recognises its own files.
    public static let marker = "<meta name=\"generator\" content=\"grouper-sim timeline\">"
    /// The documented bound on a page's size (docs/timeline.md): the default caps
    /// (`TimelineOptions`) keep every page below it; a test checks it on a large run.
    public static let maxBytes = 2_000_000

    public static func html(_ t: Timeline, command: String = "") -> String {
        let r = t.recording
        let title = "\(r.scenario) — point \(r.point), replication \(r.replication)"
        let data = json(t, command: command).replacingOccurrences(of: "</", with: "<\\/")
        return """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        \(marker)
        <title>\(escape(title)) · timeline</title>
        <style>\(TimelineAssets.css)</style>
        </head><body>
        <header><h1>\(escape(title))</h1><div id="info"></div><div id="notes"></div></header>
        <div id="toolbar"></div>
        <div id="main"><div id="chart"><svg id="svg" xmlns="http://www.w3.org/2000/svg"></svg></div>
        <aside id="side"><h2>Findings</h2><ol id="findings"></ol><h2>Details</h2><div id="details">Hover over or click an item.</div>
        <h2>Legend</h2><div id="legend"></div></aside></div>
        <div id="tip"></div>
        <script id="data" type="application/json">\(data)</script>
        <script>\(TimelineAssets.script)</script>
        </body></html>

        """
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func q(_ s: String) -> String { JSONString.quoted(s) }
    static func arr(_ xs: [String]) -> String { "[" + xs.joined(separator: ",") + "]" }

    /// The page's data: messages once in a table, items referring to them by index.
    static func json(_ t: Timeline, command: String) -> String {
        let r = t.recording
        var msgIndex: [String: Int] = [:], msgs: [String] = []
        func m(_ id: String, _ type: String, _ sender: Int?, _ seq: Int, _ object: String) -> Int {
            if let i = msgIndex[id] { return i }
            msgIndex[id] = msgs.count
            msgs.append(arr([q(id), q(type), sender.map { "\($0)" } ?? "-1", "\(seq)", q(object)]))
            return msgs.count - 1
        }
        for s in t.spans { _ = m(s.messageID, s.type, s.sender, s.sequence, s.object) }
        var known: [String: (String, Int?, Int, String)] = [:]
        for s in r.spans where known[s.messageID] == nil { known[s.messageID] = (s.type, s.sender, s.sequence, s.object) }
        func mid(_ id: String) -> Int {
            let k = known[id]
            return m(id, k?.0 ?? "", k?.1, k?.2 ?? 0, k?.3 ?? "")
        }
        let lanes = t.lanes.map { l in arr(["\(l)", q(r.lanes[l].name), q(r.lanes[l].kind.rawValue)]) }
        let bands = t.bands.map { b in arr([q(b.kind.rawValue), b.lane.map { "\($0)" } ?? "-1", "\(b.start)", "\(b.end)", q(b.detail)]) }
        let spans = t.spans.indices.map { i -> String in
            let s = t.spans[i]
            return arr(["\(s.lane)", "\(mid(s.messageID))", "\(s.start)", "\(s.end)", q(s.endReason.rawValue),
                        q(s.receiver ?? ""), "\(s.shareID)", "\(t.spanRows[i])"])
        }
        let arrows = t.arrows.map { a in
            arr(["\(a.id)", "\(a.device)", "\(a.server)", q(a.endpoint.rawValue), q(a.type), q(a.outcome.rawValue),
                 "\(a.sent)", "\(a.arrived)", a.answered.map { "\($0)" } ?? "-1", arr(a.messageIDs.map { "\(mid($0))" }),
                 a.reupload ? "1" : "0", q(a.detail)])
        }
        let links = t.links.map { l in arr(["\(l.from)", "\(l.to)", q(l.detail)]) }
        let markers = t.markers.map { k in
            arr([q(k.kind.rawValue), "\(k.lane)", "\(k.time)", q(k.label), q(k.text), arr(k.messageIDs.map { "\(mid($0))" }),
                 q(k.severity), q(k.object)])
        }
        let aggs = t.aggregates.map { a in arr(["\(a.lane)", "\(a.start)", "\(a.end)", q(a.what), "\(a.count)"]) }
        let header = "\"scenario\":\(q(r.scenario)),\"point\":\(r.point),\"replication\":\(r.replication),\"seed\":\(q(String(r.seed))),"
            + "\"end\":\(r.end),\"from\":\(t.from),\"to\":\(t.to),\"sharing\":\(q(r.sharing)),\"ttl\":\(r.ttl),"
            + "\"window\":\(q(t.windowReason)),\"command\":\(q(command)),\"notes\":\(arr(t.notes.map(q))),"
            + "\"devices\":\(r.devices),"
        return "{" + header + "\"lanes\":" + arr(lanes) + ",\n\"msgs\":" + arr(msgs) + ",\n\"bands\":" + arr(bands)
            + ",\n\"spans\":" + arr(spans) + ",\n\"arrows\":" + arr(arrows) + ",\n\"links\":" + arr(links)
            + ",\n\"markers\":" + arr(markers) + ",\n\"aggregates\":" + arr(aggs) + "}"
    }
}
