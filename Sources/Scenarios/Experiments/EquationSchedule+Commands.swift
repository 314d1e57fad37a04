import SimKernel

extension EquationSchedule {
    /// The replication as driver commands, in the order they are scheduled (ties at one time
    /// run in this order): every write, driver confirms, the syncs before departures, every
    /// departure, then every return before `end`, then (thesis model: `resendEverythingWrittenAway`) each
    /// writer's answer, at a device's return, to its request for what the writer saved while
    /// it was away. Departures before returns: where one device's return falls on another's
    /// departure, the leaver is gone before the returner asks.
    func commands(_ p: EquationParameters, end: Int64) -> [TimedCommand] {
        func at(_ t: Int64) -> SimTime { SimTime(nanoseconds: t) }
        var out: [TimedCommand] = []
        for (d, times) in writes.enumerated() {
            for (j, w) in times.enumerated() {
                out.append(TimedCommand(time: at(w), device: d, command: .update(objectID: "d\(d)-o\(j % 50)", size: 16)))
            }
        }
        for (d, times) in confirms.enumerated() { for c in times { out.append(TimedCommand(time: at(c), device: d, command: .confirm)) } }
        for sync in syncs { out.append(TimedCommand(time: at(sync.at), device: sync.device, command: .receive)) }
        for a in away { out.append(TimedCommand(time: at(a.start), device: a.device, command: .setOnline(false))) }
        for a in away where a.end < end { out.append(TimedCommand(time: at(a.end), device: a.device, command: .setOnline(true))) }
        if p.model.resendEverythingWrittenAway { out += resendAnswers(devices: p.devices, end: end) }
        return out
    }

    /// Thesis assumption: at its return, a device gets everything the others wrote while it was
    /// away re-uploaded (the request reaches each writer; an offline writer answers on return).
    func resendAnswers(devices: Int, end: Int64) -> [TimedCommand] {
        var out: [TimedCommand] = []
        for a in away where a.end < end {
            for w in 0..<devices where w != a.device {
                if let r = sequences(of: w, from: a.start, to: a.end) {
                    out.append(TimedCommand(time: SimTime(nanoseconds: a.end), device: w,
                                            command: .answerResend(requester: a.device, range: r)))
                }
            }
        }
        return out
    }
}
