import SimKernel
import Format

extension ScenarioReader {
    /// `what` is the unit: `.duration` reads duration strings (stored in seconds),
    /// otherwise plain non-negative numbers (bytes).
    func readDistribution(_ n: Node, durations: Bool) -> DistributionSpec? {
        let scalarHelp = durations ? Node.durationHelp : "a non-negative number"
        let expected = "\(scalarHelp) or {\"dist\": \"constant\"|\"uniform\"|\"exponential\"|\"lognormal\", …}"
        func scalar(_ m: Node, positive: Bool) -> Double? {
            if durations { return m.duration(positive: positive)?.seconds }
            return m.double(in: (positive ? Double.leastNonzeroMagnitude : 0)...Double.greatestFiniteMagnitude,
                            positive ? "a positive number" : "a non-negative number")
        }
        switch n.value {
        case .string where durations: return scalar(n, positive: false).map(DistributionSpec.constant)
        case .number where !durations: return scalar(n, positive: false).map(DistributionSpec.constant)
        case .object: break
        default: n.fail(expected); return nil
        }
        guard let o = ObjectReader(n, allowed: ["dist", "value", "min", "max", "mean", "median", "sigma"]) else { return nil }
        guard let kindNode = o.required("dist", "one of \"constant\", \"uniform\", \"exponential\", \"lognormal\""),
              let kind = kindNode.choice(["constant", "uniform", "exponential", "lognormal"]) else { return nil }
        let keys: [String: [String]] = ["constant": ["value"], "uniform": ["min", "max"],
                                        "exponential": ["mean"], "lognormal": ["median", "sigma"]]
        let mine = keys[kind]!
        for (k, _) in o.members where k != "dist" && !mine.contains(k) {
            sink.add(n.key(k), "key '\(k)' does not apply to a \(kind) distribution; it takes: \(mine.joined(separator: ", "))")
        }
        switch kind {
        case "constant": return o.required("value", scalarHelp).flatMap { scalar($0, positive: false) }.map(DistributionSpec.constant)
        case "exponential": return o.required("mean", scalarHelp).flatMap { scalar($0, positive: true) }.map(DistributionSpec.exponential)
        case "uniform":
            guard let lo = o.required("min", scalarHelp).flatMap({ scalar($0, positive: false) }),
                  let hi = o.required("max", scalarHelp).flatMap({ scalar($0, positive: false) }) else { return nil }
            if hi < lo { sink.add(n.key("max"), "got \(o.optional("max")!.value.brief), expected max ≥ min"); return nil }
            return .uniform(min: lo, max: hi)
        default:
            guard let med = o.required("median", scalarHelp).flatMap({ scalar($0, positive: true) }),
                  let sg = o.required("sigma", "a number in [0, 10]").flatMap({ $0.double(in: 0...10, "a number in [0, 10]") })
            else { return nil }
            return .lognormal(median: med, sigma: sg)
        }
    }

    /// `{"every": dist, "start", "stop", "limit"}` or `{"burst": N, "at": time}`.
    func readProcess(_ n: Node, duration: SimDuration?) -> ArrivalProcess? {
        guard let o = ObjectReader(n, allowed: ["every", "start", "stop", "limit", "burst", "at"]) else { return nil }
        if o.has("burst") {
            for k in ["every", "start", "stop", "limit"] where o.has(k) {
                sink.add(n.key(k), "a burst takes only 'burst' and 'at'; use either every/start/stop/limit or burst/at")
            }
            guard let count = o.optional("burst")!.int(in: 1...1_000_000),
                  let at = o.optional("at").map({ $0.duration(positive: false) }) ?? .zero else { return nil }
            if let d = duration, at >= d { sink.add(n.key("at"), "got \"\(at)\", expected a time before the end of the run (\(d))") }
            return .burst(count: count, at: at)
        }
        if o.has("at") { sink.add(n.key("at"), "'at' belongs to a burst; a renewal process uses start/stop") }
        guard let every = o.required("every", "an inter-arrival distribution (e.g. {\"dist\": \"exponential\", \"mean\": \"15min\"})")
            .flatMap({ readDistribution($0, durations: true) }) else { return nil }
        if every.mean <= 0 { sink.add(n.key("every"), "got a distribution with mean 0, expected a positive mean gap") }
        let start = o.optional("start").map { $0.duration(positive: false) } ?? .zero
        let stop = o.optional("stop").map { $0.duration(positive: true) }
        let limit = o.optional("limit").map { $0.int(in: 1...100_000_000) }
        if let start, let stop = stop ?? nil, stop <= start {
            sink.add(n.key("stop"), "got \"\(stop)\", expected a stop after start (\(start))")
        }
        guard let start, stop != .some(nil), limit != .some(nil), every.mean > 0 else { return nil }
        return .renewal(every: every, start: start, stop: stop ?? nil, limit: limit ?? nil)
    }

