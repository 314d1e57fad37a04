import SimKernel

/// Opt-in departures from the protocol's recovery, used to make the thesis's simplifying
/// assumptions of equations 6.5–6.8 real (docs/equations.md). The defaults are the protocol:
/// a `RecoveryOptions()` changes nothing.
public struct RecoveryOptions: Equatable, Sendable {
    /// Receivers send resend requests for the gaps and confirms Algorithm 1 finds. Off: they
    /// never ask on their own (recovery only through `GrouperSystem.resend`).
    public var receiverAsks = true
    /// A sender asks every server (`transfer/confirm`) which requested messages are gone and
    /// re-uploads only those. Off: it re-uploads every requested message.
    public var senderChecksServers = true
    /// Re-uploads are multicast under a fresh message id, so every member downloads them
    /// (thesis 6.8). Off: unicast to the requester under the original id.
    public var multicastReuploads = false
    public init() {}
}

/// What a receiver's resend request asks for (scenario `protocol.resend_ranges`).
public enum ResendRanges: String, CaseIterable, Sendable {
    /// One inclusive range, first missing…last missing (the thesis, Client/DeliveryState.swift):
    /// messages the requester received between two holes are inside it and are re-uploaded
    /// if their multicast copy expired.
    case span
    /// The list of missing ranges ("a-b,c-d"): nothing the requester holds is asked for.
    case holes
}

extension GrouperSystem {
    /// Device `device` answers a resend request from `requester` for its normal messages in
    /// `range` (sequences), as if the request had arrived at `t`. Works while the device is
    /// offline: the re-uploads wait in its outbox until it reconnects.
    public func resend(device: Int, requester: Int, range: ClosedRange<Int>, at t: SimTime) {
        precondition(world.deviceComponents.indices.contains(requester), "device \(requester) out of range")
        command(.answerResend(requester: requester, range: range), device: device, at: t)
    }
}
