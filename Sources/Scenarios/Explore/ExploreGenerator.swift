import SimKernel
import Format

/// Which part of the feature space `grouper-sim explore` draws from (docs/explore.md).
public enum ExploreProfile: String, CaseIterable, Sendable {
    /// Everything: both architectures, every variant, policy, fault and hostile kind.
    case all
    /// The liveness hunt: the thesis variant, honest servers, push or poll with a period below
    /// the TTL, periodic confirms, and a settle of at least 3× the slowest period or TTL, so
    /// every run must converge.
    case thesis
    /// Grouper with hostile servers (tamper, stale, withhold, early-delete, keep, collude)
    /// under every rebuild policy.
    case hostile
    /// The central architecture only.
    case central
}

/// Draws scenario documents over the feature space, one per case index, from one seed: case
/// i depends only on (seed, profile, i), so the same seed and count give the same cases, and a
/// longer search starts with the cases of a shorter one.
///
/// Documents are drawn as JSON, not as `ScenarioSpec`, so every case goes through the
/// scenario reader like a user's file. Some draws break a cross-field rule (for example
/// `correct` with n < k + 2); `ExploreCase.load` reports those as rejected and the explorer
/// counts them, which exercises the reader's refusals too.
public struct ExploreGenerator: Sendable {
    public var profile: ExploreProfile
    public var seed: UInt64

    public init(profile: ExploreProfile, seed: UInt64) { self.profile = profile; self.seed = seed }

    /// The document of case `index` (attempt `attempt`: a redraw after a rejected or too big one).
    public func document(case index: Int, attempt: Int = 0) -> JSONValue {
        var draw = Draw(rng: RandomStreams(rootSeed: seed).stream(named: "explore/\(profile.rawValue)/\(index)/\(attempt)"))
        return draw.scenario(profile: profile, name: "explore-\(profile.rawValue)-\(index)")
    }
}

/// One case's draws. Durations are whole minutes, so documents read well and shrink cleanly.
struct Draw {
    var rng: Xoshiro256StarStar

    mutating func pick<T>(_ options: [T]) -> T { options[rng.nextInt(below: options.count)] }
    mutating func chance(_ p: Double) -> Bool { rng.chance(p) }
    mutating func int(_ r: ClosedRange<Int>) -> Int { rng.int(in: r) }

    static func num(_ v: Int) -> JSONValue { .number(Double(v)) }
    static func dur(minutes m: Int) -> JSONValue { .string(m % 60 == 0 ? "\(m / 60)h" : "\(m)min") }
    static func exp(minutes m: Int) -> JSONValue { .object([("dist", .string("exponential")), ("mean", dur(minutes: max(1, m)))]) }

