import SimKernel
import GrouperModel

/// Watches one Grouper run (`GrouperSystem.observeEvents`) and keeps what a timeline draws:
/// device and server states, every request with its answer, every share a server held from
/// put to deletion, pushes, writes, resend requests and the re-uploads answering them. State
/// an event changes is read at the next event (the observer is called before delivery) and at
/// the end (`finish`). Deterministic: lists in event order, no dictionary iteration.
final class TimelineRecorder: @unchecked Sendable {
    var rec: TimelineRecording
    private var system: GrouperSystem?
    /// The system watched, for the checkers at the end.
    var checkedSystem: GrouperSystem? { system }
    private var devices = 0, servers = 0
    /// What the previous event may have changed, read before the next one.
    private var pending: (target: EventTarget, time: Int64, cause: TimelineSpan.End)?
    private var online: [Bool] = [], onlineSince: [Int64] = []
    private var serverState: [ServerState] = [], stateSince: [Int64] = []
    private var hostile: [[Int]] = [], hostileSince: [Int64] = []
    /// Per server: share id → span index, and the highest share id seen.
    private var live: [[Int: Int]] = [], maxShareID: [Int] = []
    private var arrowByRequest: [Int: Int] = [:]
    private var messageCache: [String: (type: String, sender: Int?, sequence: Int, object: String, content: String, receiver: String)] = [:]
    private var deviceByNode: [String: Int] = [:]
    /// Normal messages seen (sender node # sequence), and the ids of multicast re-upload copies.
    private var normalSeen = Set<String>(), copies = Set<String>()
    /// Notify requests that reached a server: (time, server), for the pushes they cause.
    private var notifies: [(time: Int64, server: Int)] = []
    /// Resend requests put: (arrow, requester, sender device, range).
    private var resends: [(arrow: Int, requester: Int, sender: Int, range: ClosedRange<Int>)] = []

    init(scenario: String, point: Int, replication: Int, seed: UInt64, end: Int64, sharing: String, ttl: Int64) {
        rec = TimelineRecording(scenario: scenario, point: point, replication: replication, seed: seed, end: end,
                                sharing: sharing, ttl: ttl)
    }

    /// Starts watching `system` (before it runs).
    func attach(_ system: GrouperSystem) {
        self.system = system
        devices = system.config.devices
        servers = system.config.servers
        rec.lanes = (0..<devices).map { TimelineLane(kind: .device, index: $0) }
            + (0..<servers).map { TimelineLane(kind: .server, index: $0) }
        online = (0..<devices).map { system.isOnline(device: $0) }
        onlineSince = Array(repeating: 0, count: devices)
        serverState = (0..<servers).map { system.serverState($0) }
        stateSince = Array(repeating: 0, count: servers)
        hostile = Array(repeating: [], count: servers)
        hostileSince = Array(repeating: 0, count: servers)
        live = Array(repeating: [:], count: servers)
        maxShareID = Array(repeating: -1, count: servers)
        for (i, node) in system.nodeIDs.enumerated() where i < devices { deviceByNode[node] = i }
        system.observeEvents { [unowned self] time, target, event in self.observe(time.nanoseconds, target, event) }
        system.observeMessages { [unowned self] m in
            if m.type.isNormal, !self.normalSeen.insert(m.sender + "#\(m.sequence)").inserted { self.copies.insert(m.messageID) }
            if self.messageCache[m.messageID] == nil {
                self.messageCache[m.messageID] = (m.type.rawValue, self.deviceByNode[m.sender], m.sequence, m.objectID, m.content, m.receiver)
            }
        }
    }

    /// Reads what the last event changed, closes everything open at the run's end and adds
    /// the checkers' findings.
    func finish(findings: [CheckFinding]) {
        flush()
        system?.observeEvents(nil)
        system?.observeMessages(nil)
        let end = rec.end
        for i in 0..<devices where !online[i] { band(.offline, lane: i, onlineSince[i], end, "D\(i + 1) offline") }
        for j in 0..<servers {
            if serverState[j] != .up { serverBand(j, serverState[j], stateSince[j], end) }
            if !hostile[j].isEmpty { band(.hostile, lane: rec.serverLane(j), hostileSince[j], end, "S\(j + 1) hostile") }
            for (_, s) in live[j].sorted(by: { $0.key < $1.key }) { rec.spans[s].end = end; rec.spans[s].endReason = .runEnd }
        }
        for i in rec.arrows.indices where rec.arrows[i].answered == nil && rec.arrows[i].endpoint != .push
            && rec.arrows[i].outcome == .ok { rec.arrows[i].outcome = .unanswered }
        rec.bands.sort { ($0.start, $0.lane ?? -1, $0.kind.rawValue) < ($1.start, $1.lane ?? -1, $1.kind.rawValue) }
        for f in findings { rec.markers.append(marker(f)) }
    }

