import SimKernel
import GrouperModel
import Execution

/// One run of the Grouper protocol model on the binding's path: the system built from a
/// configuration (a rejected configuration is a `RunFailure`, a bug of the caller, never bad
/// input), commands scheduled before it starts, run to an end, and internal failures of the
/// model reported loudly. Every Grouper scenario run (`GrouperExecutor`) runs this way, the
/// equations' replications included (`ThesisEquations.simulate` runs them as scenarios).
struct GrouperRun {
    let system: GrouperSystem
    let runIndex: Int

    /// Builds the model; the protocol log is kept only with `logging` (a trace file), the
    /// timing records only without `compactState` (the streaming statistics suffice otherwise).
    init(config: SystemConfig, runIndex: Int, logging: Bool) throws(RunFailure) {
        do { system = try GrouperSystem(config: config) } catch {
            throw RunFailure(runIndex: runIndex, message: "the protocol model rejected the configuration: \(error)")
        }
        self.runIndex = runIndex
        system.loggingEnabled = logging
        system.keepsTimingRecords = !config.compactState
    }

    /// Throws if the model recorded a failure of its own code during the run (a bug, not input).
    func checkInternalFailures() throws(RunFailure) {
        let failures = system.internalFailures
        guard let first = failures.first else { return }
        throw RunFailure(runIndex: runIndex, message: "internal error (a bug in the model, not bad input): \(first)"
                         + (failures.count > 1 ? " (and \(failures.count - 1) more)" : ""))
    }
}
