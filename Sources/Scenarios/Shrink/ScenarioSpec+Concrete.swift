import SimKernel
import GrouperModel
import ScenarioFile
import GrouperBinding

/// Records what `GrouperDrivers` would schedule on a system, without running anything: the
/// writes, online/offline changes, server states, restarts and hostile switches of one run.
final class ScheduleRecorder: DrivenSystem {
    var now: SimTime { .zero }
    var writes: [ObjectWrite] { [] }
    private(set) var explicitWrites: [ExplicitWrite] = []
    /// (device 1-based, online, reason, time), in scheduling order.
    private(set) var online: [(device: Int, on: Bool, reason: Int, at: SimTime)] = []
    /// (server 1-based, state, reason, time), in scheduling order.
    private(set) var states: [(server: Int, state: ServerState, reason: Int, at: SimTime)] = []
    private(set) var restarts: [(server: Int, keepData: Bool, at: SimTime)] = []
    private(set) var hostile: [(id: Int, server: Int, behaviour: ServerMisbehaviour?, at: SimTime)] = []

    func update(device: Int, objectID: String, size: Int, at t: SimTime) {
        explicitWrites.append(ExplicitWrite(device: device + 1, at: t - .zero, kind: .update, object: Self.index(objectID), size: size))
    }
    func delete(device: Int, objectID: String, at t: SimTime) {
        explicitWrites.append(ExplicitWrite(device: device + 1, at: t - .zero, kind: .delete, object: Self.index(objectID), size: 0))
    }
    func setOnline(_ on: Bool, device: Int, reason: Int, at t: SimTime) { online.append((device + 1, on, reason, t)) }
    func invite(device: Int, at t: SimTime) {}
    func setServerState(_ state: ServerState, server: Int, reason: Int, at t: SimTime) {
        states.append((server + 1, state, reason, t))
    }
    func restartServer(_ server: Int, keepData: Bool, at t: SimTime) { restarts.append((server + 1, keepData, t)) }
    func setMisbehaviour(_ behaviour: ServerMisbehaviour?, id: Int, server: Int, at t: SimTime) {
        hostile.append((id, server + 1, behaviour, t))
    }
    func onUpdatesDelivered(device: Int, _ callback: @escaping ([String]) -> Void) {}
    func storedVersion(device: Int, objectID: String) -> ObjectVersion? { nil }
    func joinedAt(device: Int) -> SimTime? { nil }

    /// `o17` → 17 (object ids are always `o` and an index, see `GrouperDrivers.workload`).
    static func index(_ objectID: String) -> Int { Int(objectID.dropFirst()) ?? 0 }
}

extension ScenarioSpec {
    /// The same run with every random draw of its workload, churn and faults made explicit
    /// (the draws of the run with seed `runSeed`): writes at times, offline windows, fault
    /// windows and restarts. The result has no processes, so removing one element never moves
    /// another; `shrink` works on it. Collusions and invitations are kept as they are.
    func concretized(runSeed: UInt64) -> ScenarioSpec {
        let rec = ScheduleRecorder()
        var probe = self
        probe.group.invitations = []
        GrouperDrivers.schedule(probe, on: rec, streams: RandomStreams(rootSeed: runSeed), latency: LatencyRecorder())
        // Only the processes and what they draw change; every other field (chunking, object
        // count and size, whatever a field added later holds) carries over as it is.
        var out = self
        out.workload.writers = .all
        out.workload.update = nil
        out.workload.delete = nil
        out.workload.writes = rec.explicitWrites
        out.churn.devices = .all
        out.churn.process = nil
        out.churn.windows = Self.offlineWindows(rec.online)
        out.churn.startOffline = 0
        out.faults = Self.downWindows(rec.states) + rec.restarts.map {
            FaultSpec(servers: .some([$0.server]), kind: .restart(at: $0.at - .zero, keepData: $0.keepData))
        } + Self.hostileWindows(rec.hostile) + faults.filter { if case .collude = $0.kind { return true } else { return false } }
        return out
    }

