import SimKernel
import Format
import Catalogs

extension ScenarioReader {
    func readFaults(_ n: Node?, servers: Int?, duration: SimDuration?, ttl: SimDuration? = nil) -> [FaultSpec]? {
        guard let n else { return [] }
        guard case .array(let items) = n.value else { n.fail("a list of fault objects"); return nil }
        let before = sink.count
        var out: [FaultSpec] = []
        for (i, item) in items.enumerated() {
            let node = Node(value: item, path: n.index(i), sink: sink)
            if let f = readHostileFault(node, servers: servers, duration: duration, ttl: ttl) ?? readFault(node, servers: servers, duration: duration) {
                out.append(f)
            }
        }
        return sink.count == before ? out : nil
    }

    private func readFault(_ n: Node, servers: Int?, duration: SimDuration?) -> FaultSpec? {
        let kinds = ["refuse", "blackhole", "restart"] + Self.hostileKinds
        guard case .object = n.value else { n.fail("a fault object with \"kind\": \(kinds.joined(separator: "|"))"); return nil }
        let kindName = n.value["kind"].flatMap { v -> String? in
            if case .string(let s) = v { return s } else { return nil } }
        if let kindName, Self.hostileKinds.contains(kindName) { return nil }   // readHostileFault's; issues are in the sink
        let allowed = kindName == "restart" ? ["kind", "servers", "at", "keep_data"]
            : ["kind", "servers", "window", "up", "down"]
        guard let o = ObjectReader(n, allowed: allowed) else { return nil }
        guard let kind = o.required("kind", "one of \(kinds.map { "\"\($0)\"" }.joined(separator: ", "))")?.choice(kinds) else { return nil }
        let sel = o.required("servers", "\"all\" or a list of server numbers").flatMap { $0.selection(count: servers, noun: "server") }
        if kind == "restart" {
            let at = o.required("at", Node.durationHelp).flatMap { $0.duration(positive: false) }
            let keep = o.optional("keep_data").map { $0.bool() } ?? true
            if let at, let d = duration, at >= d { sink.add(n.key("at"), "got \"\(at)\", expected a time before the end of the run (\(d))") }
            guard let sel, let at, let keep else { return nil }
            return FaultSpec(servers: sel, kind: .restart(at: at, keepData: keep))
        }
        let mode = ServerDownMode(rawValue: kind)!
        switch readActivity(n, o, kind: kind, servers: servers, selected: sel, duration: duration, always: false) {
        case .window(let start, let end)?: return sel.map { FaultSpec(servers: $0, kind: .window(mode: mode, start: start, end: end)) }
        case .process(let up, let down)?: return sel.map { FaultSpec(servers: $0, kind: .process(mode: mode, up: up, down: down)) }
        default: return nil
        }
    }

    /// When a fault is active: a `window` {start, end}, or alternating `up`/`down`
    /// distributions, or (`always` allowed, neither given) the whole run.
    func readActivity(_ n: Node, _ o: ObjectReader, kind: String, servers: Int?, selected sel: ServerSelection?,
                      duration: SimDuration?, always: Bool) -> FaultActivity? {
        let hasWindow = o.has("window"), hasProcess = o.has("up") || o.has("down")
        if hasWindow && hasProcess || !always && !hasWindow && !hasProcess {
            sink.add(n.path, "a \(kind) fault needs \(always ? "at most" : "exactly") one of \"window\" {start, end} or \"up\"/\"down\" distributions")
            return nil
        }
        if !hasWindow && !hasProcess { return .always }
        if hasWindow {
            guard let w = o.optional("window"), let wo = ObjectReader(w, allowed: ["start", "end"]) else { return nil }
            let start = wo.optional("start").map { $0.duration(positive: false) } ?? .zero
            let end = wo.optional("end").map { $0.duration(positive: true) }
            if let start, let d = duration, start >= d {
                sink.add(w.key("start"), "got \"\(start)\", expected a start before the end of the run (\(d))")
            }
            if let start, let e = end ?? nil, e <= start { sink.add(w.key("end"), "got \"\(e)\", expected an end after start (\(start))") }
            guard sel != nil, let start, end != .some(nil) else { return nil }
            return .window(start: start, end: end ?? nil)
        }
        let up = o.required("up", "how long a server stays up (a distribution of durations)").flatMap { readDistribution($0, durations: true) }
        let down = o.required("down", "how long a server stays down (a distribution of durations)").flatMap { readDistribution($0, durations: true) }
        if let up, up.mean <= 0 { sink.add(n.key("up"), "got a mean of 0, expected a positive mean up time") }
        if let up, let down, up.mean > 0, let duration, let sel {
            let expected = 2 * duration.seconds / (up.typicalGap + down.typicalGap) * Double(sel.count(of: servers ?? 1))
            if expected > Double(WorkloadSpec.maxEvents) {
                sink.add(n.key("up"), "expects about \(NumberFormat.shortest(expected.rounded())) up/down changes per run, expected at most \(WorkloadSpec.maxEvents): lengthen 'up' or 'down'")
            }
        }
        guard sel != nil, let up, let down, up.mean > 0 else { return nil }
        return .process(up: up, down: down)
    }

    func readProfiles(_ n: Node?) -> ProfileSet? {
        guard let n else { return .defaults }
        guard let o = ObjectReader(n, allowed: ProfileSpec.Kind.allCases.map(\.rawValue)) else { return nil }
        let d = ProfileSet.defaults
        let device = o.optional("device").map { readProfile($0, .device) } ?? d.device
        let network = o.optional("network").map { readProfile($0, .network) } ?? d.network
        let server = o.optional("server").map { readProfile($0, .server) } ?? d.server
        guard let device, let network, let server else { return nil }
        return ProfileSet(device: device, network: network, server: server)
    }

    /// `"name"` or `{"base": "name", field: value, …}`.
    private func readProfile(_ n: Node, _ kind: ProfileSpec.Kind) -> ProfileSpec? {
        let names = ProfileCatalog.builtins(kind).map(\.name)
        if case .string = n.value {
            return n.choice(names).flatMap { ProfileCatalog.builtin(kind, $0) }
        }
        let fields = ProfileCatalog.fields(kind)
        guard let o = ObjectReader(n, allowed: ["base"] + fields.map(\.name),
                                   what: "a built-in \(kind) profile name or {\"base\": name, overrides…}") else { return nil }
        guard let base = o.required("base", "one of \(names.joined(separator: ", "))")?.choice(names),
              var p = ProfileCatalog.builtin(kind, base) else { return nil }
        var ok = true
        for (i, f) in fields.enumerated() {
            guard let v = o.optional(f.name) else { continue }
            let value: Double?
            switch f.unit {
            case .duration: value = v.duration(positive: false, atMost: f.longest)?.seconds
            case .bytesPerSecond: value = v.double(in: 1...1e15, "a bandwidth in bytes/s in 1...1e15")
            case .bytes: value = v.int(in: 0...1_000_000_000).map(Double.init)
            }
            if let value { p.values[i] = value } else { ok = false }
        }
        return ok ? p : nil
    }
}
