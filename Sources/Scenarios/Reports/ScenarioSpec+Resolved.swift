import SimKernel
import GrouperModel
import Format
import Catalogs
import ScenarioFile

/// A scenario point written back as a scenario file with every default filled in
/// (`resolved.json` next to the manifest): what exactly ran, loadable on its own.
extension ScenarioSpec {
    /// The point as a complete scenario document without a sweep.
    public var resolvedJSON: JSONValue {
        var top: [(String, JSONValue)] = [
            ("format", .number(1, text: "1")), ("name", .string(name)), ("description", .string(description)),
            ("seed", ResultSet.integer(seed)), ("replications", Self.int(replications)),
            ("duration", Self.duration(duration)), ("warmup", Self.duration(warmup)), ("settle", Self.duration(settle)),
            ("group", groupJSON),
            ("protocol", protocolJSON), ("sharing", .string(sharing.rawValue)),
            ("workload", workloadJSON), ("churn", churnJSON), ("faults", .array(faults.map(Self.faultJSON))),
            ("profiles", .object([("device", Self.profileJSON(profiles.device)), ("network", Self.profileJSON(profiles.network)),
                                  ("server", Self.profileJSON(profiles.server))])),
            ("metrics", .array(metrics.map { .string($0.rawValue) })),
            ("require", .array(require.map { .string($0.rawValue) })),
        ]
        if deviceStore != DeviceStoreConfig() {   // absent when plain with the default iterations
            top.append(("device_store", .object([("at_rest", .string(deviceStore.atRest.rawValue)),
                                                 ("kdf_iterations", Self.int(deviceStore.kdfIterations))])))
        }
        if !network.isOff {   // absent when off, so a scenario without network faults resolves to a file without it
            top.append(("network", .object([("jitter", Self.duration(network.jitter)), ("duplicate", Self.number(network.duplicate)),
                                            ("late", Self.number(network.late))])))
        }
        if architecture == .central { top = Self.centralOnly(top, central) }
        if let precision { top = top.filter { $0.0 != "replications" } + [("precision", precision.json)] }
        if let series {
            top.append(("series", .object([("every", Self.duration(series.every)), ("metrics", .array(series.metrics.map { .string($0.rawValue) }))])))
        }
        if !schedule.isEmpty { top.append(("schedule", .array(schedule.map(Self.commandJSON)))) }
        return .object(top)
    }

    /// A central point: without the Grouper-only keys the reader rejects for it, with its
    /// architecture and options (Grouper points are written as before, byte for byte).
    static func centralOnly(_ top: [(String, JSONValue)], _ central: CentralSpec) -> [(String, JSONValue)] {
        let grouperOnly = ScenarioReader.grouperOnlyKeys.map(\.path)
        var out: [(String, JSONValue)] = top.compactMap { key, value in
            if grouperOnly.contains([key]) { return nil }
            guard case .object(let members) = value, key == "protocol" else { return (key, value) }
            return (key, .object(members.filter { !grouperOnly.contains([key, $0.0]) }))
        }
        out.append(("architecture", .string(Architecture.central.rawValue)))
        if let r = central.retention { out.append(("central", .object([("retention", duration(r))]))) }
        return out
    }

    var groupJSON: JSONValue {
        let g: [(String, JSONValue)] = [
            ("devices", Self.int(group.devices)), ("servers", Self.int(group.n)),
            ("k", Self.int(group.k)), ("n", Self.int(group.n)), ("s", Self.int(group.s)),
            ("ttl", Self.duration(group.ttl)), ("sweep_period", Self.duration(group.sweepPeriod)),
            ("members", .array(group.initialMembers.map(Self.int))),
            ("invite", .array(group.invitations.map { i in
                .object([("device", Self.int(i.device)), ("at", Self.duration(i.at)), ("by", Self.int(i.by))]) }))]
        // Only when set, so a scenario that does not use it resolves to a file without it.
        return .object(g + (group.alignedSweeps ? [("aligned_sweeps", .bool(true))] : []))
    }

