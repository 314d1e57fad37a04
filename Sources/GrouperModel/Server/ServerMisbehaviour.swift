import SimKernel

/// What a dishonest server does on top of being up or down (docs/adversaries.md). Several can be
/// active on one server at once; each is switched on and off by `ServerCommand.misbehave`.
public enum ServerMisbehaviour: Equatable, Sendable {
    /// A served share has one symbol (secret byte) in its first half shifted by a non-zero
    /// delta, for a `fraction` of the shares (decided per share id from the run seed: the same
    /// share is always served the same way). The symbol depends on (run seed, message id), so
    /// every tampering server alters the same symbol of a message; the delta also depends on
    /// the server (`ServerNode.tampered`).
    case tamper(fraction: Double)
    /// For a re-put message id, serve the share stored before instead of the current one.
    case stale
    /// `.get`: list a share but leave it out of `transfer/get` replies; `.list`: leave it out
    /// of lists (so it is never asked for). For a `fraction` of the shares, decided per share id.
    case withhold(mode: WithholdMode, fraction: Double)
    /// Delete shares after `ttl`, shorter than the group's.
    case earlyDelete(ttl: SimDuration)
    /// Ignore the TTL: never sweep, keep and serve every share.
    case keep

    public enum WithholdMode: String, CaseIterable, Sendable { case get, list }

    /// The scenario-file name of the behaviour.
    public var kindName: String {
        switch self {
        case .tamper: "tamper"
        case .stale: "stale"
        case .withhold: "withhold"
        case .earlyDelete: "early-delete"
        case .keep: "keep"
        }
    }
}

/// The behaviours active on one server, by the id of the fault that switched them on.
/// Combined conservatively: the largest fractions, the shortest early-delete TTL.
struct ActiveMisbehaviours: Sendable {
    /// Sorted by fault id.
    private(set) var active: [(id: Int, behaviour: ServerMisbehaviour)] = []

    mutating func set(_ id: Int, _ behaviour: ServerMisbehaviour?) {
        active.removeAll { $0.id == id }
        if let behaviour {
            active.append((id, behaviour))
            active.sort { $0.id < $1.id }
        }
    }

    var isEmpty: Bool { active.isEmpty }

    var tamperFraction: Double {
        active.reduce(0) { if case .tamper(let f) = $1.behaviour { max($0, f) } else { $0 } }
    }
    func withholdFraction(_ mode: ServerMisbehaviour.WithholdMode) -> Double {
        active.reduce(0) { if case .withhold(mode, let f) = $1.behaviour { max($0, f) } else { $0 } }
    }
    var stale: Bool { active.contains { $0.behaviour == .stale } }
    var keep: Bool { active.contains { $0.behaviour == .keep } }
    var earlyDeleteTTL: SimDuration? {
        active.compactMap { if case .earlyDelete(let t) = $0.behaviour { t } else { nil } }.min()
    }
}

/// A named set of servers that pool what they store (drives the exposure metrics only).
public struct Coalition: Equatable, Sendable {
    public var name: String
    /// Server indices (0-based), sorted, distinct.
    public var servers: [Int]
    public init(name: String, servers: [Int]) { self.name = name; self.servers = servers }
}
