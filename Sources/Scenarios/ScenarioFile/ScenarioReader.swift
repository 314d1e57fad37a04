import SimKernel
import GrouperModel
import Format
import Catalogs

/// Decodes a scenario document (format v1) into a `ScenarioSpec`, collecting every
/// problem with its JSON path instead of stopping at the first.
package struct ScenarioReader {
    let sink: IssueSink
    package init(sink: IssueSink) { self.sink = sink }

    static let topKeys = ["format", "name", "description", "seed", "replications", "duration", "warmup",
                          "group", "protocol", "sharing", "workload", "churn", "faults", "profiles",
                          "sweep", "metrics", "series", "require", "settle", "architecture", "central", "device_store", "precision",
                          "schedule", "network", "plot"]

    /// The spec, or nil when any issue was added (issues are in `sink`).
    package func read(_ root: JSONValue) -> ScenarioSpec? {
        let before = sink.count
        guard let obj = ObjectReader(Node(value: root, path: "", sink: sink), allowed: Self.topKeys,
                                     what: "a JSON object with the scenario's keys") else { return nil }
        if let f = obj.required("format", "1 (the scenario format version)") {
            if f.value != .number(1) { f.fail("1 (the only scenario format version this tool reads)") }
        }
        let name = obj.required("name", "the scenario's name").flatMap(readName)
        let description = obj.optional("description").flatMap { $0.string() } ?? ""
        let seed = obj.optional("seed").map { $0.seed() } ?? 1
        let replications = obj.optional("replications").map { $0.int(in: 1...100_000) } ?? 1
        let duration = obj.required("duration", Node.durationHelp).flatMap { $0.duration(positive: true) }
        let warmup = obj.optional("warmup").map { $0.duration(positive: false) } ?? .zero
        let group = obj.required("group", "an object with devices, k, n, s, ttl").flatMap { readGroup($0, duration: duration) }
        let proto = readProtocol(obj.optional("protocol"), ttl: group?.ttl)
        let sharing = obj.optional("sharing").map { n in
            n.choice(SharingSchemeKind.allCases.map(\.rawValue)).flatMap(SharingSchemeKind.init(rawValue:))
        } ?? .gf256
        let workload = readWorkload(obj.optional("workload"), devices: group?.devices, duration: duration)
        let churn = readChurn(obj.optional("churn"), devices: group?.devices, duration: duration)
        let faults = readFaults(obj.optional("faults"), servers: group?.n, duration: duration, ttl: group?.ttl)
        let profiles = readProfiles(obj.optional("profiles"))
        let sweep = readSweep(obj.optional("sweep"))
        let metrics = readMetrics(obj.optional("metrics"))
        let require = readRequire(obj.optional("require"))
        let precision = readPrecision(obj.optional("precision"), metrics: metrics, replicationsGiven: obj.has("replications"))
        let series = readSeries(obj.optional("series"), duration: duration)
        let settle = obj.optional("settle").map { $0.duration(positive: false) } ?? .zero
        let architecture = obj.optional("architecture").map { n in
            n.choice(Architecture.allCases.map(\.rawValue)).flatMap(Architecture.init(rawValue:))
        } ?? .grouper
        let central = readCentral(obj.optional("central"))
        let deviceStore = readDeviceStore(obj.optional("device_store"))
        let plot = readPlot(obj.optional("plot"), sweep: sweep)
        let schedule = readSchedule(obj.optional("schedule"), devices: group?.devices, duration: duration, settle: settle)
        let network = readNetwork(obj.optional("network"), requestTimeout: profiles.map { p in
            var c = SystemConfig()
            p.network.apply(to: &c)
            return c.requestTimeout
        })
        if let architecture { checkArchitectureFields(root, architecture) }
        if let s = series ?? nil, let group, let architecture { checkWindowSeries(s, ttl: group.ttl, architecture) }
        if let d = duration, let st = settle, st >= d {
            sink.add("settle", "got \"\(st)\", expected a settle time shorter than the duration (\(d))")
        }
        if let p = proto, p.confirm.mode == .afterReceive, p.variant != .asBuilt {
            let others = ConfirmPolicySpec.Mode.allCases.filter { $0 != .afterReceive }.map { "\"\($0.rawValue)\"" }
            sink.add("protocol.confirm.policy", "got \"after-receive\", expected \(others.dropLast().joined(separator: ", ")) or "
                + "\(others.last!): after-receive is the as-built client's behaviour (use \"variant\": \"as-built\")")
        }
        if let d = duration, let group, let proto { checkTimerLoad(duration: d, group: group, protocol: proto) }
        if let group, let proto, proto.rebuild == .check, group.n < group.k + 1 {
            sink.add("protocol.rebuild", "got \"check\" with n = \(group.n) and k = \(group.k), expected n ≥ k + 1: "
                + "check needs k + 1 shares, more than the n servers hold, so it could never rebuild a message")
        }
        if let group, let proto, proto.rebuild == .correct, group.n < group.k + 2 {
            sink.add("protocol.rebuild", "got \"correct\" with n = \(group.n) and k = \(group.k), expected n ≥ k + 2: "
                + "with fewer shares there is nothing to correct with (use \"check\")")
        }
        if let d = duration, let w = warmup, w >= d {
            sink.add("warmup", "got \"\(w)\", expected a warm-up shorter than the duration (\(d))")
        }
        guard sink.count == before, let name, let seed, let replications, let duration, let warmup, let group,
              let proto, let sharing, let workload, let churn, let faults, let profiles, let sweep, let metrics,
              let require, let settle, let series, let architecture, let central,
              let deviceStore, let precision, let schedule, let network, let plot
        else { return nil }
        var spec = ScenarioSpec(name: name, description: description, seed: seed, replications: precision?.maxReplications ?? replications,
                            duration: duration, warmup: warmup, group: group, protocolSpec: proto,
                            sharing: sharing, workload: workload, churn: churn, faults: faults,
                            profiles: profiles, sweep: sweep, metrics: metrics, series: series,
                            require: require, settle: settle, architecture: architecture, central: central,
                            deviceStore: deviceStore, precision: precision, schedule: schedule, network: network)
        spec.plot = plot
        return spec
    }

    /// `"plot": {"x_scale": "auto" | "linear" | "log"}`; absent: auto. A forced log axis needs
    /// a sweep whose first path has only positive numbers or durations.
    func readPlot(_ n: Node?, sweep: [SweepAxis]?) -> PlotSpec? {
        guard let n else { return PlotSpec() }
        guard let o = ObjectReader(n, allowed: ["x_scale"]) else { return nil }
        guard let scale = o.optional("x_scale").map({ $0.choice(PlotAxisScale.self) }) ?? .auto else { return nil }
        if scale == .log, let sweep {
            guard let first = sweep.first?.parameters.first else {
                sink.add(n.key("x_scale"), "got \"log\" without a sweep, expected it only with one: "
                    + "the plots draw each metric against the first swept path")
                return nil
            }
            if let bad = first.values.first(where: { v in
                switch v {
                case .number(let d, _): return d <= 0
                case .string(let s): return ((try? SimDuration(parsing: s))?.seconds).map { $0 <= 0 } ?? true
                default: return true
                }
            }) {
                sink.add(n.key("x_scale"), "got \"log\" while the first swept path \(first.path) has the value "
                    + "\(SweepPoint.text(bad)), expected positive numbers or durations on a log axis (or \"linear\")")
                return nil
            }
        }
        return PlotSpec(xScale: scale)
    }

    /// `ttl_window_*` series count whole TTL windows: sampled every whole number of TTLs, on Grouper.
    func checkWindowSeries(_ s: SeriesSpec, ttl: SimDuration, _ architecture: Architecture) {
        guard let name = s.metrics.first(where: \.isPerTTLWindow) else { return }
        if architecture == .central {
            sink.add("series.metrics", "got \"\(name)\" with \"architecture\": \"central\", expected it only with "
                + "\"architecture\": \"grouper\": the central server has no TTL windows")
        } else if s.every.nanoseconds % ttl.nanoseconds != 0 {
            sink.add("series.every", "got \"\(s.every)\" with the per-TTL-window series \"\(name)\", expected a whole "
                + "multiple of group.ttl (\(ttl)) so that each sample falls at the end of a TTL window")
        }
    }

    /// Names become directory names: letters, digits, `.`, `_`, `-`; at most 64.
    func readName(_ n: Node) -> String? {
        guard let s = n.string() else { return nil }
        let ok = !s.isEmpty && s.count <= 64 && !s.hasPrefix(".") && s.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
        }
        if !ok { n.fail("a name of 1–64 ASCII letters, digits, '.', '_' or '-' (it names the results folder)") }
        return ok ? s : nil
    }

    func readGroup(_ n: Node, duration: SimDuration?) -> GroupSpec? {
        guard let o = ObjectReader(n, allowed: ["devices", "servers", "k", "n", "s", "ttl", "sweep_period",
                                                "members", "invite", "aligned_sweeps"]) else { return nil }
        let before = sink.count
        let devices = o.required("devices", "an integer in 1...1000").flatMap { $0.int(in: 1...1000) }
        let k = o.required("k", "an integer in 1...255").flatMap { $0.int(in: 1...255) }
        let nn = o.required("n", "an integer in 1...255").flatMap { $0.int(in: 1...255) }
        let s = o.required("s", "an integer in 1...255").flatMap { $0.int(in: 1...255) }
        let ttl = o.optional("ttl").map { $0.duration(positive: true) } ?? GroupSpec.defaultTTL
        let sweepPeriod = o.optional("sweep_period").map { $0.duration(positive: true) } ?? SystemConfig.defaultSweepPeriod
        if let k, let s, let nn {
            for v in ShareThreshold.violations(k: k, n: nn, s: s) { sink.add(n.key(v.parameter), v.message) }
        }
        // `servers` may repeat n (older files); GroupSpec keeps n only.
        if let raw = o.optional("servers"), let servers = raw.int(in: 1...255), let nn, servers != nn {
            sink.add(n.key("servers"), "got \(servers), expected servers = n (\(nn)): share i goes to server i")
        }
        let members = o.optional("members").map { readMembers($0, devices: devices) } ?? .some(nil)
        let aligned = o.optional("aligned_sweeps").map { $0.bool() } ?? false
        let invitations = o.optional("invite").map {
            readInvitations($0, devices: devices, members: members, duration: duration)
        } ?? []
        guard sink.count == before, let devices, let k, let nn, let s, let ttl, let sweepPeriod,
              let members, let invitations, let aligned, let threshold = try? ShareThreshold(k: k, n: nn, s: s) else { return nil }
        return GroupSpec(devices: devices, threshold: threshold, ttl: ttl, sweepPeriod: sweepPeriod,
                         members: members, invitations: invitations, alignedSweeps: aligned)
    }

    func readProtocol(_ n: Node?, ttl: SimDuration?) -> ProtocolSpec? {
        let defaults = ProtocolSpec.defaults(ttl: ttl ?? GroupSpec.defaultTTL)
        let defaultConfirm = defaults.confirm, defaultReceive = defaults.receive
        guard let n else { return defaults }
        guard let o = ObjectReader(n, allowed: ["variant", "confirm", "receive", "resend_retry", "unsent_retry",
                                                "resend_multicast_after", "rebuild", "recovery", "resend_ranges"]) else { return nil }
        let rebuild = o.optional("rebuild").map { $0.choice(RebuildPolicy.allCases.map(\.rawValue)).flatMap(RebuildPolicy.init) } ?? .firstK
        let before = sink.count
        let variant = o.optional("variant").map { $0.choice(ProtocolVariant.allCases.map(\.rawValue)).flatMap(ProtocolVariant.init) } ?? .thesis
        let confirm = o.optional("confirm").map { c -> ConfirmPolicySpec? in
            guard let co = ObjectReader(c, allowed: ["policy", "period", "on_reconnect"]) else { return nil }
            let mode = co.optional("policy").map { $0.choice(ConfirmPolicySpec.Mode.allCases.map(\.rawValue)).flatMap(ConfirmPolicySpec.Mode.init) } ?? .periodic
            let period = co.optional("period").map { $0.duration(positive: true) } ?? defaultConfirm.period
            let re = co.optional("on_reconnect").map { $0.bool() } ?? true
            if mode == .onReconnect, re == false {
                sink.add(c.key("on_reconnect"), "got false with \"policy\": \"on-reconnect\", expected true (or no on_reconnect): that policy confirms only on reconnect")
            }
            guard let mode, let period, let re else { return nil }
            return ConfirmPolicySpec(mode: mode, period: period, onReconnect: re)
        } ?? defaultConfirm
        let receive = o.optional("receive").map { r -> ReceivePolicySpec? in
            guard let ro = ObjectReader(r, allowed: ["policy", "poll_period", "on_reconnect"]) else { return nil }
            let mode = ro.optional("policy").map { $0.choice(ReceivePolicySpec.Mode.allCases.map(\.rawValue)).flatMap(ReceivePolicySpec.Mode.init) } ?? .pushAndPoll
            let period = ro.optional("poll_period").map { $0.duration(positive: true) } ?? defaultReceive.pollPeriod
            let re = ro.optional("on_reconnect").map { $0.bool() } ?? true
            guard let mode, let period, let re else { return nil }
            return ReceivePolicySpec(mode: mode, pollPeriod: period, onReconnect: re)
        } ?? defaultReceive
        let resendRetry = o.optional("resend_retry").map { $0.duration(positive: true) } ?? defaults.resendRetry
        var unsent: SimDuration?? = .some(defaults.unsentRetryPeriod)
        if let u = o.optional("unsent_retry") {
            unsent = u.value == .string("on-reconnect") ? .some(nil)
                : u.duration(positive: true).map { .some($0) } ?? nil
        }
        let shared = o.optional("resend_multicast_after").map { $0.int(in: 1...1000) } ?? .some(nil)
        let recovery = o.optional("recovery").map(readRecovery) ?? RecoveryOptions()
        let ranges = o.optional("resend_ranges").map { $0.choice(ResendRanges.allCases.map(\.rawValue)).flatMap(ResendRanges.init) } ?? .span
        guard sink.count == before, let variant, let confirm, let receive, let resendRetry, let unsent, let shared,
              let rebuild, let recovery, let ranges else { return nil }
        return ProtocolSpec(variant: variant, confirm: confirm, receive: receive, resendRetry: resendRetry,
                            resendMulticastAfter: shared, unsentRetryPeriod: unsent, rebuild: rebuild, recovery: recovery,
                            resendRanges: ranges)
    }

    func readRequire(_ n: Node?) -> [CheckerName]? {
        guard let n else { return CheckerName.allCases }
        guard case .array(let items) = n.value else {
            n.fail("a list of checker names: \(CheckerName.allCases.map(\.rawValue).joined(separator: ", ")) (may be empty)"); return nil
        }
        var out: [CheckerName] = []
        for (i, item) in items.enumerated() {
            let m = Node(value: item, path: n.index(i), sink: sink)
            guard let name = m.choice(CheckerName.self) else { continue }
            if out.contains(name) { m.fail("a checker not listed before") } else { out.append(name) }
        }
        return out.count == items.count ? out : nil
    }

    func readMetrics(_ n: Node?) -> [MetricName]? {
        guard let n else { return MetricCatalog.defaults }
        return readNames(n, MetricName.self)
    }

    /// A non-empty list of distinct names of `E` (metrics or series), each parsed once here:
    /// an unknown name is an issue at its path, with did-you-mean.
    func readNames<E: RawRepresentable & CaseIterable & Equatable>(_ n: Node, _: E.Type) -> [E]? where E.RawValue == String {
        guard case .array(let items) = n.value, !items.isEmpty else {
            n.fail("a non-empty list of metric names (see `grouper-sim list`)"); return nil
        }
        var out: [E] = []
        for (i, item) in items.enumerated() {
            let m = Node(value: item, path: n.index(i), sink: sink)
            guard let name = m.choice(E.self) else { continue }
            if out.contains(name) { m.fail("a metric not listed before") } else { out.append(name) }
        }
        return out.count == items.count ? out : nil
    }

    /// `"series": {"every": duration, "metrics": [...]}`; absent: no series (`.some(nil)`).
    func readSeries(_ n: Node?, duration: SimDuration?) -> SeriesSpec?? {
        guard let n else { return .some(nil) }
        guard let o = ObjectReader(n, allowed: ["every", "metrics"]) else { return nil }
        let before = sink.count
        let every = o.required("every", "the sampling interval, " + Node.durationHelp).flatMap { $0.duration(positive: true) }
        let names = o.required("metrics", "a non-empty list of series names (see `grouper-sim list`)").flatMap {
            readNames($0, SeriesName.self)
        }
        if let every, let d = duration {
            if every > d {
                sink.add(n.key("every"), "got \"\(every)\", expected an interval no longer than the duration (\(d))")
            } else if d.nanoseconds / every.nanoseconds > Int64(SeriesSpec.maxSamples) {
                sink.add(n.key("every"), "got \"\(every)\", expected at most \(SeriesSpec.maxSamples) samples per run (every ≥ \(SimDuration(nanoseconds: (d.nanoseconds + Int64(SeriesSpec.maxSamples) - 1) / Int64(SeriesSpec.maxSamples))))")
            }
        }
        guard sink.count == before, let every, let names else { return nil }
        return .some(SeriesSpec(every: every, metrics: names))
    }

    /// Periodic timers must not flood a run: at most `WorkloadSpec.maxEvents` expected firings
    /// per timer kind (period over the duration, times the devices or servers that run it).
    func checkTimerLoad(duration d: SimDuration, group g: GroupSpec, protocol p: ProtocolSpec) {
        var timers: [(path: String, period: SimDuration, count: Int, noun: String, note: String)] = [
            ("group.sweep_period", g.sweepPeriod, g.n, "server", ""),
        ]
        if p.confirm.mode == .periodic || p.confirm.mode == .afterReceive {
            timers.append(("protocol.confirm.period", p.confirm.period, g.devices, "device", "; it defaults to group.ttl"))
        }
        if p.receive.mode != .push { timers.append(("protocol.receive.poll_period", p.receive.pollPeriod, g.devices, "device", "")) }
        if let u = p.unsentRetryPeriod { timers.append(("protocol.unsent_retry", u, g.devices, "device", "")) }
        for t in timers {
            let expected = d.seconds / t.period.seconds * Double(t.count)
            if expected > Double(WorkloadSpec.maxEvents) {
                sink.add(t.path, "got \"\(t.period)\": about \(NumberFormat.shortest(expected.rounded())) timer firings per run over \(Wording.count(t.count, t.noun))\(t.note), expected at most \(WorkloadSpec.maxEvents): use a longer period")
            }
        }
    }
}