    func readWorkload(_ n: Node?, devices: Int?, duration: SimDuration?) -> WorkloadSpec? {
        guard let n else {
            return WorkloadSpec(writers: .all, update: nil, delete: nil, objects: 100, objectSize: .constant(323))
        }
        guard let o = ObjectReader(n, allowed: ["writers", "update", "delete", "objects", "object_size", "writes", "chunking"]) else { return nil }
        let before = sink.count
        let writers = o.optional("writers").map { $0.selection(count: devices, noun: "device") } ?? .all
        let update = o.optional("update").map { readProcess($0, duration: duration) }
        let delete = o.optional("delete").map { readProcess($0, duration: duration) }
        let objects = o.optional("objects").map { $0.int(in: 1...10_000_000) } ?? 100
        let size = o.optional("object_size").map { readDistribution($0, durations: false) } ?? .constant(323)
        if let size, size.mean < 1 { sink.add(n.key("object_size"), "got a mean size below 1 byte, expected ≥ 1") }
        let chunking = o.optional("chunking").map(readChunking)
        if let size, let c = chunking ?? nil, let writers, let duration {
            let updates = (update ?? nil).map { $0.expectedEvents(in: duration) * Double(writers.count(of: devices ?? 1)) } ?? 0
            checkChunkedSizes(n, size: size, chunking: c, expectedUpdates: updates)
        } else if chunking == nil, let size, size.largestBound > Double(WorkloadSpec.maxObjectSize) {
            sink.add(n.key("object_size"), "got sizes up to \(NumberFormat.shortest(size.largestBound)) bytes, expected at most \(WorkloadSpec.maxObjectSize) (16 MiB; larger draws of an unbounded distribution are cut to it)")
        }
        if let duration, let writers {
            let count = writers.count(of: devices ?? 1)
            for (key, process) in [("update", update), ("delete", delete)] {
                guard let p = process ?? nil else { continue }
                let expected = p.expectedEvents(in: duration) * Double(count)
                if expected > Double(WorkloadSpec.maxEvents) {
                    sink.add(n.key(key), "expects about \(NumberFormat.shortest(expected.rounded())) events per run over \(count) writer(s), expected at most \(WorkloadSpec.maxEvents): lengthen 'every' or set 'limit'")
                }
            }
        }
        let writes = o.optional("writes").map { readWrites($0, devices: devices, objects: objects, size: size, duration: duration,
                                                                         chunking: chunking ?? nil) }
        guard sink.count == before, let writers, let objects, let size,
              update != .some(nil), delete != .some(nil), writes != .some(nil), chunking != .some(nil) else { return nil }
        return WorkloadSpec(writers: writers, update: update ?? nil, delete: delete ?? nil, objects: objects, objectSize: size,
                            chunking: chunking ?? nil, writes: (writes ?? nil) ?? [])
    }

    func readChurn(_ n: Node?, devices: Int?, duration: SimDuration?) -> ChurnSpec? {
        guard let n else { return ChurnSpec.none }
        guard let o = ObjectReader(n, allowed: ["devices", "online", "offline", "start_offline", "windows"]) else { return nil }
        let before = sink.count
        let sel = o.optional("devices").map { $0.selection(count: devices, noun: "device") } ?? .all
        var process: (online: DistributionSpec, offline: DistributionSpec)? = nil
        if o.has("online") || o.has("offline") {
            let on = o.required("online", "how long a device stays online (a distribution of durations)")
                .flatMap { readDistribution($0, durations: true) }
            let off = o.required("offline", "how long a device stays offline (a distribution of durations)")
                .flatMap { readDistribution($0, durations: true) }
            if let on, on.mean <= 0 { sink.add(n.key("online"), "got a mean of 0, expected a positive mean online time") }
            if let on, let off { process = (on, off) }
            if let on, let off, on.mean > 0, let duration, let sel {
                let expected = 2 * duration.seconds / (on.typicalGap + off.typicalGap) * Double(sel.count(of: devices ?? 1))
                if expected > Double(WorkloadSpec.maxEvents) {
                    sink.add(n.key("online"), "expects about \(NumberFormat.shortest(expected.rounded())) online/offline changes per run, expected at most \(WorkloadSpec.maxEvents): lengthen 'online' or 'offline'")
                }
            }
        }
        let startOffline = o.optional("start_offline").map { $0.probability() } ?? 0
        if let p = startOffline, p > 0, process == nil, !(o.has("online") || o.has("offline")) {
            sink.add(n.key("start_offline"), "got \(NumberFormat.shortest(p)), but it applies only with an online/offline process")
        }
        var windows: [OfflineWindow] = []
        if let w = o.optional("windows") {
            if case .array(let items) = w.value {
                for (i, item) in items.enumerated() {
                    let wn = Node(value: item, path: w.index(i), sink: sink)
                    if let win = readWindow(wn, devices: devices, duration: duration) { windows.append(win) }
                }
            } else { w.fail("a list of {\"device\", \"start\", \"end\"} windows") }
        }
        guard sink.count == before, let sel, let startOffline else { return nil }
        return ChurnSpec(devices: sel, process: process, windows: windows, startOffline: startOffline)
    }

    private func readWindow(_ n: Node, devices: Int?, duration: SimDuration?) -> OfflineWindow? {
        guard let o = ObjectReader(n, allowed: ["device", "start", "end"]) else { return nil }
        let device = o.required("device", "a device number in 1...\(devices.map(String.init) ?? "N")")
            .flatMap { $0.int(in: 1...(devices ?? 1000)) }
        let start = o.required("start", Node.durationHelp).flatMap { $0.duration(positive: false) }
        let end = o.required("end", Node.durationHelp).flatMap { $0.duration(positive: true) }
        if let start, let end, end <= start { sink.add(n.key("end"), "got \"\(end)\", expected an end after start (\(start))") }
        if let start, let d = duration, start >= d {
            sink.add(n.key("start"), "got \"\(start)\", expected a start before the end of the run (\(d))")
        }
        guard let device, let start, let end, end > start else { return nil }
        return OfflineWindow(device: device, start: start, end: end)
    }
}
