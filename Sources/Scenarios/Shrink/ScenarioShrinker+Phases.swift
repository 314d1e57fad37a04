import SimKernel
import GrouperModel
import ScenarioFile
import Plan

extension ScenarioShrinker {
    /// The outcome of a shrink: the smallest scenario found and the replication that fails it.
    public struct Outcome: Sendable {
        public var spec: ScenarioSpec
        public var replication: Int
        public var target: Target
        public var runs: Int
    }

    /// Shrinks `spec` (one sweep point) whose run `replication` fails `target`.
    public mutating func shrink(_ spec: ScenarioSpec, replication: Int, target: Target) throws -> Outcome {
        var current = spec
        current.series = nil
        current.replications = replication + 1
        let concrete = current.concretized(runSeed: RunPlan.runSeed(scenarioSeed: spec.seed, replication: replication))
        var rep = replication
        if try fails(concrete, replication: rep, target) {
            current = concrete
            progress("shrink: made the run's random draws explicit: \(Self.size(current))")
            // Without random draws left in the schedule, replication 0 often fails alike: a file
            // that fails on its own first run is the simplest to replay.
            if rep > 0, try fails(current, replication: 0, target) { rep = 0 }
        } else {
            progress("shrink: the explicit schedule does not fail the same way; shrinking the scenario as written")
        }
        for round in 1...8 {
            let before = current
            current = try shrinkTime(current, rep, target)
            current = try shrinkDevices(current, rep, target)
            current = try shrinkServers(current, rep, target)
            current = try shrinkElements(current, rep, target)
            progress("shrink: round \(round): \(Self.size(current)) (\(runs) runs so far)")
            if current == before { break }
        }
        current = try tidy(current, rep, target)
        current.replications = rep + 1
        return Outcome(spec: current, replication: rep, target: target, runs: runs)
    }

    mutating func shrinkElements(_ spec: ScenarioSpec, _ rep: Int, _ target: Target) throws -> ScenarioSpec {
        let all = spec.elements
        guard !all.isEmpty else { return spec }
        let kept = try DeltaDebugging.minimize(all) { try firstFailing($0.map(spec.keeping), replication: rep, target) }
        return spec.keeping(kept)
    }

    mutating func shrinkDevices(_ spec: ScenarioSpec, _ rep: Int, _ target: Target) throws -> ScenarioSpec {
        guard spec.group.devices > 1 else { return spec }
        let others = Array(2...spec.group.devices)
        let kept = try DeltaDebugging.minimize(others) { cands in
            try firstFailing(cands.map { spec.keeping(devices: [1] + $0) }, replication: rep, target)
        }
        return spec.keeping(devices: [1] + kept)
    }

    mutating func shrinkServers(_ spec: ScenarioSpec, _ rep: Int, _ target: Target) throws -> ScenarioSpec {
        guard spec.group.n > 1 else { return spec }
        var servers = Array(1...spec.group.n)
        // ddmin's empty set is no group; keep at least one server by testing subsets of the rest.
        let first = servers.removeFirst()
        let kept = try DeltaDebugging.minimize(servers) { cands in
            try firstFailing(cands.map { spec.keeping(servers: [first] + $0) }, replication: rep, target)
        }
        return spec.keeping(servers: [first] + kept)
    }

    /// Shorter activity (down to 1/16 of it, in whole seconds). The settle period keeps its
    /// length: a shorter one turns a failure of recovery into "no time to recover", which every
    /// variant and every correct model fails too. Cuts that would move a window's end to the end
    /// of the run are not tried (`cut(active:)`).
    mutating func shrinkTime(_ spec: ScenarioSpec, _ rep: Int, _ target: Target) throws -> ScenarioSpec {
        var current = spec
        while true {
            let active = current.duration - current.settle
            let cuts = Self.cutFractions.map { Self.wholeSeconds(active.seconds * $0) }.filter { $0 < active }
                .compactMap { c in current.cut(active: c) }
            guard let hit = try firstFailing(cuts, replication: rep, target) else { break }
            current = cuts[hit]
        }
        return current
    }

    /// The schedule's times on whole minutes, else whole seconds, if it still fails alike.
    mutating func tidy(_ spec: ScenarioSpec, _ rep: Int, _ target: Target) throws -> ScenarioSpec {
        let options = [SimDuration.seconds(60), .seconds(1)].map(spec.roundedTimes)
        guard let hit = try firstFailing(options, replication: rep, target) else { return spec }
        progress("shrink: times rounded to whole \(hit == 0 ? "minutes" : "seconds")")
        return options[hit]
    }

    static let cutFractions: [Double] = [1.0 / 16, 1.0 / 8, 1.0 / 4, 1.0 / 2, 3.0 / 4]

    /// `seconds` rounded up to whole seconds, at least 1 s.
    static func wholeSeconds(_ seconds: Double) -> SimDuration {
        let whole: Double = max(1, seconds.rounded(.up))
        return SimDuration.seconds(Int64(whole))
    }

    /// "3 devices, 3 servers f(2,3,3), 12 writes, 4 offline windows, 1 fault, 0 invitations, 2d (settle 12h)".
    public static func size(_ s: ScenarioSpec) -> String {
        let g = s.group
        var parts = [Wording.count(g.devices, "device"), Wording.count(g.n, "server") + " f(\(g.k),\(g.n),\(g.s))", Wording.count(s.workload.writes.count, "write")]
        if s.workload.update != nil || s.workload.delete != nil { parts.append("write processes") }
        parts.append(Wording.count(s.churn.windows.count, "offline window"))
        if s.churn.process != nil { parts.append("a churn process") }
        parts += [Wording.count(s.faults.count, "fault"), Wording.count(g.invitations.count, "invitation"), "\(s.duration) (settle \(s.settle))"]
        return parts.joined(separator: ", ")
    }
}