    var protocolJSON: JSONValue {
        let p = protocolSpec
        return .object([
            ("variant", .string(p.variant.rawValue)),
            ("confirm", .object([("policy", .string(p.confirm.mode.rawValue)), ("period", Self.duration(p.confirm.period)),
                                 ("on_reconnect", .bool(p.confirm.onReconnect))])),
            ("receive", .object([("policy", .string(p.receive.mode.rawValue)), ("poll_period", Self.duration(p.receive.pollPeriod)),
                                 ("on_reconnect", .bool(p.receive.onReconnect))])),
            ("resend_retry", Self.duration(p.resendRetry)),
            ("unsent_retry", p.unsentRetryPeriod.map(Self.duration) ?? .string("on-reconnect")),
            ("rebuild", .string(p.rebuild.rawValue)),
        ] + (p.resendMulticastAfter.map { [("resend_multicast_after", Self.int($0))] } ?? [])
          + (p.recovery == RecoveryOptions() ? [] : [("recovery", Self.recoveryJSON(p.recovery))])
          + (p.resendRanges == .span ? [] : [("resend_ranges", .string(p.resendRanges.rawValue))]))
    }

    static func recoveryJSON(_ r: RecoveryOptions) -> JSONValue {
        .object([("receiver_asks", .bool(r.receiverAsks)), ("sender_checks_servers", .bool(r.senderChecksServers)),
                 ("multicast_reuploads", .bool(r.multicastReuploads))])
    }

    static func commandJSON(_ c: ScheduledCommand) -> JSONValue {
        var o: [(String, JSONValue)] = [("at", duration(c.at)), ("device", int(c.device)), ("do", .string(c.actionName))]
        if case .resend(let requester, let first, let last) = c.action {
            o += [("to", int(requester)), ("first", int(first)), ("last", int(last))]
        }
        return .object(o)
    }

    var workloadJSON: JSONValue {
        var w: [(String, JSONValue)] = [("writers", Self.selection(workload.writers))]
        if let u = workload.update { w.append(("update", Self.process(u))) }
        if let d = workload.delete { w.append(("delete", Self.process(d))) }
        w += [("objects", Self.int(workload.objects)), ("object_size", Self.distribution(workload.objectSize, durations: false))]
        if !workload.writes.isEmpty { w.append(("writes", .array(workload.writes.map(Self.writeJSON)))) }
        if let c = workload.chunking {   // real_bytes is Grouper's only
            let real: [(String, JSONValue)] = architecture == .central ? [] : [("real_bytes", Self.int(c.realBytesPerChunk))]
            w.append(("chunking", .object([("chunk_size", Self.int(c.chunkBytes))] + real)))
        }
        return .object(w)
    }

    var churnJSON: JSONValue {
        var c: [(String, JSONValue)] = [("devices", Self.selection(churn.devices))]
        if let (on, off) = churn.process {
            c += [("online", Self.distribution(on, durations: true)), ("offline", Self.distribution(off, durations: true))]
        }
        c += [("start_offline", Self.number(churn.startOffline)),
              ("windows", .array(churn.windows.map { w in
                  .object([("device", Self.int(w.device)), ("start", Self.duration(w.start)), ("end", Self.duration(w.end))]) }))]
        return .object(c)
    }

    static func writeJSON(_ e: ExplicitWrite) -> JSONValue {
        var o: [(String, JSONValue)] = [("device", int(e.device)), ("at", duration(e.at))]
        if e.kind == .delete { o.append(("kind", .string("delete"))) }
        o.append(("object", int(e.object)))
        if e.kind == .update { o.append(("size", int(e.size))) }
        return .object(o)
    }

    static func faultJSON(_ f: FaultSpec) -> JSONValue {
        let servers = selection(f.servers)
        switch f.kind {
        case .window(let mode, let start, let end):
            var w: [(String, JSONValue)] = [("start", duration(start))]
            if let end { w.append(("end", duration(end))) }
            return .object([("kind", .string(mode.rawValue)), ("servers", servers), ("window", .object(w))])
        case .process(let mode, let up, let down):
            return .object([("kind", .string(mode.rawValue)), ("servers", servers),
                            ("up", distribution(up, durations: true)), ("down", distribution(down, durations: true))])
        case .restart(let at, let keep):
            return .object([("kind", .string("restart")), ("servers", servers), ("at", duration(at)), ("keep_data", .bool(keep))])
        case .collude(let name):
            return .object([("kind", .string("collude")), ("servers", servers), ("name", .string(name))])
        case .misbehave(let b, let when):
            return .object([("kind", .string(misbehaviourName(b))), ("servers", servers)] + misbehaviourFields(b) + activity(when))
        }
    }

