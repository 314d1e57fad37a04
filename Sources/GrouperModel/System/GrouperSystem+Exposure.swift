import SimKernel

/// Exposure and storage observations (docs/architectures.md), kept when `config.trackExposure` is set.
extension GrouperSystem {
    /// ∫ (bytes of shares all servers hold) dt up to now, in byte·seconds.
    public var byteSecondsAtRest: Double { world.serverNodes.reduce(0) { $0 + $1.heldBytes.area(upTo: sim.now) } }
    /// The most share bytes any one server held at once. (Servers' maxima may fall at different
    /// times, so this is not the maximum of the total; one server is what one break-in exposes.)
    public var bytesAtRestMax: Double { world.serverNodes.reduce(0) { max($0, $1.heldBytes.max) } }
    /// Messages some single server held ≥ k shares of at some moment: 0 for k ≥ 2, since a server
    /// holds only its own share index of a message. Nil without `trackExposure`.
    public var plaintextExposedMessages: Int? { world.record.singles?.exposedIDs.count }
    /// Σ over servers and messages of the time that server alone could read the message (s).
    public var plaintextExposureSeconds: Double? { world.record.singles?.exposureSeconds(upTo: sim.now) }
}
