import SimKernel

/// `{"at": "2h", "device": 3, "do": "confirm"}`: one command of a scenario's `schedule`, what a
/// driver that computes a whole schedule first (the equations' replications) hands over.
///
/// The schedule is played after the workload, churn, faults and invitations, in list order:
/// the kernel breaks ties between events at one time by scheduling order, so the list order is
/// part of the schedule.
public struct ScheduledCommand: Equatable, Sendable {
    public enum Action: Equatable, Sendable {
        /// The device sends a confirm message.
        case confirm
        /// The device runs a receive round (pulls from the servers).
        case receive
        /// The device goes offline.
        case offline
        /// The device comes back online.
        case online
        /// The device answers a resend request from `requester` (1-based) for its normal
        /// messages with sequences `first...last`, as if the request arrived now (the answer
        /// waits in its outbox while it is offline).
        case resend(requester: Int, first: Int, last: Int)
    }

    /// The `do` names, in documentation order.
    public static let actionNames = ["confirm", "receive", "offline", "online", "resend"]

    public var at: SimDuration
    /// 1-based device number.
    public var device: Int
    public var action: Action

    public init(at: SimDuration, device: Int, action: Action) {
        self.at = at; self.device = device; self.action = action
    }

    public var actionName: String {
        switch action {
        case .confirm: "confirm"
        case .receive: "receive"
        case .offline: "offline"
        case .online: "online"
        case .resend: "resend"
        }
    }
}
