import SimKernel
import GrouperModel
import ScenarioFile

extension GrouperDrivers {
    /// Schedules a scenario's `schedule` on the Grouper model, in list order (ties at one time
    /// run in this order). Played after `schedule(_:on:streams:latency:)`; the central server
    /// has no such commands (the reader rejects a schedule there).
    ///
    /// With a settle period (`quiet` before the end of the run), a device whose last schedule
    /// command in time is `offline` comes back online at `quiet`, as a churn window does: the
    /// settle promises every device online (`validate` warns about such a command).
    static func play(_ commands: [ScheduledCommand], on system: GrouperSystem, settleStart quiet: SimTime? = nil) {
        defer { if let quiet { for d in ScheduledCommand.leftOffline(commands) { system.setOnline(true, device: d.device - 1, at: quiet) } } }
        for c in commands {
            let t = SimTime.zero + c.at, d = c.device - 1
            switch c.action {
            case .confirm: system.confirm(device: d, at: t)
            case .receive: system.receive(device: d, at: t)
            case .offline: system.setOnline(false, device: d, at: t)
            case .online: system.setOnline(true, device: d, at: t)
            case .resend(let requester, let first, let last):
                system.resend(device: d, requester: requester - 1, range: first...last, at: t)
            }
        }
    }
}
