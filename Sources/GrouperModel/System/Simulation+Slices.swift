import SimKernel

extension Simulation {
    /// Runs every event up to and including `time` in slices of `slice` events, asking `stop`
    /// after each full slice (never between them, so the same events run as in one go);
    /// false when `stop` gave the run up, with the clock at the last event handled. When a
    /// run's event `budget` ends within the next slice, `plain` (the system's own
    /// `run(until:)`, which stops at the budget and notes it) runs the rest instead.
    /// `GrouperSystem` and `CentralSystem` share it (`run(until:stop:every:)`).
    func run(until time: SimTime, inSlicesOf slice: UInt64, budget: UInt64?, stop: () -> Bool,
             plain: () -> Void) -> Bool {
        while true {
            let sliceEnd = eventsProcessed.addingReportingOverflow(slice)
            if sliceEnd.overflow || budget.map({ $0 <= sliceEnd.partialValue }) == true { plain(); return true }
            if run(until: time, maxEvents: sliceEnd.partialValue) { return true }
            if stop() { return false }
        }
    }
}
