/// Which assumptions an `equations` run makes real (docs/equations.md). `.thesis` realises the
/// thesis's own assumptions behind 6.5–6.8; `.protocol` is the simulated protocol as built.
/// The ablation walks from one to the other, switching one assumption per step.
public struct EquationAssumptions: Equatable, Hashable, Sendable {
    /// Offline periods follow a rotating deterministic schedule (F periods of exactly L per
    /// TTL, writers write and confirm only while online). Off: every device alternates
    /// exponential offline (mean L) and online periods and writes on its own clock.
    public var scheduledOffline: Bool
    /// F counts offline periods per TTL (time-average F·L/T devices offline, the thesis's
    /// reading of 6.5). Off: F is the time-average number of offline devices.
    public var fCountsPeriodsPerTTL: Bool
    /// A returning device gets everything written while it was away re-uploaded, unchecked.
    /// Off: Algorithm 1 asks for gaps and confirms, the sender re-uploads what the servers lost.
    public var resendEverythingWrittenAway: Bool
    /// Re-uploads are multicast and downloaded by every device. Off: unicast to the requester.
    public var multicastReuploads: Bool
    /// Devices confirm on reconnect, and resend requests and those confirms count as uploads.
    public var controlMessagesCounted: Bool
    /// Resend requests ask only for the missing ranges (`protocol.resend_ranges` `"holes"`).
    /// Off: one inclusive range first…last missing (the thesis, the protocol's default).
    public var resendHoles = false

    public static let thesis = EquationAssumptions(scheduledOffline: true, fCountsPeriodsPerTTL: true,
                                                   resendEverythingWrittenAway: true, multicastReuploads: true,
                                                   controlMessagesCounted: false)
    public static let `protocol` = EquationAssumptions(scheduledOffline: false, fCountsPeriodsPerTTL: false,
                                                       resendEverythingWrittenAway: false, multicastReuploads: false,
                                                       controlMessagesCounted: true)

    /// The model name when this is one of the two presets.
    public var modelName: String {
        var span = self
        span.resendHoles = false
        return self == .thesis ? "thesis" : self == .protocol ? "protocol"
            : span == .protocol ? "protocol-holes" : "ablation"
    }

    /// Time-average number of offline devices for F and L/T.
    func averageOffline(f: Double, lOverT: Double) -> Double { fCountsPeriodsPerTTL ? f * lOverT : f }

    /// The ablation: from the thesis model, one assumption switched to the protocol's per step.
    public static var ablationSteps: [(label: String, assumptions: EquationAssumptions)] {
        var a = EquationAssumptions.thesis
        var steps = [("--model thesis", a)]
        a.scheduledOffline = false
        steps.append(("+ exponential offline times (writers write offline too)", a))
        a.resendEverythingWrittenAway = false
        steps.append(("+ only expired messages requested, after a servers check", a))
        a.multicastReuploads = false
        steps.append(("+ unicast re-uploads", a))
        a.controlMessagesCounted = true
        steps.append(("+ reconnect confirms and resend requests counted as uploads", a))
        steps.append(("= --model protocol (F read as average offline devices)", .protocol))
        var holes = EquationAssumptions.protocol
        holes.resendHoles = true
        steps.append(("+ resend requests ask only the holes (protocol.resend_ranges \"holes\")", holes))
        return steps
    }
}
