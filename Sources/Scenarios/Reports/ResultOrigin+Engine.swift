import ScenarioFile
import Execution
import GrouperBinding
extension ResultOrigin {
    /// A result (`kind` .result) or shard of `source`, run by `engine`.
    public init(_ kind: Kind, source: ScenarioSource, engine: Engine, runs: Int = 0) {
        self.init(kind, source: source, engine: engine.rawValue, runs: runs)
    }
}