    mutating func scenario(profile: ExploreProfile, name: String) -> JSONValue {
        let central = profile == .central || (profile == .all && chance(0.15))
        let hostile = profile == .hostile || (profile == .all && !central && chance(0.25))
        let liveness = profile == .thesis

        // The group: mostly small, sometimes up to 30 devices; k = 1 and s = n included.
        let devices = chance(0.7) ? int(2...6) : int(7...30)
        let n = central ? 1 : (chance(0.8) ? int(1...5) : int(6...9))
        let k = central ? 1 : int(1...n)
        let s = central ? 1 : (chance(0.3) ? n : int(k...n))
        let ttlMinutes = pick([30, 60, 120, 360, 720, 1440])
        var group: [(String, JSONValue)] = [("devices", Self.num(devices)), ("k", Self.num(k)), ("n", Self.num(n)),
                                              ("s", Self.num(s)), ("ttl", Self.dur(minutes: ttlMinutes))]
        if chance(0.3) { group.append(("sweep_period", .string(pick(["30s", "60s", "5min"])))) }

        // Protocol policies; the slowest period decides the liveness profile's settle.
        var proto: [(String, JSONValue)] = []
        var slowest = ttlMinutes
        var pollMinutes = 5
        if !central {
            let variant = liveness || hostile ? "thesis" : pick(["thesis", "thesis", "as-built", "basic-multicast", "no-recovery"])
            proto.append(("variant", .string(variant)))
            var confirm: [(String, JSONValue)] = []
            if variant == "as-built" && chance(0.5) {
                confirm = [("policy", .string("after-receive"))]
            } else if liveness {
                confirm = [("policy", .string("periodic"))]
            } else {
                confirm = [("policy", .string(pick(["periodic", "periodic", "on-reconnect", "never"])))]
            }
            if case .string("periodic") = confirm[0].1, chance(0.4) {
                let p = pick([ttlMinutes / 2, ttlMinutes, 2 * ttlMinutes].map { max(10, $0) })
                confirm.append(("period", Self.dur(minutes: p)))
                slowest = max(slowest, p)
            }
            proto.append(("confirm", .object(confirm)))
            let receive = liveness ? pick(["push", "push-and-poll", "poll"]) : pick(["push", "poll", "push-and-poll", "push-and-poll"])
            pollMinutes = liveness ? min(pick([5, 15, 30]), max(1, ttlMinutes / 2)) : pick([5, 15, 30, ttlMinutes, 2 * ttlMinutes])
            proto.append(("receive", .object([("policy", .string(receive)), ("poll_period", Self.dur(minutes: pollMinutes))])))
            slowest = max(slowest, pollMinutes)
            let retry = pick([10, 30, 60])
            proto.append(("resend_retry", Self.dur(minutes: retry)))
            slowest = max(slowest, retry)
            if chance(0.3) { proto.append(("unsent_retry", liveness ? Self.dur(minutes: 5) : .string(pick(["on-reconnect", "5min"])))) }
            let rebuild = hostile ? pick(["first-k", "check", "correct"]) : (chance(0.15) ? pick(["check", "correct"]) : "first-k")
            proto.append(("rebuild", .string(rebuild)))
            if !liveness && chance(0.1) { proto.append(("resend_multicast_after", Self.num(int(1...3)))) }
            if !liveness && chance(0.08) {
                proto.append(("recovery", .object([("receiver_asks", .bool(chance(0.7))), ("sender_checks_servers", .bool(chance(0.7))),
                                                     ("multicast_reuploads", .bool(chance(0.3)))])))
            }
        }

        // Time: activity of 2–6 TTLs, then a settle (the liveness profile: ≥ 3× the slowest).
        let activeMinutes = ttlMinutes * int(2...6)
        let settleMinutes: Int
        if liveness { settleMinutes = 3 * slowest + ttlMinutes } else { settleMinutes = pick([0, ttlMinutes, 3 * slowest]) }
        let duration = activeMinutes + settleMinutes

        // Members and invitations.
        var members: [Int] = Array(1...devices)
        if devices > 2 && chance(0.25) {
            members = [1] + (2...devices).filter { _ in chance(0.6) }
            group.append(("members", .array(members.map(Self.num))))
            let outside = (2...devices).filter { !members.contains($0) }
            let invited = outside.filter { _ in chance(0.7) }
            if !invited.isEmpty {
                group.append(("invite", .array(invited.map { d in
                    .object([("device", Self.num(d)), ("at", Self.dur(minutes: int(1...max(1, activeMinutes - 1)))), ("by", Self.num(1))])
                })))
            }
        }

        var doc: [(String, JSONValue)] = [("format", Self.num(1)), ("name", .string(name)),
                                          ("duration", Self.dur(minutes: duration))]
        if settleMinutes > 0 { doc.append(("settle", Self.dur(minutes: settleMinutes))) }
        if central { doc.append(("architecture", .string("central"))) }
        if !central && chance(0.2) { doc.append(("sharing", .string("csss257"))) }
        doc.append(("group", .object(group)))
        if !proto.isEmpty { doc.append(("protocol", .object(proto))) }
        doc.append(("workload", .object(workload(devices: devices, activeMinutes: activeMinutes, central: central))))
        if let churn = churn(devices: devices, activeMinutes: activeMinutes, ttlMinutes: ttlMinutes) { doc.append(("churn", churn)) }
        let faults = self.faults(n: n, k: k, ttlMinutes: ttlMinutes, activeMinutes: activeMinutes,
                                 hostile: hostile, honestOnly: liveness || central)
        if !faults.isEmpty { doc.append(("faults", .array(faults))) }
        if chance(0.1) { doc.append(("device_store", .object([("at_rest", .string("aes256-cbc")), ("kdf_iterations", Self.num(1000))]))) }
        if chance(0.05), !central { doc.append(("central", .object([("retention", .string("1h"))]))) }  // rejected: central only
        // Network faults within bounds, every profile (docs/scenarios.md#network): they stop at the
        // settle's start, and the seconds they add are far inside any settle drawn here.
        if chance(0.3) {
            var net: [(String, JSONValue)] = [("jitter", .string(pick(["50ms", "500ms", "5s"])))]
            if chance(0.6) { net.append(("duplicate", .number(pick([0.05, 0.3])))) }
            if chance(0.6) { net.append(("late", .number(pick([0.02, 0.2])))) }
            doc.append(("network", .object(net)))
        }
        return .object(doc)
    }

