import SimKernel

extension ScenarioReader {
    /// `"schedule": [{"at", "device", "do", …}, …]`: commands at given times, each checked
    /// against the group and the run's length (before the settle period, if any).
    func readSchedule(_ n: Node?, devices: Int?, duration: SimDuration?, settle: SimDuration?) -> [ScheduledCommand]? {
        guard let n else { return [] }
        guard case .array(let items) = n.value else {
            n.fail("a list of {\"at\", \"device\", \"do\"} commands (do: \(ScheduledCommand.actionNames.joined(separator: ", ")))")
            return nil
        }
        if items.count > WorkloadSpec.maxEvents {
            n.fail("at most \(WorkloadSpec.maxEvents) commands"); return nil
        }
        let before = sink.count
        let quiet = duration.map { d in settle.map { d - $0 } ?? d }
        var out: [ScheduledCommand] = []
        out.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            if let c = readCommand(Node(value: item, path: n.index(i), sink: sink), devices: devices,
                                   end: quiet, settles: (settle ?? .zero) > .zero) { out.append(c) }
        }
        return sink.count == before ? out : nil
    }

    private func readCommand(_ e: Node, devices: Int?, end: SimDuration?, settles: Bool) -> ScheduledCommand? {
        guard let o = ObjectReader(e, allowed: ["at", "device", "do", "to", "first", "last"]) else { return nil }
        let deviceHelp = "a device number in 1...\(devices.map(String.init) ?? "N")"
        let device = o.required("device", deviceHelp).flatMap { $0.int(in: 1...(devices ?? 1000)) }
        let at = o.required("at", Node.durationHelp).flatMap { $0.duration(positive: false) }
        let action = o.required("do", "one of \(ScheduledCommand.actionNames.joined(separator: ", "))")
            .flatMap { $0.choice(ScheduledCommand.actionNames) }
        if let at, let end, at >= end {
            sink.add(e.key("at"), "got \"\(at)\", expected a time before " + (settles ? "the settle period (\(end))" : "the end of the run (\(end))"))
        }
        guard let action else { return nil }
        guard action == "resend" else {
            for k in ["to", "first", "last"] where o.has(k) {
                sink.add(e.key(k), "'\(k)' belongs to a \"resend\" command; \"\(action)\" takes only at, device, do")
            }
            guard let device, let at else { return nil }
            let simple: ScheduledCommand.Action = switch action {
            case "confirm": .confirm
            case "receive": .receive
            case "offline": .offline
            default: .online
            }
            return ScheduledCommand(at: at, device: device, action: simple)
        }
        let to = o.required("to", "the requesting device, " + deviceHelp).flatMap { $0.int(in: 1...(devices ?? 1000)) }
        let first = o.required("first", "the first sequence number asked for, an integer in 1...100000000")
            .flatMap { $0.int(in: 1...100_000_000) }
        let last = o.required("last", "the last sequence number asked for, an integer in 1...100000000")
            .flatMap { $0.int(in: 1...100_000_000) }
        if let to, let device, to == device {
            sink.add(e.key("to"), "got \(to), expected another device than the one answering (device \(device))")
        }
        if let first, let last, last < first {
            sink.add(e.key("last"), "got \(last), expected last ≥ first (\(first))")
        }
        guard let device, let at, let to, let first, let last, to != device, last >= first else { return nil }
        return ScheduledCommand(at: at, device: device, action: .resend(requester: to, first: first, last: last))
    }
}
