import SimKernel

extension ScenarioReader {
    /// `"members": [1, 2, 5]`: distinct device numbers including the owner, device 1.
    func readMembers(_ n: Node, devices: Int?) -> [Int]?? {
        let expected = "a non-empty list of distinct device numbers, device 1 (the owner) among them"
        guard case .array = n.value else { n.fail(expected); return nil }
        guard let sel = n.selection(count: devices, noun: "device") else { return nil }
        guard case .some(let list) = sel else { return nil }  // DeviceSelection.some, never .all here
        guard list.contains(1) else {
            n.fail("a list with device 1 in it: device 1 owns the group and is always a member")
            return nil
        }
        return .some(list.sorted())
    }

    /// `"invite": [{"device": 7, "at": "2d", "by": 1}, …]`: each device once, not a member from
    /// the start, at a time before the end of the run, by the owner. `members` as `readMembers`
    /// returned it (nil: invalid, so membership is not checked again).
    func readInvitations(_ n: Node, devices: Int?, members: [Int]??, duration: SimDuration?) -> [Invitation]? {
        guard case .array(let items) = n.value else { n.fail("a list of {\"device\", \"at\", \"by\"} objects"); return nil }
        let before = sink.count
        var out: [Invitation] = []
        for (i, item) in items.enumerated() {
            let e = Node(value: item, path: n.index(i), sink: sink)
            guard let o = ObjectReader(e, allowed: ["device", "at", "by"]) else { continue }
            let device = o.required("device", "a device number in 1...\(devices.map(String.init) ?? "N")")
                .flatMap { $0.int(in: 1...(devices ?? 1000)) }
            let at = o.required("at", Node.durationHelp).flatMap { $0.duration(positive: false) }
            let by = o.optional("by").map { $0.int(in: 1...(devices ?? 1000)) } ?? 1
            if let device, let members {
                let initial = members ?? Array(1...(devices ?? device))
                if initial.contains(device) {
                    sink.add(e.key("device"), "got \(device), expected a device that is not a member from the start "
                        + "(group.members: \(initial.map(String.init).joined(separator: ", ")))")
                } else if out.contains(where: { $0.device == device }) {
                    sink.add(e.key("device"), "got \(device), expected a device not invited before")
                }
            }
            if let at, let d = duration, at >= d {
                sink.add(e.key("at"), "got \"\(at)\", expected a time before the end of the run (\(d))")
            }
            if let by, by != 1 {
                sink.add(e.key("by"), "got \(by), expected 1: only the owner (device 1) holds the master keys that add a member")
            }
            if let device, let at, let by { out.append(Invitation(device: device, at: at, by: by)) }
        }
        return sink.count == before ? out : nil
    }
}
