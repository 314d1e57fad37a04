import SimKernel

extension GrouperSystem {
    /// Checks the kernel (event queue), every server's store and every device's delivery
    /// state; returns the first violation, nil when all hold. O(state): for tests and the
    /// `checksInvariants` flag, never normal runs.
    public func _checkInvariants() -> String? {
        if let p = sim.checkInvariants() { return "kernel: \(p)" }
        for node in world.serverNodes {
            if let p = node.server._checkInvariants() { return "server \(serverNumber(node.index)): \(p)" }
        }
        for node in world.deviceNodes {
            if let p = node.delivery._checkInvariants() { return "device \(node.index): delivery: \(p)" }
        }
        return nil
    }

    /// Runs every event up to and including `time`, checking `_checkInvariants()` before the
    /// first event and after each one; stops at the first violation (kept in
    /// `invariantViolation`, with the time and event count).
    func runCheckingInvariants(until time: SimTime) {
        _ = runCheckingInvariants(until: time, stop: { false }, every: .max)
    }

    /// `runCheckingInvariants(until:)` that also asks `stop` after every `slice` events;
    /// false when `stop` gave the run up.
    func runCheckingInvariants(until time: SimTime, stop: () -> Bool, every slice: UInt64) -> Bool {
        var nextQuestion = sim.eventsProcessed.addingReportingOverflow(slice)
        var stopped = false
        sim.run(while: { sim in
            guard self.invariantViolation == nil else { return false }
            if let p = self._checkInvariants() {
                self.invariantViolation = "at \(sim.now) after \(sim.eventsProcessed) events: \(p)"
                return false
            }
            guard (sim.nextEventTime() ?? .distantFuture) <= time else { return false }
            if !nextQuestion.overflow && sim.eventsProcessed >= nextQuestion.partialValue {
                if stop() { stopped = true; return false }
                nextQuestion = sim.eventsProcessed.addingReportingOverflow(slice)
            }
            return true
        })
        if stopped { return false }
        if invariantViolation == nil, let p = _checkInvariants() {
            invariantViolation = "at \(sim.now) after \(sim.eventsProcessed) events: \(p)"
        }
        if invariantViolation == nil { sim.run(until: time) }  // moves the clock to `time`
        return true
    }
}
