import Foundation
import SimKernel

/// One offline period of one device: [start, end) in nanoseconds.
struct AwayPeriod: Equatable, Sendable {
    var device: Int
    var start: Int64
    var end: Int64
}

/// Everything an equations replication schedules: offline periods, write and confirm times.
/// Pure function of the parameters, the assumptions and a seed.
struct EquationSchedule: Sendable {
    var away: [AwayPeriod] = []
    /// Per device: times of its normal messages (sorted), so write k has sequence k + 1.
    var writes: [[Int64]] = []
    /// Per device: times of driver-scheduled confirms (thesis schedule only; else the timer).
    var confirms: [[Int64]] = []
    /// Devices receive just before they go away (thesis schedule: leave in sync).
    var syncs: [(device: Int, at: Int64)] = []

    /// Offline periods per TTL of the rotating schedule start every T/F; device m mod D takes
    /// period m. Writes are placed evenly in each device's online time, none in the guard
    /// just before a departure (where the leaving device's last receive would miss them).
    static func scheduled(_ p: EquationParameters, end: Int64, rng: inout Xoshiro256StarStar) -> EquationSchedule {
        var s = EquationSchedule()
        let t = Double(p.ttl.nanoseconds), l = Double(p.offlineTime.nanoseconds)
        let d = p.devices
        let slot = t / p.offline
        let guardTime = slot / 500
        let first = Int((-l / slot).rounded(.down)), last = Int((Double(end) / slot).rounded(.up))
        for m in first...last {
            let a = Double(m) * slot, b = a + l
            let dev = ((m % d) + d) % d
            // The sync before a departure at or just after the end still falls in the last
            // window: without it that window would miss what the pulls had not fetched yet.
            let sync = a - guardTime / 2
            if sync > 0 && sync < Double(end) { s.syncs.append((dev, Int64(sync))) }
            guard b > 0, a < Double(end) else { continue }
            s.away.append(AwayPeriod(device: dev, start: Int64(max(a, 0)), end: Int64(min(b, Double(end)))))
        }
        let onlineFraction = 1 - p.offline * l / (t * Double(d))
        for dev in 0..<d {
            let mine = s.away.filter { $0.device == dev }
            // Uniform phases: the expected count in any stretch of online time is then exactly
            // its length over the spacing, which the refined forms assume.
            let phase = rng.nextDouble(), confirmPhase = rng.nextDouble()
            s.writes.append(onlineTimes(count: p.updatesPerDevice, onlineFraction: onlineFraction, phase: phase,
                                        away: mine, p, end: end, slot: slot, guardTime: guardTime))
            s.confirms.append(onlineTimes(count: p.confirms, onlineFraction: onlineFraction, phase: confirmPhase,
                                          away: mine, p, end: end, slot: slot, guardTime: guardTime))
        }
        return s
    }

    /// `count` events per TTL on average, evenly spaced in the device's online time.
    static func onlineTimes(count: Int, onlineFraction: Double, phase: Double, away: [AwayPeriod],
                            _ p: EquationParameters, end: Int64, slot: Double, guardTime: Double) -> [Int64] {
        guard count > 0 else { return [] }
        let spacing = Double(p.ttl.nanoseconds) / Double(count) * onlineFraction
        var out: [Int64] = [], onlineBefore = 0.0, segStart = 0.0, k = 0.0
        var bounds = away.map { (Double($0.start), Double($0.end)) }
        bounds.append((Double(end), Double(end)))
        for (a, b) in bounds {
            let length = max(0, a - segStart)
            while (k + phase) * spacing < onlineBefore + length {
                var wall = segStart + (k + phase) * spacing - onlineBefore
                let previous = (wall / slot).rounded(.down) * slot, next = previous + slot
                if next - wall < guardTime { wall = max(segStart, next - guardTime) }
                if wall - previous < guardTime { wall = previous + guardTime }
                out.append(Int64(wall))
                k += 1
            }
            onlineBefore += length
            segStart = max(segStart, b)
        }
        return out
    }

