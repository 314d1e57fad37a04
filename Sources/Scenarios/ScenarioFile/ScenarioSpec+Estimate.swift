/// A rough, cheap estimate of how many simulation events a run of a scenario point
/// generates, from its rates alone (no simulation): what `validate` prints so that a
/// newcomer sees the size of a run before starting it. Meant to be right within a factor
/// of about 3 (a test compares it with the `events` metric of real runs).
extension ScenarioSpec {
    public var estimatedEvents: Double {
        let g = group, p = protocolSpec, d = duration.seconds
        let n = Double(g.n), devices = Double(g.devices)
        let writers = Double(workload.writers.count(of: g.devices))
        let jobs = writers * (uploadJobs(workload.update) + uploadJobs(workload.delete)) + Double(workload.writes.count)
        // One message: its upload (puts and answers, the push) and every other member's
        // download (list and get, with answers, from each server).
        let perMessage = 2 * n + 4 + (devices - 1) * 4 * n
        let confirms = p.confirm.mode == .never || p.confirm.mode == .onReconnect ? 0 : devices * d / p.confirm.period.seconds
        let polls = p.receive.mode == .push ? 0 : devices * d / p.receive.pollPeriod.seconds
        let unsentTimers = p.unsentRetryPeriod.map { devices * d / $0.seconds } ?? 0
        let sweeps = n * d / g.sweepPeriod.seconds
        var churnChanges = 2 * Double(churn.windows.count)
        // The schedule: confirms and re-upload answers cost about a message; receive rounds a
        // poll; going offline or back a churn change.
        var scheduled = (messages: 0.0, rounds: 0.0, changes: 0.0)
        for c in schedule {
            switch c.action {
            case .confirm: scheduled.messages += 1
            case .resend(_, let first, let last): scheduled.messages += Double(last - first + 1)
            case .receive: scheduled.rounds += 1
            case .offline, .online: scheduled.changes += 1
            }
        }
        churnChanges += scheduled.changes
        if let (on, off) = churn.process {
            churnChanges += Double(churn.devices.count(of: g.devices)) * 2 * d / (on.typicalGap + off.typicalGap)
        }
        // While fewer than s servers are up every upload fails, and each writer puts its unsent
        // queue to every server again at each unsent retry: its CPU work and n requests and answers.
        var writing = Set(workload.writes.map(\.device))
        if workload.update != nil || workload.delete != nil {
            writing.formUnion((1...g.devices).filter { workload.writers.contains($0) })
        }
        let retries = p.unsentRetryPeriod.map { Double(writing.count) * blockedSeconds / $0.seconds } ?? 0
        return (jobs + confirms + scheduled.messages) * perMessage + (polls + scheduled.rounds) * (2 * n + 1) + unsentTimers
            + sweeps + churnChanges * (2 * n + 2) + retries * (2 * n + 1)
    }

    /// Expected seconds of the run in which fewer than s servers are up, so that every upload
    /// fails: down windows count exactly, a down process by its long-run down fraction
    /// (typical down gap over the typical cycle), servers independently; from the start of
    /// `settle` on every server is up.
    var blockedSeconds: Double {
        let end = duration.seconds - settle.seconds, s = group.s
        var cuts: Set<Double> = [0, end]
        var windows: [[(from: Double, to: Double)]] = Array(repeating: [], count: group.n)
        var processDown = Array(repeating: 0.0, count: group.n)   // probability the processes hold a server down
        for f in faults {
            for srv in 1...group.n where f.servers.contains(srv) {
                switch f.kind {
                case .window(_, let start, let stop):
                    let from = min(start.seconds, end), to = min(stop?.seconds ?? end, end)
                    guard to > from else { continue }
                    windows[srv - 1].append((from, to))
                    cuts.insert(from); cuts.insert(to)
                case .process(_, let up, let down):
                    let p = down.typicalGap / (up.typicalGap + down.typicalGap)
                    processDown[srv - 1] = 1 - (1 - processDown[srv - 1]) * (1 - p)
                default: break
                }
            }
        }
        let times = cuts.sorted()
        var blocked = 0.0
        for (a, b) in zip(times, times.dropFirst()) {
            // P(number of servers up < s), by the distribution of the up count over the servers.
            var upCount = [1.0]
            for srv in 0..<group.n {
                let down = windows[srv].contains { $0.from <= a && b <= $0.to } ? 1 : processDown[srv]
                var next = Array(repeating: 0.0, count: upCount.count + 1)
                for (k, q) in upCount.enumerated() { next[k] += q * down; next[k + 1] += q * (1 - down) }
                upCount = next
            }
            blocked += (b - a) * upCount.prefix(s).reduce(0, +)
        }
        return blocked
    }
}

extension ScenarioSpec {
    /// Upload jobs of one writer's process: a burst's writes, made at one instant, go out as
    /// the first message alone and then batches of up to 100 (the client's batch limit).
    func uploadJobs(_ p: ArrivalProcess?) -> Double {
        guard let p else { return 0 }
        if case .burst(let count, _) = p { return count == 0 ? 0 : 1 + Double((count - 1 + 99) / 100) }
        return p.expectedEvents(in: duration)
    }
}

extension LoadedScenario {
    /// The estimate summed over every run of the plan.
    public var estimatedEvents: Double {
        pointSpecs.reduce(0) { $0 + $1.estimatedEvents } * Double(base.replications)
    }
}
