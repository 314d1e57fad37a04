import SimKernel
import GrouperModel

/// Per measured TTL window of one replication: the 8 equation values and the upload mix
/// (normal first uploads, confirms, resend requests, re-uploads; per device), plus the
/// control variates of the window's offline periods.
struct ReplicationCounts: Sendable {
    var windows: [[Double]]
    var controls: [[Double]]
}

extension ThesisEquations {
    static func config(_ p: EquationParameters, seed: UInt64) throws -> SystemConfig {
        let a = p.model
        // One server, k = s = 1: with every server up the counts do not depend on (k, n, s)
        // and a run is about three times cheaper than f(2, 3, 3).
        var c = SystemConfig(devices: p.devices, threshold: try ShareThreshold(k: 1, n: 1, s: 1), ttl: p.ttl,
                             variant: p.variant, scheme: .gf256, seed: seed)
        c.initialMembers = p.devices
        c.sweepPeriod = sweepPeriod(p)
        c.alignedSweeps = alignsSweeps(p)
        let period: SimDuration? = p.confirms > 0 ? .nanoseconds(p.ttl.nanoseconds / Int64(p.confirms)) : nil
        c.confirm = ConfirmPolicy(period: a.scheduledOffline && p.offline > 0 ? nil : period,
                                  onReconnect: p.offline > 0 && a.controlMessagesCounted)
        c.receive = ReceivePolicy(onPush: false, pullPeriod: pullPeriod(p), onReconnect: true)
        c.recovery.receiverAsks = !a.resendEverythingWrittenAway
        c.recovery.senderChecksServers = !a.resendEverythingWrittenAway
        c.recovery.multicastReuploads = a.multicastReuploads
        return c
    }

    /// Receivers pull every T/24 (no push rounds: a run is far cheaper; the refined forms
    /// account for the pull period).
    static func pullPeriod(_ p: EquationParameters) -> SimDuration { .nanoseconds(p.ttl.nanoseconds / 24) }
    /// The servers' TTL sweep every T/144 (the refined forms account for it too). The thesis
    /// schedule sweeps at multiples of the largest period ≤ T/144 that divides both T/F and L,
    /// so a sweep falls on every departure and return: a returning device then finds exactly
    /// what was saved in the last T, as the thesis's TTL has it.
    static func sweepPeriod(_ p: EquationParameters) -> SimDuration {
        let base = max(p.ttl.nanoseconds / 144, 1_000_000)
        guard alignsSweeps(p) else { return .nanoseconds(base) }
        let slot = Double(p.ttl.nanoseconds) / p.offline
        guard slot == slot.rounded() else { return .nanoseconds(base) }
        let g = gcd(Int64(slot), p.offlineTime.nanoseconds)
        for n in ((g + base - 1) / base)...((g + base - 1) / base + 10_000) where g % n == 0 {
            return g / n >= 1_000_000 ? .nanoseconds(g / n) : .nanoseconds(base)
        }
        return .nanoseconds(base)
    }

    static func alignsSweeps(_ p: EquationParameters) -> Bool { p.offline > 0 && p.model.scheduledOffline }

    static func gcd(_ a: Int64, _ b: Int64) -> Int64 { b == 0 ? a : gcd(b, a % b) }

    static func schedule(_ p: EquationParameters, end: Int64, seed: UInt64) -> EquationSchedule {
        var rng = Xoshiro256StarStar(seed: RandomStreams(rootSeed: seed).childSeed(named: "equations/workload"))
        if p.offline > 0 && p.model.scheduledOffline { return .scheduled(p, end: end, rng: &rng) }
        let average = p.model.averageOffline(f: p.offline, lOverT: p.lOverT)
        return .exponential(p, average: average, end: end, rng: &rng)
    }

    /// One replication on the binding's run path (`GrouperRun`, as scenario runs): schedule
    /// workload, offline periods and (thesis model) the answers to requests for what was
    /// written while away; run warm-up + measured windows; count each measured window.
    static func simulate(_ p: EquationParameters, seed: UInt64, replication: Int = 0,
                         warmUp: Int, measured: Int) throws -> ReplicationCounts {
        let run = try GrouperRun(config: try config(p, seed: seed), runIndex: replication, logging: false)
        let t = p.ttl.nanoseconds, end = Int64(warmUp + measured) * t
        let s = schedule(p, end: end, seed: seed)
        run.play(s.commands(p, end: end))
        run.system.run(until: SimTime(nanoseconds: end))
        try run.checkInternalFailures()
        let controls = s.controls(ttl: t, windows: warmUp + measured, end: end)
        return ReplicationCounts(windows: counts(p, run.system, windows: warmUp..<(warmUp + measured)),
                                 controls: Array(controls[warmUp...]))
    }

    /// Window values: [6.1 … 6.8, normal, confirms, resend requests, re-uploads].
    static func counts(_ p: EquationParameters, _ system: GrouperSystem, windows: Range<Int>) -> [[Double]] {
        let d = p.devices
        // cell[kind][window][device]: uploads by type, rebuilt (control-filtered), re-uploads.
        var up = Array(repeating: Array(repeating: [Double](repeating: 0, count: 4), count: d), count: windows.count)
        var rebuilt = Array(repeating: Array(repeating: 0.0, count: d), count: windows.count)
        var re = rebuilt
        let countResend = p.model.controlMessagesCounted
        for (key, value) in system.counters.rows where windows.contains(key.window) {
            let w = key.window - windows.lowerBound, v = Double(value)
            switch key.kind {
            case .messagesUploaded: up[w][key.device][typeIndex(key.type)] += v
            case .messagesRebuilt where countResend || key.type != .resend: rebuilt[w][key.device] += v
            case .reUploads: re[w][key.device] += v
            default: break
            }
        }
        return (0..<windows.count).map { w in
            let uploads = (0..<d).map { up[w][$0][0] + up[w][$0][1] + (countResend ? up[w][$0][2] : 0) }
            let downloads = (0..<d).map { uploads[$0] + rebuilt[w][$0] }
            let mean = { (xs: [Double]) in xs.reduce(0, +) / Double(d) }
            let sum = { (xs: [Double]) in xs.reduce(0, +) }
            let reUp = mean(re[w])
            return [mean(uploads), sum(uploads), mean(downloads), sum(downloads), reUp, mean(uploads), sum(uploads),
                    mean(downloads), mean(up[w].map { $0[0] }) - reUp, mean(up[w].map { $0[1] }),
                    mean(up[w].map { $0[2] }), reUp]
        }
    }

    /// 0: update/delete, 1: confirm, 2: resend.
    static func typeIndex(_ t: MessageType) -> Int {
        switch t {
        case .update, .delete: 0
        case .confirm: 1
        case .resend: 2
        }
    }
}
