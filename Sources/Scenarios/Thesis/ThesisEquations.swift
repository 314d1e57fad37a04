import Foundation
import SimKernel
import GrouperModel

/// Parameters of the message-count equations 6.1–6.8 (thesis Table 6.3, SPEC §7).
public struct EquationParameters: Equatable, Sendable {
    /// D, number of devices (1…200).
    public var devices = 10
    /// T, the TTL.
    public var ttl = SimDuration.seconds(Int64(86_400))
    /// U_i, normal messages per device per TTL (every device the same).
    public var updatesPerDevice = 100
    /// C, confirms per device per TTL.
    public var confirms = 1
    /// F, average number of offline devices (0 ≤ F < D).
    public var offline = 0.0
    /// L, mean offline time.
    public var offlineTime = SimDuration.seconds(Int64(86_400))
    public var replications = 5
    public var variant = ProtocolVariant.thesis
    public var seed: UInt64 = 6
    public init() {}
}

/// One equation: closed form beside the simulated count.
public struct EquationRow: Equatable, Sendable {
    public var equation: String
    public var quantity: String
    public var formula: String
    public var closedForm: Double
    public var simulated: SampleSummary
    public var difference: Double { simulated.mean - closedForm }
}

/// Counts of one replication, measured over TTL window `ThesisEquations.measuredWindow`.
struct EquationCounts {
    /// Per device: messages uploaded (all types, re-uploads included).
    var uploads: [Double]
    /// Per device: messages rebuilt plus its own uploads (thesis 6.3 counts them).
    var downloads: [Double]
    /// Per device: normal messages re-uploaded for resend requests.
    var reUploads: [Double]
    /// Per device: uploads by kind — first uploads of normal messages (update/delete, re-uploads
    /// excluded), confirms, resend requests.
    var normal: [Double] = [], confirms: [Double] = [], resendRequests: [Double] = []
}

/// Mean per device of what the uploads were made of (explains the 6.6 difference).
public struct UploadMix: Equatable, Sendable {
    public var normal: SampleSummary
    public var confirms: SampleSummary
    public var resendRequests: SampleSummary
    public var reUploads: SampleSummary
}

/// Closed forms of 6.1–6.8 and their simulation (SPEC §7).
///
/// Workload: device i writes U_i updates per TTL, evenly spaced with a per-device phase in
/// [0.05, 0.95] of the spacing (no write lands at a window edge); periodic confirms every T/C.
/// Offline devices (F > 0): every device alternates online and offline periods, both
/// exponential, offline mean L and online mean L·(D−F)/F, so on average F of D are offline;
/// a device starts offline with probability F/D. Counting window: the third TTL window
/// [2T, 3T) (steady state); the run lasts 4T.
public enum ThesisEquations {
    public static let measuredWindow = 2
    static let windows = 4

    public static func closedForms(_ p: EquationParameters) -> [(String, String, String, Double)] {
        let d = Double(p.devices), u = Double(p.updatesPerDevice), c = Double(p.confirms), f = p.offline
        let lt = p.offlineTime.seconds / p.ttl.seconds
        let bigU = u * d, factor = 1 + lt * f
        return [
            ("6.1", "NU_i uploads per device (F = 0)", "U_i + C", u + c),
            ("6.2", "NU uploads, all devices (F = 0)", "U + C·D", bigU + c * d),
            ("6.3", "ND_i downloads per device (F = 0)", "U + C·D", bigU + c * d),
            ("6.4", "ND downloads, all devices (F = 0)", "(U + C·D)·D", (bigU + c * d) * d),
            ("6.5", "UR_i re-uploads per device", "U_i·(L/T)·F", u * lt * f),
            ("6.6", "NU_i uploads per device", "U_i·(1 + (L/T)·F) + C", u * factor + c),
            ("6.7", "NU uploads, all devices", "U·(1 + (L/T)·F) + C·D", bigU * factor + c * d),
            ("6.8", "ND_i downloads per device", "U·(1 + (L/T)·F) + C·D", bigU * factor + c * d),
        ]
    }

    /// Every equation with its simulated mean and 95% CI over `p.replications` runs.
    public static func evaluate(_ p: EquationParameters) throws -> [EquationRow] {
        try evaluateWithMix(p).rows
    }

    /// The rows plus the measured upload mix per device.
    public static func evaluateWithMix(_ p: EquationParameters) throws -> (rows: [EquationRow], mix: UploadMix) {
        var runs: [EquationCounts] = []
        for r in 0..<p.replications {
            runs.append(try simulate(p, seed: RandomStreams(rootSeed: p.seed).childSeed(named: "equations/replication-\(r)")))
        }
        return (rows(p, runs), mix(runs))
    }

    static func mix(_ runs: [EquationCounts]) -> UploadMix {
        func m(_ f: (EquationCounts) -> [Double]) -> SampleSummary {
            SampleSummary(runs.map { f($0).reduce(0, +) / Double(f($0).count) })
        }
        return UploadMix(normal: m(\.normal), confirms: m(\.confirms), resendRequests: m(\.resendRequests), reUploads: m(\.reUploads))
    }

