import SimKernel
import GrouperModel
import Catalogs
import ScenarioFile
import Plan

/// The properties every explored run must have (docs/explore.md lists each with what it would
/// catch). An oracle sees the case's scenario and its run's outcome and returns its findings.
public enum ExploreOracle: String, CaseIterable, Sendable {
    /// The run ends without an internal error (exit 3): the model's own invariant checks and
    /// every failure of the tool's code.
    case runs
    /// Same case, same seed, run twice in one process: the same event fingerprint, the same
    /// metrics bit for bit, the same verdicts (sampled).
    case deterministic
    /// Safety checkers (no-phantom, ttl) pass unless hostile servers may explain a phantom:
    /// tamper or stale with first-k, or on two or more servers with any rebuild policy.
    case safety
    /// Liveness: with the thesis variant, honest servers and a long settle (the `thesis`
    /// profile, or a case of another profile that qualifies), every checker passes.
    case liveness
    /// Metrics agree with each other (converged ⇒ delivered; parts ≤ wholes; ordered
    /// quantiles; exposure only where possible; NaN exactly for the other architecture's metrics).
    case metrics
    /// One copy per requester: on a fault-free thesis run no unicast re-upload of a message is
    /// stored for a requester while an earlier copy for it, stored less than a TTL before on
    /// enough servers to rebuild, is still there (`RunOutcome.repeatedReuploads`).
    case reuploads
    /// Two implementations agree: a fault-free case that must converge ends with the same
    /// objects on every member under Grouper and under the central server; compact and plain
    /// bookkeeping give the same fingerprint (sampled); `equations --model thesis` is exact
    /// where the schedule is phase-free (sampled, random parameters).
    case differential
}

/// One broken property of one case.
public struct ExploreFinding: Sendable, Equatable {
    public var oracle: ExploreOracle
    public var message: String
    /// The checker a liveness or safety finding is about (what `shrink --checker` keeps failing).
    public var checker: CheckerName?
    public init(oracle: ExploreOracle, message: String, checker: CheckerName?) {
        self.oracle = oracle; self.message = message; self.checker = checker
    }
}

/// What the oracles need to know about a case beyond its outcome.
struct CaseTraits {
    var central: Bool
    var variant: ProtocolVariant
    var rebuild: String
    var k: Int
    var hostileKinds: Set<String>
    /// Distinct servers that tamper or serve stale shares at some time of the run.
    var alteringServers: Int
    var colludes: Bool
    var encryptedStore: Bool
    /// No fault of any kind (server faults, hostile behaviours, collusion, network faults).
    var faultFree: Bool
    /// The thesis variant with its own recovery (no opt-in simplification, no multicast re-uploads).
    var thesisRecovery: Bool
    /// Whether the reuploads oracle applies: Grouper, thesis recovery, no faults.
    var judgesReuploads: Bool { !central && thesisRecovery && faultFree }
    /// Whether the case is compared with the central architecture: it must converge and has no faults.
    var comparesWithCentral: Bool { mustConverge && faultFree }
    /// The members from the start (1-based): the devices the differential oracle compares.
    var initialMembers: [Int]
    var mayPhantom: Bool { hostileKinds.contains("tamper") || hostileKinds.contains("stale") }
    /// Whether altered shares can make a receiver accept content nobody wrote. `first-k` trusts
    /// any k shares. `check` and `correct` rebuild from m ≥ k + 1 shares, which lie on a code of
    /// distance m − k + 1 ≥ 2: one altered share is always seen (and `correct` decodes around
    /// it when m ≥ k + 2). Two or more altered shares of one message can form, with probability
    /// about one in the field size per try, a different codeword: the rebuild then accepts (or
    /// corrects to) another secret. So a phantom is a fault only with at most one altering server.
    var phantomExplained: Bool { mayPhantom && (rebuild == RebuildPolicy.firstK.rawValue || alteringServers >= 2) }
    /// A case whose every checker must pass: the thesis variant with its default recovery,
    /// honest servers, periodic confirms, a receiver that looks within a TTL, failed uploads
    /// retried on a timer (with `on-reconnect` a device that stays online keeps them to the
    /// end), and a settle of at least 3× the slowest period (TTL, confirm, poll, resend retry,
    /// unsent retry); any rebuild policy. The
    /// explorer also drops it when `validate` warned about the case (other than k = 1's
    /// plaintext warning): a configuration it says cannot recover is not promised to.
    var mustConverge: Bool