    static func misbehaviourName(_ b: ServerMisbehaviour) -> String {
        switch b {
        case .tamper: return "tamper"
        case .stale: return "stale"
        case .withhold: return "withhold"
        case .earlyDelete: return "early-delete"
        case .keep: return "keep"
        }
    }

    static func misbehaviourFields(_ b: ServerMisbehaviour) -> [(String, JSONValue)] {
        switch b {
        case .tamper(let f): return [("fraction", number(f))]
        case .withhold(let mode, let f): return [("mode", .string(mode.rawValue)), ("fraction", number(f))]
        case .earlyDelete(let ttl): return [("ttl", duration(ttl))]
        case .stale, .keep: return []
        }
    }

    /// When a hostile behaviour is active: nothing for the whole run, else `window` or `up`/`down`.
    static func activity(_ a: FaultActivity) -> [(String, JSONValue)] {
        switch a {
        case .always: return []
        case .window(let start, let end):
            var w: [(String, JSONValue)] = [("start", duration(start))]
            if let end { w.append(("end", duration(end))) }
            return [("window", .object(w))]
        case .process(let up, let down):
            return [("up", distribution(up, durations: true)), ("down", distribution(down, durations: true))]
        }
    }

    static func profileJSON(_ p: ProfileSpec) -> JSONValue {
        var o: [(String, JSONValue)] = [("base", .string(p.base))]
        let base = ProfileCatalog.builtin(p.kind, p.base)
        for (f, v) in zip(ProfileCatalog.fields(p.kind), p.values) {
            // The at-rest fields appear only when they differ from the base, so a scenario
            // that does not use them resolves to a file without them.
            if ProfileCatalog.quietFields.contains(f.name), base?[f.name] == v { continue }
            switch f.unit {
            case .duration: o.append((f.name, seconds(v)))
            case .bytesPerSecond: o.append((f.name, number(v)))
            case .bytes: o.append((f.name, int(Int(v))))
            }
        }
        return .object(o)
    }

    static func process(_ p: ArrivalProcess) -> JSONValue {
        switch p {
        case .burst(let count, let at): return .object([("burst", int(count)), ("at", duration(at))])
        case .renewal(let every, let start, let stop, let limit):
            var o: [(String, JSONValue)] = [("every", distribution(every, durations: true)), ("start", duration(start))]
            if let stop { o.append(("stop", duration(stop))) }
            if let limit { o.append(("limit", int(limit))) }
            return .object(o)
        }
    }

    static func distribution(_ d: DistributionSpec, durations: Bool) -> JSONValue {
        let v = { (x: Double) in durations ? seconds(x) : number(x) }
        switch d {
        case .constant(let x): return .object([("dist", .string("constant")), ("value", v(x))])
        case .uniform(let a, let b): return .object([("dist", .string("uniform")), ("min", v(a)), ("max", v(b))])
        case .exponential(let m): return .object([("dist", .string("exponential")), ("mean", v(m))])
        case .lognormal(let med, let sg): return .object([("dist", .string("lognormal")), ("median", v(med)), ("sigma", number(sg))])
        }
    }

    static func selection(_ s: DeviceSelection) -> JSONValue {
        switch s {
        case .all: return .string("all")
        case .some(let l): return .array(l.map(int))
        }
    }

    static func int(_ v: Int) -> JSONValue { .number(Double(v), text: String(v)) }
    /// Shortest text that reads back as the same Double.
    static func number(_ v: Double) -> JSONValue { .number(v, text: v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)") }
    static func duration(_ d: SimDuration) -> JSONValue { .string(d.description) }
    static func seconds(_ s: Double) -> JSONValue { duration(SimDuration(nanoseconds: Int64((s * 1e9).rounded()))) }
}

extension ResultSet {
    /// `resolved.json`: every sweep point's scenario with every default filled in (and
    /// `--seed`/`--replications` applied), each a complete scenario file that runs that
    /// point alone: `{"points": [{"point": P, "values": {...}, "scenario": {...}}, …]}`.
    public var resolvedJSON: String {
        let points: [JSONValue] = scenario.points.map { p in
            .object([("point", ScenarioSpec.int(p.index)),
                     ("values", .object(p.assignments.map { ($0.path, $0.value) })),
                     ("scenario", scenario.pointSpecs[p.index].resolvedJSON)])
        }
        return JSONWriter.pretty(.object([("points", .array(points))]))
    }
}
