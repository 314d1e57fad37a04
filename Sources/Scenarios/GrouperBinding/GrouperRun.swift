import SimKernel
import GrouperModel

/// A command on the protocol model at a virtual time: what a driver schedules before a run.
///
/// Scenario drivers (`GrouperDrivers`) call `DrivenSystem` directly as they draw; a driver that
/// computes a whole schedule first (the equations' replications) hands it over as a list, and
/// `GrouperRun.play` schedules it in list order. The order matters: the kernel breaks ties
/// between events at the same time by scheduling order, so a list is a complete description.
enum DriverCommand: Equatable, Sendable {
    /// `sender.update` of `objectID` with a `size`-byte payload.
    case update(objectID: String, size: Int)
    /// `sender.confirm`.
    case confirm
    /// A receive round.
    case receive
    /// The device goes offline (false) or comes back (true).
    case setOnline(Bool)
    /// The device answers a resend request from `requester` for its normal messages in `range`.
    case answerResend(requester: Int, range: ClosedRange<Int>)
}

/// `command` on device `device` (0-based) at `time`.
struct TimedCommand: Equatable, Sendable {
    var time: SimTime
    var device: Int
    var command: DriverCommand
}

/// One run of the Grouper protocol model on the binding's path: the system built from a
/// configuration (a rejected configuration is a `RunFailure`, a bug of the caller, never bad
/// input), commands scheduled before it starts, run to an end, and internal failures of the
/// model reported loudly. Scenario runs (`GrouperExecutor`) and the equations' replications
/// (`ThesisEquations.simulate`) both run this way.
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

    /// Schedules `commands` in order.
    func play(_ commands: [TimedCommand]) {
        for c in commands {
            switch c.command {
            case .update(let object, let size): system.update(device: c.device, objectID: object, size: size, at: c.time)
            case .confirm: system.confirm(device: c.device, at: c.time)
            case .receive: system.receive(device: c.device, at: c.time)
            case .setOnline(let online): system.setOnline(online, device: c.device, at: c.time)
            case .answerResend(let requester, let range):
                system.resend(device: c.device, requester: requester, range: range, at: c.time)
            }
        }
    }

    /// Throws if the model recorded a failure of its own code during the run (a bug, not input).
    func checkInternalFailures() throws(RunFailure) {
        let failures = system.internalFailures
        guard let first = failures.first else { return }
        throw RunFailure(runIndex: runIndex, message: "internal error (a bug in the model, not bad input): \(first)"
                         + (failures.count > 1 ? " (and \(failures.count - 1) more)" : ""))
    }
}
