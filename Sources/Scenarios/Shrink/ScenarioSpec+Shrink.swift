import SimKernel
import GrouperModel
import ScenarioFile

/// The edits `shrink` tries on a concrete scenario (`concretized`): each returns a smaller
/// scenario that is valid whenever the input is.
extension ScenarioSpec {
    /// One removable part of the scenario's schedule.
    enum Element: Equatable, Sendable {
        case write(Int), window(Int), fault(Int), invitation(Int)
        /// The `network` block's faults (all of them; listed only when they are on).
        case network
    }

    /// Every removable part, in a fixed order: writes, windows, faults, invitations, network faults.
    var elements: [Element] {
        workload.writes.indices.map(Element.write) + churn.windows.indices.map(Element.window)
            + faults.indices.map(Element.fault) + group.invitations.indices.map(Element.invitation)
            + (network.isOff ? [] : [.network])
    }

    /// The scenario with only the parts in `keep` (a subset of `elements`).
    func keeping(_ keep: [Element]) -> ScenarioSpec {
        var out = self
        out.workload.writes = workload.writes.indices.filter { keep.contains(.write($0)) }.map { workload.writes[$0] }
        out.churn.windows = churn.windows.indices.filter { keep.contains(.window($0)) }.map { churn.windows[$0] }
        out.faults = faults.indices.filter { keep.contains(.fault($0)) }.map { faults[$0] }
        out.group.invitations = group.invitations.indices.filter { keep.contains(.invitation($0)) }.map { group.invitations[$0] }
        if !keep.contains(.network) { out.network = NetworkFaults() }
        return out
    }

    /// The scenario with only the devices in `keep` (1-based, sorted, device 1 among them),
    /// renumbered 1, 2, …; everything the other devices did is dropped.
    func keeping(devices keep: [Int]) -> ScenarioSpec {
        func map(_ d: Int) -> Int? { keep.firstIndex(of: d).map { $0 + 1 } }
        var out = self
        out.group.devices = keep.count
        out.group.members = group.members.map { $0.compactMap(map) }
        out.group.invitations = group.invitations.compactMap { i in map(i.device).map { var c = i; c.device = $0; return c } }
        out.workload.writes = workload.writes.compactMap { w in map(w.device).map { var c = w; c.device = $0; return c } }
        out.churn.windows = churn.windows.compactMap { w in map(w.device).map { var c = w; c.device = $0; return c } }
        out.workload.writers = Self.renumbered(workload.writers, map)
        out.churn.devices = Self.renumbered(churn.devices, map)
        if out.workload.writers == .some([]) { out.workload.writers = .all; out.workload.update = nil; out.workload.delete = nil }
        if out.churn.devices == .some([]) { out.churn.devices = .all; out.churn.process = nil; out.churn.startOffline = 0 }
        return out
    }

    /// The scenario on the servers in `keep` (1-based, sorted, not empty), renumbered; n and
    /// the servers follow, s and k are lowered to fit (k ≤ s ≤ n). Faults of only removed
    /// servers are dropped.
    func keeping(servers keep: [Int]) -> ScenarioSpec {
        func map(_ s: Int) -> Int? { keep.firstIndex(of: s).map { $0 + 1 } }
        var out = self
        out.group.threshold = group.threshold.onServers(keep.count)
        out.faults = faults.compactMap { f in
            let sel = Self.renumbered(f.servers, map)
            if sel == .some([]) { return nil }
            var c = f; c.servers = sel; return c
        }
        return out
    }

    /// The scenario cut to `active` of activity followed by its settle period: parts that
    /// start later are dropped, windows end by the new end of the run. Nil when the cut would
    /// move the end of a window (offline, server fault or misbehaviour) that ended before the
    /// run's end to the new end of the run: a device or server that comes back at the last
    /// instant fails every checker for that reason alone, which is not the failure being kept.
    func cut(active: SimDuration) -> ScenarioSpec? {
        var out = self
        out.duration = active + settle
        let end = out.duration, quiet = active
        /// The window's new end, or nil (the cut is refused) when it would be moved to the end of the run.
        func clamp(_ e: SimDuration) -> SimDuration?? {
            if e <= end { return .some(e) }
            return e >= duration ? .some(end) : .none
        }
        var refused = false
        out.warmup = warmup < quiet ? warmup : .zero
        out.workload.writes = workload.writes.filter { $0.at < quiet }
        out.churn.windows = churn.windows.filter { $0.start < quiet }.compactMap { w in
            guard let e = clamp(w.end) else { refused = true; return nil }
            var c = w; c.end = e!; return c
        }
        out.group.invitations = group.invitations.filter { $0.at < end }
        out.faults = faults.compactMap { f in
            switch f.kind {
            case .window(let mode, let start, let stop):
                guard start < quiet else { return nil }
                guard let e = stop.map(clamp) else { return f }
                guard let e else { refused = true; return nil }
                var c = f; c.kind = .window(mode: mode, start: start, end: e); return c
            case .restart(let at, _): return at < quiet ? f : nil
            case .misbehave(let b, .window(let start, let stop)):
                guard start < quiet else { return nil }
                guard let e = stop.map(clamp) else { return f }
                guard let e else { refused = true; return nil }
                var c = f; c.kind = .misbehave(b, when: .window(start: start, end: e)); return c
            default: return f
            }
        }
        if refused { return nil }
        if let s = series, s.every > out.duration { out.series = nil }
        return out
    }

    /// Every time of the schedule on a multiple of `unit`: starts and write times rounded down,
    /// ends up (a window keeps a positive length), for a file that reads well.
    func roundedTimes(to unit: SimDuration) -> ScenarioSpec {
        let u = unit.nanoseconds
        func down(_ d: SimDuration) -> SimDuration { SimDuration(nanoseconds: d.nanoseconds / u * u) }
        func up(_ d: SimDuration) -> SimDuration { SimDuration(nanoseconds: (d.nanoseconds + u - 1) / u * u) }
        var out = self
        out.workload.writes = workload.writes.map { var w = $0; w.at = down(w.at); return w }
        out.churn.windows = churn.windows.map { var w = $0; w.start = down(w.start); w.end = up(w.end); return w }
        out.group.invitations = group.invitations.map { var i = $0; i.at = down(i.at); return i }
        out.faults = faults.map { f in
            var c = f
            switch f.kind {
            case .window(let mode, let start, let end): c.kind = .window(mode: mode, start: down(start), end: end.map(up))
            case .restart(let at, let keep): c.kind = .restart(at: down(at), keepData: keep)
            case .misbehave(let b, .window(let start, let end)): c.kind = .misbehave(b, when: .window(start: down(start), end: end.map(up)))
            default: break
            }
            return c
        }
        return out
    }

    static func renumbered(_ sel: DeviceSelection, _ map: (Int) -> Int?) -> DeviceSelection {
        switch sel {
        case .all: return .all
        case .some(let l): return .some(l.compactMap(map))
        }
    }
}
