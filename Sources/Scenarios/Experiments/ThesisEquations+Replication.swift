import SimKernel
import GrouperModel
import Plan
import GrouperBinding

/// Per measured TTL window of one replication: the 8 equation values and the upload mix
/// (normal first uploads, confirms, resend requests, re-uploads; per device), plus the
/// control variates of the window's offline periods.
struct ReplicationCounts: Sendable {
    var windows: [[Double]]
    var controls: [[Double]]
}

extension ThesisEquations {
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

    /// One replication as a scenario run (`GrouperExecutor`, as `grouper-sim run` runs one):
    /// the schedule of writes, offline periods and (thesis model) the answers to requests for
    /// what was written while away; warm-up + measured windows; each measured window's counts
    /// from the `ttl_window_*` series. The run's seed is `seed` (the schedule's too).
    static func simulate(_ p: EquationParameters, seed: UInt64, replication: Int = 0,
                         warmUp: Int, measured: Int) throws -> ReplicationCounts {
        let t = p.ttl.nanoseconds, end = Int64(warmUp + measured) * t
        let s = schedule(p, end: end, seed: seed)
        let spec = try scenario(p, s, windows: warmUp + measured, warmUp: warmUp)
        let run = ResolvedRun(index: replication, point: 0, replication: replication, seed: seed, spec: spec, assignments: [])
        let series = try GrouperExecutor().series(run)   // only the series: no checkers, metrics or fingerprint
        let controls = s.controls(ttl: t, windows: warmUp + measured, end: end)
        return ReplicationCounts(windows: counts(p, series[warmUp..<(warmUp + measured)]),
                                 controls: Array(controls[warmUp...]))
    }

    /// Window values: [6.1 … 6.8, normal, confirms, resend requests, re-uploads, and the
    /// re-uploads' parts: first copies, repeated copies, held-message copies], from the
    /// window totals over all devices (`windowSeries`). Every total is a whole number, so the
    /// per-device means are the same doubles as means over per-device counts.
    static func counts(_ p: EquationParameters, _ rows: ArraySlice<[Double]>) -> [[Double]] {
        let d = Double(p.devices), countResend = p.model.controlMessagesCounted
        return rows.map { r in
            let (normal, confirms, resends, rebuiltAll, rebuiltResends, reUploads) = (r[0], r[1], r[2], r[3], r[4], r[5])
            let uploads = normal + confirms + (countResend ? resends : 0)
            let downloads = uploads + rebuiltAll - (countResend ? 0 : rebuiltResends)
            let reUp = reUploads / d
            return [uploads / d, uploads, downloads / d, downloads, reUp, uploads / d, uploads, downloads / d,
                    normal / d - reUp, confirms / d, resends / d, reUp, r[6] / d, r[7] / d, r[8] / d]
        }
    }
}
