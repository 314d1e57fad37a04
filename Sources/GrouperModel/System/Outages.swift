/// Why a device is offline or a server is down, as a set of active reasons: each
/// churn process, churn window, fault entry and the schedule is its own reason (a number the
/// caller chooses), and the device is offline (the server down) while any of its reasons holds.
/// Overlapping windows thus nest: the end of one does not end another that still holds.
///
/// `Mode` is what a reason says (a server's `ServerState`: refusing or blackholed); the mode in
/// force is that of the most recently started reason still active.
public struct Outages<Mode: Equatable & Sendable>: Sendable {
    /// Active reasons, in the order they started.
    public private(set) var active: [(reason: Int, mode: Mode)] = []

    public init() {}

    /// Starts `reason` with `mode` (again: it moves to the end) or, with nil, ends it; returns
    /// the mode in force afterwards, nil when no reason holds.
    public mutating func set(_ reason: Int, _ mode: Mode?) -> Mode? {
        active.removeAll { $0.reason == reason }
        if let mode { active.append((reason, mode)) }
        return current
    }

    /// The mode in force: that of the most recently started active reason; nil when none holds.
    public var current: Mode? { active.last?.mode }
}

/// The reason a caller names when it names none: `setOnline`/`setServerState` calls without a
/// `reason` (tests, the equations' schedule) all share it, so such calls behave as a plain switch.
public let defaultOutageReason = 0