    static func rows(_ p: EquationParameters, _ runs: [EquationCounts]) -> [EquationRow] {
        func mean(_ xs: [Double]) -> Double { xs.reduce(0, +) / Double(xs.count) }
        func sum(_ xs: [Double]) -> Double { xs.reduce(0, +) }
        let perRun: [String: (EquationCounts) -> Double] = [
            "6.1": { mean($0.uploads) }, "6.2": { sum($0.uploads) }, "6.3": { mean($0.downloads) },
            "6.4": { sum($0.downloads) }, "6.5": { mean($0.reUploads) }, "6.6": { mean($0.uploads) },
            "6.7": { sum($0.uploads) }, "6.8": { mean($0.downloads) },
        ]
        return closedForms(p).map { eq, quantity, formula, value in
            EquationRow(equation: eq, quantity: quantity, formula: formula, closedForm: value,
                        simulated: SampleSummary(runs.map { perRun[eq]!($0) }))
        }
    }

    static func config(_ p: EquationParameters, seed: UInt64) -> SystemConfig {
        var c = SystemConfig(devices: p.devices, servers: 3, k: 2, s: 3, ttl: p.ttl,
                             variant: p.variant, scheme: .gf256, seed: seed)
        c.initialMembers = p.devices
        // A coarser TTL sweep than the 60 s default: counts do not depend on it, run time does.
        c.sweepPeriod = .nanoseconds(max(p.ttl.nanoseconds / 144, 1_000_000_000))
        c.confirm = ConfirmPolicy(period: p.confirms > 0 ? .nanoseconds(p.ttl.nanoseconds / Int64(p.confirms)) : nil,
                                  onReconnect: p.offline > 0)
        c.receive = ReceivePolicy(onPush: false, pullPeriod: .nanoseconds(p.ttl.nanoseconds / 24), onReconnect: true)
        return c
    }

    /// One replication: schedule the workload and churn, run 4 TTLs, count window 2.
    static func simulate(_ p: EquationParameters, seed: UInt64) throws -> EquationCounts {
        let system = try GrouperSystem(config: config(p, seed: seed))
        system.loggingEnabled = false
        var rng = Xoshiro256StarStar(seed: RandomStreams(rootSeed: seed).childSeed(named: "equations/workload"))
        let t = p.ttl.nanoseconds, spacing = t / Int64(max(p.updatesPerDevice, 1))
        for d in 0..<p.devices where p.updatesPerDevice > 0 {
            let phase = Int64((0.05 + 0.9 * rng.nextDouble()) * Double(spacing))
            for w in 0..<Int64(windows) {
                for j in 0..<Int64(p.updatesPerDevice) {
                    system.update(device: d, objectID: "d\(d)-o\(j % 50)", size: 323,
                                  at: SimTime(nanoseconds: w * t + j * spacing + phase))
                }
            }
        }
        if p.offline > 0 { scheduleChurn(p, system, &rng) }
        system.run(until: SimTime(nanoseconds: Int64(windows) * t))
        return counts(p, system)
    }

    /// Alternating offline (mean L) / online (mean L·(D−F)/F) periods, exponential, per device.
    static func scheduleChurn(_ p: EquationParameters, _ system: GrouperSystem, _ rng: inout Xoshiro256StarStar) {
        let end = Double(Int64(windows) * p.ttl.nanoseconds)
        let offMean = Double(p.offlineTime.nanoseconds)
        let onMean = offMean * (Double(p.devices) - p.offline) / p.offline
        for d in 0..<p.devices {
            var online = rng.nextDouble() >= p.offline / Double(p.devices)
            var now = 0.0
            if !online { system.setOnline(false, device: d, at: .zero) }
            while now < end {
                now += -(online ? onMean : offMean) * log1p(-rng.nextDouble())
                guard now < end else { break }
                online.toggle()
                system.setOnline(online, device: d, at: SimTime(nanoseconds: Int64(now)))
            }
        }
    }

    static func counts(_ p: EquationParameters, _ system: GrouperSystem) -> EquationCounts {
        let w = measuredWindow, c = system.counters
        var out = EquationCounts(uploads: [], downloads: [], reUploads: [])
        for d in 0..<p.devices {
            let up = Double(c.total(.messagesUploaded, device: d, window: w))
            out.uploads.append(up)
            out.downloads.append(Double(c.total(.messagesRebuilt, device: d, window: w)) + up)
            let re = Double(c.total(.reUploads, device: d, window: w))
            out.reUploads.append(re)
            out.normal.append(Double(c.total(.messagesUploaded, device: d, type: .update, window: w)
                + c.total(.messagesUploaded, device: d, type: .delete, window: w)) - re)
            out.confirms.append(Double(c.total(.messagesUploaded, device: d, type: .confirm, window: w)))
            out.resendRequests.append(Double(c.total(.messagesUploaded, device: d, type: .resend, window: w)))
        }
        return out
    }
}
