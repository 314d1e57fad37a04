import Foundation
import SimKernel
import GrouperModel
import Execution

/// Parameters of the message-count equations 6.1–6.8 (thesis Table 6.3, docs/equations.md).
public struct EquationParameters: Equatable, Sendable {
    /// D, number of devices (1…200).
    public var devices = 10
    /// T, the TTL.
    public var ttl = SimDuration.seconds(Int64(86_400))
    /// U_i, normal messages per device per TTL (every device the same).
    public var updatesPerDevice = 100
    /// C, confirms per device per TTL.
    public var confirms = 1
    /// F: offline periods per TTL (`--model thesis`) or the time-average number of offline
    /// devices (`--model protocol`); see `EquationAssumptions.fCountsPeriodsPerTTL`.
    public var offline = 0.0
    /// L, the (mean) offline time.
    public var offlineTime = SimDuration.seconds(Int64(86_400))
    /// Cap on replications; they are added in rounds of `round` until every CI is tight.
    public var replications = 40
    public var model = EquationAssumptions.protocol
    public var variant = ProtocolVariant.thesis
    public var seed: UInt64 = 6
    /// Threads for replications (the result does not depend on it).
    public var jobs = 1
    /// Replications stop once every CI half-width is within this share of its mean (`equations`:
    /// `ThesisEquations.relativePrecision`, 5%; the grid test accepts the wider interval its
    /// tolerance rule allows for).
    package var precision = ThesisEquations.relativePrecision
    public init() {}

    package var lOverT: Double { offlineTime.seconds / ttl.seconds }
}

/// One equation: the thesis's closed form, the refined form for the simulated model, and the
/// steady-state simulated count.
public struct EquationRow: Equatable, Sendable {
    public var equation: String
    public var quantity: String
    public var formula: String
    /// For which F the thesis gives this formula ("F = 0" or "F > 0").
    public var thesisFor: String
    public var closedForm: Double
    /// Refined closed form for the model run (nil where none is derived: ablation steps).
    public var refined: Double?
    public var simulated: SteadyStateEstimate
    /// Whether the thesis's closed form is for the F that ran (6.1–6.4 are for F = 0 only,
    /// 6.5–6.8 for F > 0, which at F = 0 reduce to 6.1–6.4 and so apply to both).
    public var thesisApplies = true
    /// Simulated minus the thesis's closed form; NaN where the closed form does not apply.
    public var difference: Double { thesisApplies ? simulated.mean - closedForm : .nan }
}

/// Mean per device per TTL of what the uploads were made of.
public struct UploadMix: Equatable, Sendable {
    public var normal: SteadyStateEstimate
    public var confirms: SteadyStateEstimate
    public var resendRequests: SteadyStateEstimate
    public var reUploads: SteadyStateEstimate
    /// The re-uploads' parts (`ReuploadPart`): first copies of messages the requester missed,
    /// copies stored again for the same requester, copies of messages it already held.
    public var firstCopies: SteadyStateEstimate
    public var repeatedCopies: SteadyStateEstimate
    public var heldCopies: SteadyStateEstimate
}

/// The refined forms' parts of NU_i and UR_i, per device per TTL (`RefinedForms.mix`).
public struct RefinedMix: Equatable, Sendable {
    public var normal: Double
    public var confirms: Double
    public var resendRequests: Double
    public var firstCopies: Double
    public var repeatedCopies: Double
    public var heldCopies: Double
    public var reUploads: Double { firstCopies + repeatedCopies + heldCopies }
}

/// Everything one `equations` evaluation produced.
public struct EquationResult: Equatable, Sendable {
    public var rows: [EquationRow]
    public var mix: UploadMix
    /// The refined forms' parts (nil where there is no refined form).
    public var refinedMix: RefinedMix?
    public var replications: Int
    /// Measured TTL windows over all replications (warm-up excluded).
    public var windows: Int
    public var warmUpWindows: Int
    public var batchWindows: Int
}

/// Parameters the simulation cannot realise (exit non-zero instead of a wrong table).
public struct UnrealisableParameters: Error, CustomStringConvertible, Sendable {
    public var description: String
}

/// Closed forms of 6.1–6.8 and their steady-state simulation (docs/equations.md).
public enum ThesisEquations {
    /// Replications are added this many at a time (fixed, so results do not depend on --jobs).
    static let round = 4
    /// Target: every CI half-width ≤ 5% of its mean.
    static let relativePrecision = 0.05

