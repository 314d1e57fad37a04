import SimKernel
import GrouperModel

/// Hostile-server faults: `tamper`, `stale`, `withhold`, `early-delete`, `keep`
/// (each with an optional `window` or `up`/`down`; neither = the whole run) and `collude`.
extension ScenarioReader {
    static let hostileKinds = ["tamper", "stale", "withhold", "early-delete", "keep", "collude"]

    /// Nil when `n` is not a hostile fault, or when it is and has issues (added to the sink).
    func readHostileFault(_ n: Node, servers: Int?, duration: SimDuration?, ttl: SimDuration?) -> FaultSpec? {
        guard case .object = n.value, case .string(let kind)? = n.value["kind"], Self.hostileKinds.contains(kind) else { return nil }
        let extra: [String] = switch kind {
        case "tamper": ["fraction"]
        case "withhold": ["mode", "fraction"]
        case "early-delete": ["ttl"]
        case "collude": ["name"]
        default: []
        }
        let timing = kind == "collude" ? [] : ["window", "up", "down"]
        guard let o = ObjectReader(n, allowed: ["kind", "servers"] + timing + extra) else { return nil }
        let sel = o.required("servers", "\"all\" or a list of server numbers").flatMap { $0.selection(count: servers, noun: "server") }
        if kind == "collude" {
            let name = o.optional("name").map { $0.string() } ?? "coalition"
            guard let sel, let name else { return nil }
            return FaultSpec(servers: sel, kind: .collude(name: name))
        }
        guard let behaviour = readMisbehaviour(kind, o, n, ttl: ttl),
              let when = readActivity(n, o, kind: kind, servers: servers, selected: sel, duration: duration, always: true),
              let sel else { return nil }
        return FaultSpec(servers: sel, kind: .misbehave(behaviour, when: when))
    }

    private func readMisbehaviour(_ kind: String, _ o: ObjectReader, _ n: Node, ttl: SimDuration?) -> ServerMisbehaviour? {
        func fraction() -> Double? {
            o.optional("fraction").map { $0.double(in: 0...1, "a fraction of the shares in [0, 1]") } ?? 1
        }
        switch kind {
        case "tamper": return fraction().map { .tamper(fraction: $0) }
        case "stale": return .stale
        case "keep": return .keep
        case "withhold":
            let modes = ServerMisbehaviour.WithholdMode.allCases.map(\.rawValue)
            let mode = o.optional("mode").map { $0.choice(modes).flatMap(ServerMisbehaviour.WithholdMode.init) } ?? .get
            guard let mode, let f = fraction() else { return nil }
            return .withhold(mode: mode, fraction: f)
        default:
            guard let t = o.required("ttl", "a duration shorter than the group's TTL")?.duration(positive: true) else { return nil }
            if let ttl, t >= ttl {
                sink.add(n.key("ttl"), "got \"\(t)\", expected a TTL shorter than the group's (\(ttl)): early-delete deletes before the TTL")
                return nil
            }
            return .earlyDelete(ttl: t)
        }
    }
}