    mutating func workload(devices: Int, activeMinutes: Int, central: Bool) -> [(String, JSONValue)] {
        var w: [(String, JSONValue)] = []
        let objects = pick([1, 2, 5, 20, 100])
        w.append(("objects", Self.num(objects)))
        let chunked = chance(0.15)
        if chunked {
            w.append(("chunking", .object([("chunk_size", Self.num(pick([262_144, 1_048_576])))])))
            w.append(("object_size", .object([("dist", .string("uniform")), ("min", Self.num(300_000)), ("max", Self.num(pick([2_000_000, 6_000_000])))])))
        } else if chance(0.3) {
            w.append(("object_size", .object([("dist", .string("uniform")), ("min", Self.num(50)), ("max", Self.num(4000))])))
        }
        if devices > 2 && chance(0.3) {
            let ws = (1...devices).filter { _ in chance(0.5) }
            w.append(("writers", .array((ws.isEmpty ? [1] : Array(ws.prefix(4))).map(Self.num))))
        }
        let mean = chunked ? pick([60, 180]) : pick([5, 20, 60, 180])
        if chance(0.85) {
            w.append(("update", .object([("every", Self.exp(minutes: mean)), ("stop", Self.dur(minutes: activeMinutes))]
                + (chunked ? [("limit", Self.num(int(1...4)))] : []))))
        }
        if chance(0.3) {
            w.append(("delete", .object([("every", Self.exp(minutes: mean * 4)), ("stop", Self.dur(minutes: activeMinutes))])))
        }
        if chance(0.4) {
            let writes = (0..<int(1...5)).map { _ -> JSONValue in
                var e: [(String, JSONValue)] = [("device", Self.num(int(1...devices))), ("at", Self.dur(minutes: int(0...max(0, activeMinutes - 1)))),
                                                ("object", Self.num(int(0...(objects - 1))))]
                if chance(0.2) { e.append(("kind", .string("delete"))) } else { e.append(("size", Self.num(chunked ? 1_500_000 : 323))) }
                return .object(e)
            }
            w.append(("writes", .array(writes)))
        }
        return w
    }

    mutating func churn(devices: Int, activeMinutes: Int, ttlMinutes: Int) -> JSONValue? {
        var c: [(String, JSONValue)] = []
        if chance(0.4) {
            c.append(("online", Self.exp(minutes: pick([ttlMinutes / 2, ttlMinutes, 3 * ttlMinutes].map { max(10, $0) }))))
            c.append(("offline", Self.exp(minutes: pick([ttlMinutes / 4, ttlMinutes, 2 * ttlMinutes].map { max(5, $0) }))))
            if chance(0.3) { c.append(("start_offline", .number(0.25))) }
        }
        if chance(0.5) {
            // Windows, overlapping ones on one device included.
            let windows = (0..<int(1...4)).map { _ -> JSONValue in
                let start = int(0...max(0, activeMinutes - 2))
                let end = min(activeMinutes, start + int(1...max(1, 2 * ttlMinutes)))
                return .object([("device", Self.num(int(1...devices))), ("start", Self.dur(minutes: start)),
                                ("end", Self.dur(minutes: max(start + 1, end)))])
            }
            c.append(("windows", .array(windows)))
        }
        return c.isEmpty ? nil : .object(c)
    }

    mutating func faults(n: Int, k: Int, ttlMinutes: Int, activeMinutes: Int, hostile: Bool, honestOnly: Bool) -> [JSONValue] {
        var out: [JSONValue] = []
        func servers(_ d: inout Draw) -> JSONValue {
            let first = d.int(1...n)
            return .array(([first] + (1...n).filter { $0 != first && d.chance(0.3) }).map(Self.num))
        }
        func window(_ d: inout Draw) -> JSONValue {
            let start = d.int(0...max(0, activeMinutes - 2))
            var w: [(String, JSONValue)] = [("start", Self.dur(minutes: start))]
            if d.chance(0.8) { w.append(("end", Self.dur(minutes: start + d.int(1...max(1, ttlMinutes))))) }
            return .object(w)
        }
        for _ in 0..<int(0...2) {
            switch int(0...2) {
            case 0, 1:
                var f: [(String, JSONValue)] = [("kind", .string(pick(["refuse", "blackhole"]))), ("servers", servers(&self))]
                if chance(0.6) { f.append(("window", window(&self))) } else {
                    f.append(("up", Self.exp(minutes: 3 * ttlMinutes))); f.append(("down", Self.dur(minutes: max(5, ttlMinutes / 4))))
                }
                out.append(.object(f))
            default:
                out.append(.object([("kind", .string("restart")), ("servers", servers(&self)),
                                    ("at", Self.dur(minutes: int(1...max(1, activeMinutes - 1)))), ("keep_data", .bool(chance(0.5)))]))
            }
        }
        guard hostile && !honestOnly else { return out }
        for _ in 0..<int(1...2) {
            let kind = pick(["tamper", "stale", "withhold", "early-delete", "keep", "collude"])
            var f: [(String, JSONValue)] = [("kind", .string(kind)), ("servers", servers(&self))]
            switch kind {
            case "tamper": if chance(0.5) { f.append(("fraction", .number(0.5))) }
            case "withhold":
                f.append(("mode", .string(pick(["get", "list"]))))
                if chance(0.5) { f.append(("fraction", .number(0.5))) }
            case "early-delete": f.append(("ttl", Self.dur(minutes: max(1, ttlMinutes / 3))))
            default: break
            }
            if kind != "collude" && kind != "early-delete" && chance(0.5) { f.append(("window", window(&self))) }
            out.append(.object(f))
        }
        _ = k
        return out
    }
}