    public static func closedForms(_ p: EquationParameters) -> [(String, String, String, Double)] {
        let d = Double(p.devices), u = Double(p.updatesPerDevice), c = Double(p.confirms), f = p.offline
        let bigU = u * d, factor = 1 + p.lOverT * f
        return [
            ("6.1", "NU_i uploads per device", "U_i + C", u + c),
            ("6.2", "NU uploads, all devices", "U + C·D", bigU + c * d),
            ("6.3", "ND_i downloads per device", "U + C·D", bigU + c * d),
            ("6.4", "ND downloads, all devices", "(U + C·D)·D", (bigU + c * d) * d),
            ("6.5", "UR_i re-uploads per device", "U_i·(L/T)·F", u * p.lOverT * f),
            ("6.6", "NU_i uploads per device", "U_i·(1 + (L/T)·F) + C", u * factor + c),
            ("6.7", "NU uploads, all devices", "U·(1 + (L/T)·F) + C·D", bigU * factor + c * d),
            ("6.8", "ND_i downloads per device", "U·(1 + (L/T)·F) + C·D", bigU * factor + c * d),
        ]
    }

    public static func evaluate(_ p: EquationParameters) throws -> [EquationRow] { try run(p).rows }

    /// Warm-up, batch length and measured windows per replication (in TTL windows).
    /// The thesis model's schedule repeats every rotation cycle, so after a warm-up of whole
    /// cycles one measured cycle is all a replication can tell (further cycles are copies);
    /// replications differ in the phases of the writes, and each is one sample.
    static func plan(_ p: EquationParameters) -> (warmUp: Int, batch: Int, measured: Int) {
        guard p.offline > 0 else { return (2, 1, 4) }
        let lt = p.lOverT
        let warmUp = Int(max(2, 5 * lt).rounded(.up))
        if p.model.scheduledOffline, let cycle = rotationCycle(p) {
            return ((warmUp + cycle - 1) / cycle * cycle, cycle, cycle)
        }
        let batch = max(1, Int(lt.rounded(.up)))
        let batches = max(4, (max(40, 2 * warmUp) + batch - 1) / batch)
        return (warmUp, batch, batch * batches)
    }

    /// TTLs after which the rotating schedule repeats exactly (D/F·k for the smallest k ≤ 20
    /// that makes it whole), if that is at most 60.
    static func rotationCycle(_ p: EquationParameters) -> Int? {
        for k in 1...20 {
            let c = Double(p.devices) / p.offline * Double(k)
            if abs(c - c.rounded()) < 1e-9, c.rounded() <= 60 { return Int(c.rounded()) }
        }
        return nil
    }

    /// Whether a thesis-model replication counts the same whatever its write phases: the
    /// schedule repeats, F·L/T devices are away at every instant (so each write is lost to
    /// exactly that many), and for L > T also F·(L/T − 1) periods cover every instant (so
    /// the writes that expire before a return add up to a whole number per cycle).
    package static func thesisCountsArePhaseFree(_ p: EquationParameters) -> Bool {
        func whole(_ x: Double) -> Bool { abs(x - x.rounded()) < 1e-9 }
        return p.model.scheduledOffline && rotationCycle(p) != nil && whole(p.offline * p.lOverT)
            && (p.lOverT <= 1 || whole(p.offline))
    }

    /// Replications per round: one where a replication is deterministic in what is counted
    /// (F = 0, or a phase-free thesis schedule), else `round`.
    static func roundSize(_ p: EquationParameters) -> Int {
        p.offline == 0 || thesisCountsArePhaseFree(p) ? 1 : round
    }

    /// Runs replications in rounds until every reported count is within `p.precision` (5%) or
    /// the cap.
    /// `tick` is called after each replication (progress only).
    public static func run(_ p: EquationParameters, tick: (@Sendable () -> Void)? = nil) throws -> EquationResult {
        try runKeeping(p, tick: tick).result
    }

    /// `run`, also returning every replication's per-window counts (`ResendHolesSaving` pairs
    /// two runs' replications).
    static func runKeeping(_ p: EquationParameters, tick: (@Sendable () -> Void)? = nil) throws
        -> (result: EquationResult, replications: [ReplicationCounts]) {
        try checkRealisable(p)
        let (warmUp, batch, measured) = plan(p)
        var reps: [ReplicationCounts] = []
        while reps.count < max(1, p.replications) {
            let next = min(roundSize(p), p.replications - reps.count)
            let indices = (reps.count..<(reps.count + next)).map { UInt64($0) }
            reps += try ParallelRunner.map(indices, jobs: p.jobs) { i in
                let counts = try simulate(p, seed: replicationSeed(p, Int(i)), replication: Int(i), warmUp: warmUp, measured: measured)
                tick?()
                return counts
            }
            let result = summarise(p, reps, warmUp: warmUp, batch: batch, measured: measured)
            if result.rows.allSatisfy({ $0.simulated.isPrecise(relative: p.precision) })
                && result.mix.reUploads.isPrecise(relative: p.precision) || reps.count >= p.replications {
                return (result, reps)
            }
        }
        return (summarise(p, reps, warmUp: warmUp, batch: batch, measured: measured), reps)
    }
}