    /// Each device's offline intervals, from its online/offline changes in time order: offline
    /// while any of its reasons holds (overlapping windows nest, as in the model).
    static func offlineWindows(_ changes: [(device: Int, on: Bool, reason: Int, at: SimTime)]) -> [OfflineWindow] {
        let devices = Array(Set(changes.map(\.device))).sorted()
        return devices.flatMap { d -> [OfflineWindow] in
            let mine = stableSorted(changes.filter { $0.device == d }, by: \.at)
            return intervals(effective(mine.map { ($0.on ? 0 : 1, $0.reason, $0.at) })).map {
                OfflineWindow(device: d, start: $0.start - .zero, end: ($0.end ?? $0.start) - .zero)
            }.filter { $0.end > $0.start }
        }
    }

    /// Refuse/blackhole windows per server (one entry each), from the servers' state changes.
    static func downWindows(_ changes: [(server: Int, state: ServerState, reason: Int, at: SimTime)]) -> [FaultSpec] {
        let servers = Array(Set(changes.map(\.server))).sorted()
        let codes: [ServerState] = [.up, .refusing, .blackhole]
        return servers.flatMap { s -> [FaultSpec] in
            let mine = stableSorted(changes.filter { $0.server == s }, by: \.at)
            return intervals(effective(mine.map { (codes.firstIndex(of: $0.state)!, $0.reason, $0.at) })).compactMap { iv in
                guard iv.end.map({ $0 > iv.start }) ?? true else { return nil }
                return FaultSpec(servers: .some([s]), kind: .window(mode: iv.code == 1 ? .refuse : .blackhole,
                                                                    start: iv.start - .zero, end: iv.end.map { $0 - .zero }))
            }
        }
    }

    /// Hostile behaviours as windows per (fault, server), from their switches.
    static func hostileWindows(_ switches: [(id: Int, server: Int, behaviour: ServerMisbehaviour?, at: SimTime)]) -> [FaultSpec] {
        let keys = Array(Set(switches.map { [$0.id, $0.server] })).sorted { $0.lexicographicallyPrecedes($1) }
        return keys.flatMap { key -> [FaultSpec] in
            let mine = stableSorted(switches.filter { $0.id == key[0] && $0.server == key[1] }, by: \.at)
            guard let b = mine.compactMap(\.behaviour).first else { return [] }
            return intervals(mine.map { ($0.behaviour == nil ? 0 : 1, $0.at) }).compactMap { iv in
                guard iv.end.map({ $0 > iv.start }) ?? true else { return nil }
                return FaultSpec(servers: .some([key[1]]), kind: .misbehave(b, when: .window(start: iv.start - .zero,
                                                                                            end: iv.end.map { $0 - .zero })))
            }
        }
    }

    /// The state in force after each change of one reason's state, in time order (code 0: the
    /// reason ends; the code in force is the most recently started active reason's, as
    /// `Outages` decides in the model).
    static func effective(_ changes: [(code: Int, reason: Int, at: SimTime)]) -> [(code: Int, at: SimTime)] {
        var active = Outages<Int>()
        return changes.map { c in (active.set(c.reason, c.code == 0 ? nil : c.code) ?? 0, c.at) }
    }

    /// Maximal intervals in which a state code other than 0 holds, from changes in time order
    /// (state 0 before the first); an interval still open at the end has no end.
    static func intervals(_ changes: [(code: Int, at: SimTime)]) -> [(code: Int, start: SimTime, end: SimTime?)] {
        var out: [(code: Int, start: SimTime, end: SimTime?)] = []
        var current = 0, since = SimTime.zero
        for c in changes where c.code != current {
            if current != 0 { out.append((current, since, c.at)) }
            current = c.code; since = c.at
        }
        if current != 0 { out.append((current, since, nil)) }
        return out
    }

    /// Sorted by a time key, ties kept in their original (scheduling) order.
    static func stableSorted<T>(_ xs: [T], by key: (T) -> SimTime) -> [T] {
        xs.enumerated().sorted { (key($0.element), $0.offset) < (key($1.element), $1.offset) }.map(\.element)
    }
}