    /// Every device alternates exponential offline (mean L) and online periods, so on average
    /// `average` are offline; a device starts offline with probability average/D. Writes every
    /// T/U_i on each device's own clock (queued while offline).
    static func exponential(_ p: EquationParameters, average: Double, end: Int64,
                            rng: inout Xoshiro256StarStar) -> EquationSchedule {
        var s = EquationSchedule()
        let t = p.ttl.nanoseconds, spacing = t / Int64(max(p.updatesPerDevice, 1))
        for _ in 0..<p.devices {
            var times: [Int64] = []
            let phase = Int64((0.05 + 0.9 * rng.nextDouble()) * Double(spacing))
            var w: Int64 = 0
            while p.updatesPerDevice > 0 && w * t < end {
                for j in 0..<Int64(p.updatesPerDevice) { times.append(w * t + j * spacing + phase) }
                w += 1
            }
            s.writes.append(times.filter { $0 < end })
            s.confirms.append([])
        }
        guard average > 0 else { return s }
        let offMean = Double(p.offlineTime.nanoseconds)
        let onMean = offMean * (Double(p.devices) - average) / average
        for dev in 0..<p.devices {
            var online = rng.nextDouble() >= average / Double(p.devices)
            var now = 0.0, start = 0.0
            while now < Double(end) {
                now += -(online ? onMean : offMean) * log1p(-rng.nextDouble())
                if !online { s.away.append(AwayPeriod(device: dev, start: Int64(start), end: Int64(min(now, Double(end))))) }
                online.toggle()
                start = now
            }
        }
        s.away.sort { ($0.start, $0.device) < ($1.start, $1.device) }
        return s
    }

    /// Sequences (1-based) of `device`'s writes in [start, end).
    func sequences(of device: Int, from start: Int64, to end: Int64) -> ClosedRange<Int>? {
        let w = writes[device]
        let lo = w.firstIndex { $0 >= start } ?? w.count
        let hi = w.firstIndex { $0 >= end } ?? w.count
        return lo < hi ? (lo + 1)...hi : nil
    }

    /// Control variates per TTL window, from the inputs only (offline periods and write
    /// times), each with a mean known from the input distribution (`controlMeans`):
    /// 0: Σ x/T and 1: Σ (x − T)⁺/T over the offline periods ending in the window;
    /// 2: per device, the messages other devices saved in [a, b − T) of a period [a, b) (a
    /// write made offline is saved at its writer's return), counted in the window where the
    /// writer can answer (b, or the writer's return if it is offline then).
    func controls(ttl: Int64, windows: Int, end: Int64) -> [[Double]] {
        var c = Array(repeating: [0.0, 0.0, 0.0], count: windows)
        let byDevice = Dictionary(grouping: away, by: \.device)
        let saves = writes.enumerated().map { d, ws in ws.map { Self.saveTime($0, byDevice[d] ?? []) } }
        let n = Double(writes.count)
        for a in away where a.end < end {
            let w = Int(a.end / ttl)
            let x = Double(a.end - a.start) / Double(ttl)
            if w < windows { c[w][0] += x; c[w][1] += max(0, x - 1) }
            for other in 0..<writes.count where other != a.device {
                let lost = Self.count(saves[other], from: a.start, to: a.end - ttl)
                guard lost > 0 else { continue }
                let answer = Self.saveTime(a.end, byDevice[other] ?? [])
                let aw = Int(answer / ttl)
                if aw < windows { c[aw][2] += Double(lost) / n }
            }
        }
        return c
    }

    /// When a write at `t` reaches the servers: at once, or at its writer's return.
    static func saveTime(_ t: Int64, _ periods: [AwayPeriod]) -> Int64 {
        periods.first { $0.start <= t && t < $0.end }?.end ?? t
    }

    /// Elements of sorted `xs` in [lo, hi).
    static func count(_ xs: [Int64], from lo: Int64, to hi: Int64) -> Int {
        guard hi > lo else { return 0 }
        func lower(_ v: Int64) -> Int {
            var a = 0, b = xs.count
            while a < b { let m = (a + b) / 2; if xs[m] < v { a = m + 1 } else { b = m } }
            return a
        }
        return lower(hi) - lower(lo)
    }
}
