/// The binding of a scenario to the Grouper protocol model (GrouperModel):
/// ScenarioSpec → system configuration + workload/churn/fault drivers → run →
/// metrics, checkers and fingerprint. This file is the only place that knows both.
public struct GrouperExecutor: RunExecutor {
    public init() {}

    public func execute(_ run: ResolvedRun) throws -> RunOutcome {
        throw RunFailure(runIndex: run.index, message:
            "the Grouper protocol model is not wired into scenarios in this build yet (issue 4); "
            + "use --engine synthetic to exercise the scenario pipeline")
    }
}

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