    // MARK: Events

    private func observe(_ t: Int64, _ target: EventTarget, _ event: GrouperEvent) {
        flush()
        switch (target, event) {
        case (.server(let j), .request(let r)): request(r, server: j, at: t)
        case (.server(let j), .sweep): pending = (.server(j), t, .ttl)
        case (.server(let j), .serverCommand(let c)):
            switch c {
            case .restart(let keep): pending = (.server(j), t, keep ? .ttl : .restart)
            case .setState: pending = (.server(j), t, .ttl)
            case .misbehave(let id, let b):
                let was = !hostile[j].isEmpty
                hostile[j].removeAll { $0 == id }
                if b != nil { hostile[j].append(id) }
                if !was && !hostile[j].isEmpty { hostileSince[j] = t }
                if was && hostile[j].isEmpty { band(.hostile, lane: rec.serverLane(j), hostileSince[j], t, "S\(j + 1) hostile") }
                pending = (.server(j), t, .other)
            }
        case (.device(let d), .response(let id, let outcome)): response(id, outcome, device: d, at: t)
        case (.device(let d), .push): push(device: d, at: t)
        case (.device(let d), .command(let c)):
            switch c {
            case .setOnline: pending = (.device(d), t, .other)
            case .update(let object, let size):
                rec.markers.append(TimelineMarker(kind: .write, lane: d, time: t, label: "update",
                                                  text: "D\(d + 1) updates \(object) (\(size) bytes)", messageIDs: [],
                                                  severity: "", object: object))
            case .delete(let object):
                rec.markers.append(TimelineMarker(kind: .write, lane: d, time: t, label: "delete",
                                                  text: "D\(d + 1) deletes \(object)", messageIDs: [], severity: "", object: object))
            default: break
            }
        default: break
        }
    }

    /// Applies the state change of the previous event, if it could make one.
    private func flush() {
        guard let p = pending, let system else { return }
        pending = nil
        switch p.target {
        case .device(let d):
            let now = system.isOnline(device: d)
            guard now != online[d] else { return }
            if now { band(.offline, lane: d, onlineSince[d], p.time, "D\(d + 1) offline") }
            online[d] = now
            onlineSince[d] = p.time
        case .server(let j):
            let s = system.serverState(j)
            if s != serverState[j] {
                if serverState[j] != .up { serverBand(j, serverState[j], stateSince[j], p.time) }
                serverState[j] = s
                stateSince[j] = p.time
            }
            diffShares(j, at: p.time, cause: p.cause)
        }
    }

    private func serverBand(_ j: Int, _ s: ServerState, _ from: Int64, _ to: Int64) {
        band(s == .refusing ? .refusing : .blackholed, lane: rec.serverLane(j), from, to,
             "S\(j + 1) down (\(s == .refusing ? "refusing connections" : "blackholed: requests time out"))")
    }

    private func band(_ kind: TimelineBand.Kind, lane: Int?, _ start: Int64, _ end: Int64, _ detail: String) {
        guard end > start else { return }
        rec.bands.append(TimelineBand(kind: kind, lane: lane, start: start, end: end, detail: detail))
    }

    /// New shares become spans; shares gone end theirs, for `cause`.
    private func diffShares(_ j: Int, at t: Int64, cause: TimelineSpan.End) {
        guard let system else { return }
        let shares = system.serverSnapshot(j).shares
        var added = 0
        var i = shares.count - 1
        while i >= 0 && shares[i].id > maxShareID[j] { i -= 1; added += 1 }
        let fresh = shares.suffix(added)
        if live[j].count + added > shares.count {
            let present = Set(shares.map(\.id))
            for (id, span) in live[j].sorted(by: { $0.key < $1.key }) where !present.contains(id) {
                live[j][id] = nil
                rec.spans[span].end = t
                rec.spans[span].endReason = cause
            }
        }
        for s in fresh {
            let m = info(s.messageID)
            let receiver = s.receiver.flatMap { u in userDevice(system, server: j, user: u) }.map { "D\($0 + 1)" }
            live[j][s.id] = rec.spans.count
            rec.spans.append(TimelineSpan(lane: rec.serverLane(j), shareID: s.id, messageID: s.messageID, type: m.type,
                                          sender: m.sender, sequence: m.sequence, object: m.object, receiver: receiver,
                                          start: s.saveAt.nanoseconds, end: rec.end, endReason: .runEnd))
            maxShareID[j] = max(maxShareID[j], s.id)
        }
    }

