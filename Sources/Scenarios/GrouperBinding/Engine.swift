import Execution
import Plan

/// Which executor `grouper-sim run` uses.
public enum Engine: String, CaseIterable, Sendable {
    /// The real protocol model.
    case grouper
    /// `SyntheticExecutor`: a deterministic stand-in for testing the pipeline.
    case synthetic

    public var executor: any RunExecutor {
        switch self {
        case .grouper: return GrouperExecutor()
        case .synthetic: return SyntheticExecutor()
        }
    }
}
