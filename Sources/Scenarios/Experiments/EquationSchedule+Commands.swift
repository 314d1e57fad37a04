import SimKernel
import ScenarioFile

extension EquationSchedule {
    /// Every write as a scenario write (`workload.writes`), device by device in time order:
    /// device d's j-th write goes to object `o<50·d + j mod 50>` (each device its own 50
    /// objects), 16 bytes.
    func scenarioWrites() -> [ExplicitWrite] {
        var out: [ExplicitWrite] = []
        for (d, times) in writes.enumerated() {
            for (j, w) in times.enumerated() {
                out.append(ExplicitWrite(device: d + 1, at: .nanoseconds(w), kind: .update, object: d * 50 + j % 50,
                                         size: ThesisEquations.messageBytes))
            }
        }
        return out
    }

    /// The replication's other commands as a scenario `schedule`, in the order they are
    /// scheduled (ties at one time run in this order; the writes come before all of them):
    /// driver confirms, the syncs before departures, every departure, then every return before
    /// `end`, then (thesis model: `resendEverythingWrittenAway`) each writer's answer, at a
    /// device's return, to its request for what the writer saved while it was away.
    /// Departures before returns: where one device's return falls on another's departure, the
    /// leaver is gone before the returner asks.
    func commands(_ p: EquationParameters, end: Int64) -> [ScheduledCommand] {
        func at(_ t: Int64) -> SimDuration { .nanoseconds(t) }
        var out: [ScheduledCommand] = []
        for (d, times) in confirms.enumerated() { for c in times { out.append(ScheduledCommand(at: at(c), device: d + 1, action: .confirm)) } }
        for sync in syncs { out.append(ScheduledCommand(at: at(sync.at), device: sync.device + 1, action: .receive)) }
        for a in away { out.append(ScheduledCommand(at: at(a.start), device: a.device + 1, action: .offline)) }
        for a in away where a.end < end { out.append(ScheduledCommand(at: at(a.end), device: a.device + 1, action: .online)) }
        if p.model.resendEverythingWrittenAway { out += resendAnswers(devices: p.devices, end: end) }
        return out
    }

    /// Thesis assumption: at its return, a device gets everything the others wrote while it was
    /// away re-uploaded (the request reaches each writer; an offline writer answers on return).
    func resendAnswers(devices: Int, end: Int64) -> [ScheduledCommand] {
        var out: [ScheduledCommand] = []
        for a in away where a.end < end {
            for w in 0..<devices where w != a.device {
                if let r = sequences(of: w, from: a.start, to: a.end) {
                    out.append(ScheduledCommand(at: .nanoseconds(a.end), device: w + 1,
                                                action: .resend(requester: a.device + 1, first: r.lowerBound, last: r.upperBound)))
                }
            }
        }
        return out
    }
}