    /// The device of server user `u` (its node id), if it is a device of the run.
    private func userDevice(_ system: GrouperSystem, server j: Int, user u: Int) -> Int? {
        let users = system.serverSnapshot(j).users
        guard users.indices.contains(u) else { return nil }
        return deviceByNode[users[u].node]
    }

    private func info(_ id: String) -> (type: String, sender: Int?, sequence: Int, object: String, content: String, receiver: String) {
        messageCache[id] ?? (type: "", sender: nil, sequence: 0, object: "", content: "", receiver: "")
    }

    private func request(_ r: ServerRequest, server j: Int, at t: Int64) {
        var endpoint = TimelineArrow.Endpoint.other, ids: [String] = [], detail = r.call.endpoint, reupload = false
        switch r.call {
        case .transferPut(let ups):
            endpoint = .put
            var seen = Set<String>()
            for u in ups where seen.insert(u.messageID).inserted { ids.append(u.messageID) }
            reupload = ups.contains { u in
                copies.contains(u.messageID) || u.receiver != nil && (info(u.messageID).type == "update" || info(u.messageID).type == "delete")
            }
            detail = "put \(ups.count) share(s)"
        case .transferList: endpoint = .list; detail = "list share ids"
        case .transferGet(let g): endpoint = .get; detail = "get \(g.count) share(s)"
        case .transferConfirm(let c, let forNode):
            endpoint = .confirm; ids = c
            detail = "existence check of \(c.count) message(s)" + (forNode.flatMap { deviceByNode[$0] }.map { " for D\($0 + 1)" } ?? "")
        case .userNotify: endpoint = .notify; detail = "notify"; notifies.append((t, j))
        default: break
        }
        let down = serverState[j] != .up
        let id = rec.arrows.count
        arrowByRequest[r.requestID] = id
        rec.arrows.append(TimelineArrow(id: id, device: r.device, server: rec.serverLane(j), endpoint: endpoint,
                                        type: typeOf(ids), outcome: .ok, sent: r.sentAt.nanoseconds, arrived: t,
                                        answered: nil, messageIDs: ids, objects: objectsOf(ids), reupload: reupload,
                                        detail: detail + (down ? " (server down)" : "")))
        if endpoint == .put {
            pending = (.server(j), t, .replaced)
            linkResend(arrow: id, device: r.device, ids: ids)
        }
    }

    private func typeOf(_ ids: [String]) -> String {
        var types: [String] = []
        for id in ids { let t = info(id).type; if !t.isEmpty && !types.contains(t) { types.append(t) } }
        return types.count == 1 ? types[0] : types.isEmpty ? "" : "mixed"
    }

    private func objectsOf(_ ids: [String]) -> [String] {
        var out: [String] = []
        for id in ids { let o = info(id).object; if !o.isEmpty && !out.contains(o) { out.append(o) } }
        return out
    }

    /// A put of a resend request is remembered; a re-upload is linked to the latest resend
    /// request for one of its messages (same sender, sequence in the range, from its receiver).
    private func linkResend(arrow id: Int, device: Int, ids: [String]) {
        for mid in ids {
            let m = info(mid)
            if m.type == "resend", let sender = deviceByNode[m.receiver], let range = Self.range(m.content),
               !resends.contains(where: { rec.arrows[$0.arrow].messageIDs.contains(mid) }) {
                resends.append((id, device, sender, range))
            }
        }
        guard rec.arrows[id].reupload else { return }
        var linked = Set<Int>()
        for mid in ids {
            let m = info(mid)
            guard let sender = m.sender else { continue }
            if let r = resends.last(where: { $0.sender == sender && $0.range.contains(m.sequence) }), linked.insert(r.arrow).inserted {
                rec.links.append(TimelineLink(from: r.arrow, to: id,
                                              detail: "D\(r.requester + 1) asked D\(sender + 1) to resend \(r.range.lowerBound)-\(r.range.upperBound)"
                                                + (sender == device ? "" : "; D\(device + 1) answers")))
            }
        }
    }

