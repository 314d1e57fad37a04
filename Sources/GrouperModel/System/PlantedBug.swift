/// Faults planted on purpose, one at a time, so that tests can check that `grouper-sim explore`
/// catches each kind quickly (its canaries). Never reachable from a scenario file or the
/// command line: only code sets `SystemConfig.plantedBug`.
public enum PlantedBug: String, CaseIterable, Sendable {
    /// Algorithm 1 takes a message one past the next expected as the next in order: a gap of
    /// one message is neither asked for nor remembered, so the message is never delivered.
    case gapOffByOne = "gap-off-by-one"
    /// A sender answering a resend request does not leave out the messages it is already
    /// answering for that requester: overlapping requests each get their own copy.
    case duplicateReupload = "duplicate-reupload"
    /// The convergence checker leaves out objects whose final write was sent as chunks, as if
    /// they were held.
    case checkerIgnoresChunks = "checker-ignores-chunks"
    /// The thesis variant runs without recovery (no-recovery's behaviour) while every report
    /// still names it thesis.
    case noRecoveryAsThesis = "no-recovery-as-thesis"
}