    init(_ spec: ScenarioSpec) {
        central = spec.architecture == .central
        variant = spec.protocolSpec.variant
        rebuild = spec.protocolSpec.rebuild.rawValue
        k = spec.group.k
        var kinds = Set<String>()
        var colludes = false
        var altering = Set<Int>()
        for f in spec.faults {
            if case .misbehave(let b, _) = f.kind {
                kinds.insert(b.kindName)
                if b.altersShares {
                    altering.formUnion((1...spec.group.n).filter { f.servers.contains($0) })
                }
            }
            if case .collude = f.kind { colludes = true }
        }
        hostileKinds = kinds
        alteringServers = altering.count
        initialMembers = spec.group.initialMembers
        self.colludes = colludes
        encryptedStore = spec.deviceStore.atRest != .plain
        let p = spec.protocolSpec
        faultFree = spec.faults.isEmpty && spec.network.isOff
        thesisRecovery = p.variant == .thesis && p.recovery == RecoveryOptions() && p.resendMulticastAfter == nil
        let ttl = spec.group.ttl
        let slowest = max(ttl, p.confirm.period, p.receive.pollPeriod, p.resendRetry, p.unsentRetryPeriod ?? .zero)
        mustConverge = !central && p.variant == .thesis && p.recovery == RecoveryOptions() && kinds.isSubset(of: ["keep"])
            && p.confirm.mode == .periodic && p.receive.onReconnect
            && (p.receive.mode != .poll || p.receive.pollPeriod < ttl)
            && p.resendMulticastAfter == nil && p.unsentRetryPeriod != nil
            && spec.settle >= SimDuration(nanoseconds: 3 * slowest.nanoseconds)
            && spec.schedule.isEmpty
    }
}

enum ExploreOracles {
    /// The safety and liveness verdicts and the metric invariants of one outcome.
    static func judge(_ outcome: RunOutcome, _ t: CaseTraits) -> [ExploreFinding] {
        var out: [ExploreFinding] = []
        for v in outcome.checkers where !v.passed {
            let name = CheckerName(rawValue: v.name)
            if v.kind == .safety {
                if v.name == CheckerName.noPhantom.rawValue && t.phantomExplained { continue }
                out.append(ExploreFinding(oracle: .safety, message: "\(v.name) failed: \(v.detail)", checker: name))
            } else if t.mustConverge {
                out.append(ExploreFinding(oracle: .liveness, message: "\(v.name) failed although the case must converge: \(v.detail)",
                                          checker: name))
            }
        }
        out += metricFindings(outcome, t)
        if t.judgesReuploads {
            out += reuploadFindings(outcome).map { ExploreFinding(oracle: .reuploads, message: $0, checker: nil) }
        }
        return out
    }

    static func reuploadFindings(_ o: RunOutcome) -> [String] {
        let n = o.audit[RunOutcome.repeatedReuploads] ?? 0
        guard n > 0 else { return [] }
        return ["\(Int(n)) re-upload copies stored for a requester while an earlier copy for it was still on enough "
                + "servers (one copy per requester): " + o.auditExamples.joined(separator: "; ")]
    }

    /// The differential finding of a Grouper run against the same case under the central
    /// server, nil when they agree or either did not converge (then there is nothing to compare).
    /// Only the members from the start (`members`, 1-based) are compared: an invitee gets the
    /// group's history from the owner under Grouper, and only what is written after it joined
    /// under the central server (docs/architectures.md).
    static func centralDifference(_ grouper: RunOutcome, _ central: RunOutcome, members: [Int]) -> String? {
        func converged(_ o: RunOutcome) -> Bool { o.checkers.first { $0.name == CheckerName.convergence.rawValue }?.passed ?? false }
        let labels = Set(members.map { "D\($0)" })
        func compared(_ o: RunOutcome) -> [String] { o.finalObjects.filter { labels.contains(String($0.prefix { $0 != " " })) } }
        let grouperObjects = compared(grouper), centralObjects = compared(central)
        guard converged(grouper), converged(central), grouperObjects != centralObjects else { return nil }
        let g = Set(grouperObjects), c = Set(centralObjects)
        let onlyG = grouperObjects.filter { !c.contains($0) }, onlyC = centralObjects.filter { !g.contains($0) }
        return "Grouper and central both converged but end with different objects: Grouper only "
            + (onlyG.prefix(2).joined(separator: ", ").nonEmpty ?? "none") + "; central only "
            + (onlyC.prefix(2).joined(separator: ", ").nonEmpty ?? "none")
    }

