import SimKernel
import GrouperModel
import ScenarioFile

/// Turns a scenario's workload, churn and faults into commands on a `GrouperSystem`,
/// all scheduled before the run starts. Each process draws from its own named
/// stream, so adding a device or a fault never changes another process's draws.
///
/// Settle: from `quiet = duration − settle` on there are no writes, every device is online and
/// every server up and honest but for a hostile fault without a window or process. Workload
/// events at or after `quiet` are dropped; with a settle period, churn windows, fault windows
/// and hostile windows are clipped at `quiet` (dropped if they start in it), restarts in it are
/// dropped, and a schedule's `offline` with no `online` after it ends at `quiet`.
///
/// Overlapping windows nest: each churn process, churn window, fault entry and the schedule is
/// its own reason (`Reason`), and a device is offline (a server down) while any of its reasons
/// holds (`Outages` in the model).
package enum GrouperDrivers {
    /// The reason numbers the drivers give the model.
    enum Reason {
        /// The schedule's `offline`/`online` (the model's default reason).
        static let schedule = defaultOutageReason
        /// A device's churn process.
        static let churnProcess = 1
        /// Churn window `i` (its index in `churn.windows`).
        static func churnWindow(_ i: Int) -> Int { 2 + i }
        /// Fault entry `i` (its index in `faults`) on each of its servers.
        static func fault(_ i: Int) -> Int { 1 + i }
    }

    package static func schedule(_ spec: ScenarioSpec, on system: any DrivenSystem, streams: RandomStreams, latency: LatencyRecorder,
                         propagation: PropagationRecorder? = nil) {
        let end = SimTime.zero + spec.duration
        let quiet = end - spec.settle
        workload(spec, system, streams, end: spec.settle > .zero ? quiet : end)
        churn(spec, system, streams, quiet: quiet)
        faults(spec, system, streams, quiet: quiet)
        for i in spec.group.invitations { system.invite(device: i.device - 1, at: SimTime.zero + i.at) }
        let propagation = propagation?.isRecording == true ? propagation : nil
        guard latency.isRecording || propagation != nil else { return }
        for d in 0..<spec.group.devices {
            system.onUpdatesDelivered(device: d) { [unowned system] ids in
                if latency.isRecording { latency.record(ids, on: system) }
                propagation?.observe(device: d, on: system)
            }
        }
    }

    /// Event times of an arrival process, in order, before `end`.
    static func times(_ p: ArrivalProcess, end: SimTime, rng: inout Xoshiro256StarStar) -> [SimTime] {
        switch p {
        case .burst(let count, let at):
            return SimTime.zero + at < end ? Array(repeating: SimTime.zero + at, count: count) : []
        case .renewal(let every, let start, let stop, let limit):
            let last = min(end, stop.map { SimTime.zero + $0 } ?? end)
            var out: [SimTime] = []
            var t = SimTime.zero + start
            while out.count < (limit ?? Int.max) {
                guard let next = advance(t, by: every.sample(using: &rng), before: last) else { break }
                t = next
                out.append(t)
            }
            return out
        }
    }

    static func workload(_ spec: ScenarioSpec, _ system: any DrivenSystem, _ streams: RandomStreams, end: SimTime) {
        let w = spec.workload
        for d in 1...spec.group.devices where w.writers.contains(d) {
            if let u = w.update {
                var rng = streams.stream(named: "workload/device-\(d)/update")
                for t in times(u, end: end, rng: &rng) {
                    let size = w.drawSize(using: &rng)
                    system.update(device: d - 1, objectID: "o\(rng.nextInt(below: w.objects))", size: size, at: t)
                }
            }
            if let del = w.delete {
                var rng = streams.stream(named: "workload/device-\(d)/delete")
                for t in times(del, end: end, rng: &rng) {
                    system.delete(device: d - 1, objectID: "o\(rng.nextInt(below: w.objects))", at: t)
                }
            }
        }
        for e in w.writes where SimTime.zero + e.at < end {
            switch e.kind {
            case .update: system.update(device: e.device - 1, objectID: "o\(e.object)", size: e.size, at: SimTime.zero + e.at)
            case .delete: system.delete(device: e.device - 1, objectID: "o\(e.object)", at: SimTime.zero + e.at)
            }
        }
    }

    static func churn(_ spec: ScenarioSpec, _ system: any DrivenSystem, _ streams: RandomStreams, quiet: SimTime) {
        let c = spec.churn
        if let (on, off) = c.process {
            for d in 1...spec.group.devices where c.devices.contains(d) {
                var rng = streams.stream(named: "churn/device-\(d)")
                let reason = Reason.churnProcess
                var online = !rng.chance(c.startOffline)
                if !online { system.setOnline(false, device: d - 1, reason: reason, at: .zero) }
                var t = SimTime.zero
                while true {
                    guard let next = advance(t, by: (online ? on : off).sample(using: &rng), before: quiet) else { break }
                    t = next
                    online.toggle()
                    system.setOnline(online, device: d - 1, reason: reason, at: t)
                }
                if !online || spec.settle > .zero { system.setOnline(true, device: d - 1, reason: reason, at: quiet) }
            }
        }
        let settles = spec.settle > .zero
        for (i, win) in c.windows.enumerated() {
            let start = SimTime.zero + win.start, end = SimTime.zero + win.end
            if settles && start >= quiet { continue }
            system.setOnline(false, device: win.device - 1, reason: Reason.churnWindow(i), at: start)
            system.setOnline(true, device: win.device - 1, reason: Reason.churnWindow(i), at: settles ? min(end, quiet) : end)
        }
    }

    static func faults(_ spec: ScenarioSpec, _ system: any DrivenSystem, _ streams: RandomStreams, quiet: SimTime) {
        let settles = spec.settle > .zero
        for (i, f) in spec.faults.enumerated() {
            for srv in 1...spec.group.n where f.servers.contains(srv) {
                switch f.kind {
                case .window(let mode, let start, let end):
                    let from = SimTime.zero + start, to = end.map { SimTime.zero + $0 }
                    if settles && from >= quiet { continue }
                    system.setServerState(state(mode), server: srv - 1, reason: Reason.fault(i), at: from)
                    if settles { system.setServerState(.up, server: srv - 1, reason: Reason.fault(i), at: min(to ?? quiet, quiet)) }
                    else if let to { system.setServerState(.up, server: srv - 1, reason: Reason.fault(i), at: to) }
                case .process(let mode, let up, let down):
                    var rng = streams.stream(named: "faults/\(i)/server-\(srv)")
                    alternate(up: up, down: down, rng: &rng, quiet: quiet) { isUp, t in
                        system.setServerState(isUp ? .up : state(mode), server: srv - 1, reason: Reason.fault(i), at: t)
                    }
                case .restart(let at, let keep):
                    if settles && SimTime.zero + at >= quiet { continue }
                    system.restartServer(srv - 1, keepData: keep, at: SimTime.zero + at)
                case .misbehave(let b, let when):
                    misbehave(b, when, id: i, server: srv, system, streams, quiet: quiet, settles: settles)
                case .collude: break   // a configuration, see GrouperExecutor.config
                }
            }
        }
    }

    /// Switches a hostile behaviour on and off as its activity says. Like the down faults, a
    /// process stops and a window ends at the start of the settle period (a window that starts
    /// in it is dropped), leaving the server honest; a behaviour with neither lasts the whole run.
    static func misbehave(_ b: ServerMisbehaviour, _ when: FaultActivity, id: Int, server srv: Int,
                          _ system: any DrivenSystem, _ streams: RandomStreams, quiet: SimTime, settles: Bool) {
        switch when {
        case .always: system.setMisbehaviour(b, id: id, server: srv - 1, at: .zero)
        case .window(let start, let end):
            let from = SimTime.zero + start, to = end.map { SimTime.zero + $0 }
            if settles && from >= quiet { return }
            system.setMisbehaviour(b, id: id, server: srv - 1, at: from)
            if settles { system.setMisbehaviour(nil, id: id, server: srv - 1, at: min(to ?? quiet, quiet)) }
            else if let to { system.setMisbehaviour(nil, id: id, server: srv - 1, at: to) }
        case .process(let up, let down):
            var rng = streams.stream(named: "faults/\(id)/server-\(srv)")
            alternate(up: up, down: down, rng: &rng, quiet: quiet) { honest, t in
                system.setMisbehaviour(honest ? nil : b, id: id, server: srv - 1, at: t)
            }
        }
    }

    /// Alternating up/down periods from time 0 (up first) until `quiet`: `change(isUp, t)` at
    /// each change, and a last `change(true, quiet)` if the process is down then.
    static func alternate(up: DistributionSpec, down: DistributionSpec, rng: inout Xoshiro256StarStar, quiet: SimTime,
                          _ change: (Bool, SimTime) -> Void) {
        var isUp = true
        var t = SimTime.zero
        while let next = advance(t, by: (isUp ? up : down).sample(using: &rng), before: quiet) {
            t = next
            isUp.toggle()
            change(isUp, t)
        }
        if !isUp { change(true, quiet) }
    }

    static func state(_ m: ServerDownMode) -> ServerState { m == .refuse ? .refusing : .blackhole }

    /// `t` plus a drawn gap of `seconds`, if that is before `limit`; nil otherwise. A gap too
    /// long for the clock (a far tail draw) is simply past the limit.
    static func advance(_ t: SimTime, by seconds: Double, before limit: SimTime) -> SimTime? {
        guard seconds * 1e9 < Double(limit.nanoseconds - t.nanoseconds) + 1 else { return nil }
        let next = t + SimDuration.seconds(seconds)
        return next < limit ? next : nil
    }
}
