/// The checkers of a run, in report order. Scenario files, `--checker` and the result files
/// spell them by `rawValue`.
public enum CheckerName: String, CaseIterable, Sendable, CustomStringConvertible {
    case convergence
    case delivery
    case outbox
    case noPhantom = "no-phantom"
    case ttl

    /// Liveness checkers judge what must eventually happen; the others judge safety.
    public var isLiveness: Bool {
        switch self {
        case .convergence, .delivery, .outbox: true
        case .noPhantom, .ttl: false
        }
    }

    /// Whether a run with no writes leaves this checker nothing to judge (it then holds vacuously).
    public var needsWrites: Bool {
        switch self {
        case .convergence, .delivery: true
        case .outbox, .noPhantom, .ttl: false
        }
    }

    public var description: String { rawValue }
}
