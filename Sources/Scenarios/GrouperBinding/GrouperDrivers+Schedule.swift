import SimKernel
import GrouperModel

extension GrouperDrivers {
    /// Schedules a scenario's `schedule` on the Grouper model, in list order (ties at one time
    /// run in this order). Played after `schedule(_:on:streams:latency:)`; the central server
    /// has no such commands (the reader rejects a schedule there).
    static func play(_ commands: [ScheduledCommand], on system: GrouperSystem) {
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