    static func range(_ text: String) -> ClosedRange<Int>? {
        let parts = text.split(separator: "-")
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a <= b else { return nil }
        return a...b
    }

    private func response(_ requestID: Int, _ outcome: RequestOutcome, device d: Int, at t: Int64) {
        guard let i = arrowByRequest.removeValue(forKey: requestID) else { return }
        rec.arrows[i].answered = t
        switch outcome {
        case .reply(let reply):
            rec.arrows[i].outcome = .ok
            switch reply {
            case .stored(let n): rec.arrows[i].detail += "; stored \(n)"
            case .shareIDs(let ids): rec.arrows[i].detail += "; \(ids.count) id(s) listed"
            case .shares(let ss):
                var ids: [String] = []
                for s in ss where !ids.contains(s.messageID) { ids.append(s.messageID) }
                rec.arrows[i].messageIDs = ids
                rec.arrows[i].type = typeOf(ids)
                rec.arrows[i].objects = objectsOf(ids)
                rec.arrows[i].detail += "; \(ss.count) share(s) served"
            case .missing(let m): rec.arrows[i].detail += "; \(m.count) missing"
            case .notified(let n): rec.arrows[i].detail += "; \(n.count) notified"
            default: break
            }
        case .error(let e): rec.arrows[i].outcome = .error; rec.arrows[i].detail += "; error: \(e)"
        case .refused: rec.arrows[i].outcome = .refused
        case .timedOut:
            // Served by a server that was up, but answered after the timeout: late.
            rec.arrows[i].outcome = rec.arrows[i].detail.hasSuffix("(server down)") ? .timedOut : .late
        case .disconnected: rec.arrows[i].outcome = .disconnected
        }
    }

    private func push(device d: Int, at t: Int64) {
        guard let n = notifies.last(where: { $0.time <= t }) else { return }
        let id = rec.arrows.count
        rec.arrows.append(TimelineArrow(id: id, device: d, server: rec.serverLane(n.server), endpoint: .push, type: "",
                                        outcome: .ok, sent: n.time, arrived: t, answered: nil, messageIDs: [], objects: [],
                                        reupload: false, detail: "push from S\(n.server + 1) (notify)"))
    }

    // MARK: Findings

    /// A finding as a marker: on the first device it names (else the first server it names,
    /// else D1), at the moment it concerns (`moment`). Findings number devices and servers as
    /// the scenario file does, from 1 (`deviceLabel`, `serverNumber`).
    func marker(_ f: CheckFinding) -> TimelineMarker {
        var lane = 0
        if let d = Self.firstNumber(after: "D", in: f.message), d >= 1, d <= devices { lane = d - 1 }
        else if let s = Self.firstNumber(after: "server ", in: f.message) ?? Self.firstNumber(after: "servers ", in: f.message),
                s >= 1, s <= servers { lane = rec.serverLane(s - 1) }
        return TimelineMarker(kind: .finding, lane: lane, time: moment(f), label: f.checker.rawValue, text: f.message,
                              messageIDs: f.messageIDs, severity: f.kind.rawValue,
                              object: f.messageIDs.first.map { info($0).object } ?? "")
    }

    /// The moment a finding concerns, from the shares of the first message it names: when the
    /// last of them was gone (TTL, restart, a hostile drop), if none was left at the run's end,
    /// so a lost message's finding sits where it was lost; else when its first share was
    /// stored; the run's end for a finding that names no message or one no server stored.
    func moment(_ f: CheckFinding) -> Int64 {
        guard let id = f.messageIDs.first else { return rec.end }
        let mine = rec.spans.filter { $0.messageID == id }
        guard let first = mine.map(\.start).min() else { return rec.end }
        return mine.allSatisfy { $0.endReason != .runEnd } ? mine.map(\.end).max()! : first
    }

    static func firstNumber(after prefix: String, in text: String) -> Int? {
        var rest = Substring(text)
        while let r = rest.range(of: prefix) {
            let before = rest[..<r.lowerBound].last
            let digits = rest[r.upperBound...].prefix { $0.isNumber }
            if !digits.isEmpty && !(before.map { $0.isLetter || $0.isNumber } ?? false) { return Int(digits) }
            rest = rest[r.upperBound...]
        }
        return nil
    }

}