    static func metricFindings(_ o: RunOutcome, _ t: CaseTraits) -> [ExploreFinding] {
        var m: [MetricName: Double] = [:]
        for (name, value) in o.metrics { m[name] = value }
        var out: [String] = []
        func v(_ n: MetricName) -> Double? { m[n] }
        func expect(_ ok: Bool, _ what: @autoclosure () -> String) { if !ok { out.append(what()) } }

        // What a central server does not have is NaN there (CentralMetrics), and Grouper has it.
        let grouperOnly: [MetricName] = [.sharePuts, .sharesOnServersMean, .tamperDetected, .coalitionExposedMessages,
                                          .failedUploadsRebuildable]
        let centralOnly: [MetricName] = [.transfersDeclined, .transfersExpired, .transfersLostInRestart]
        for n in grouperOnly { if let x = v(n) { expect(t.central == x.isNaN, "\(n.rawValue) = \(x) for \(t.central ? "central" : "Grouper")") } }
        for n in centralOnly { if let x = v(n) { expect(t.central != x.isNaN, "\(n.rawValue) = \(x) for \(t.central ? "central" : "Grouper")") } }

        if t.central {
            for n in [MetricName.confirmsUploaded, .resendsUploaded, .resendRequests, .reuploads] {
                if let x = v(n) { expect(x == 0, "\(n.rawValue) = \(x) for central, which has no confirm or resend messages") }
            }
        }
        if v(.converged) == 1 {
            if let d = v(.deliveryRatio), !d.isNaN { expect(d == 1, "converged but delivery_ratio = \(d)") }
            if let l = v(.lostMessages), !l.isNaN { expect(l == 0, "converged but lost_messages = \(l)") }
        }
        if let d = v(.deliveryRatio), !d.isNaN { expect(d >= 0 && d <= 1, "delivery_ratio = \(d) outside [0, 1]") }
        if !t.central {
            if let u = v(.messagesUploaded), let a = v(.updatesUploaded), let d = v(.deletesUploaded),
               let c = v(.confirmsUploaded), let r = v(.resendsUploaded) {
                expect(a + d + c + r <= u, "updates + deletes + confirms + resends uploaded = \(a + d + c + r) > messages_uploaded = \(u)")
            }
            if let f = v(.failedUploadsRebuildable), let u = v(.uploadFailures) {
                expect(f <= u, "failed_uploads_rebuildable = \(f) > upload_failures = \(u)")
            }
            if let p = v(.plaintextExposedMessages), t.k >= 2 { expect(p == 0, "plaintext_exposed_messages = \(p) with k = \(t.k)") }
            if let c = v(.coalitionExposedMessages), !t.colludes { expect(c == 0 || c.isNaN, "coalition_exposed_messages = \(c) without collude") }
            if let c = v(.corruptedDeliveries), !t.mayPhantom { expect(c == 0, "corrupted_deliveries = \(c) without tamper or stale servers") }
        }
        let quantiles = [v(.deliveryLatencyP50), v(.deliveryLatencyP95), v(.deliveryLatencyMax)].compactMap { $0 }.filter { !$0.isNaN }
        if quantiles.count == 3 { expect(quantiles[0] <= quantiles[1] && quantiles[1] <= quantiles[2], "latency quantiles out of order: \(quantiles)") }
        if t.encryptedStore, let b = v(.devicePlaintextBytes), !b.isNaN { expect(b == 0, "device_plaintext_bytes = \(b) with an encrypted store") }
        for (name, value) in o.metrics where !value.isNaN { expect(value >= 0 || name == .events, "\(name) = \(value) < 0") }
        return out.map { ExploreFinding(oracle: .metrics, message: $0, checker: nil) }
    }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}

extension ServerMisbehaviour {
    /// Whether the behaviour can serve share bytes other than those stored: tampering with a
    /// positive fraction, or stale shares.
    var altersShares: Bool {
        switch self {
        case .tamper(let fraction): fraction > 0
        case .stale: true
        default: false
        }
    }
}
