extension Simulation {
    /// Checks the kernel's invariants; returns the first violation, nil when all hold.
    /// O(pending); for tests and flag-gated debug runs, never the hot path.
    ///
    /// - the queue's own invariants (`EventQueue.checkInvariants()`);
    /// - no pending event lies before `now` (time never moves backwards);
    /// - every pending event targets a registered component.
    public func checkInvariants() -> String? {
        if let problem = queue.checkInvariants() { return "event queue: \(problem)" }
        let keys = queue.storedKeys
        if let early = keys.first(where: { $0.time < _now.nanoseconds }) {
            return "pending event at \(SimTime(nanoseconds: early.time)) is before now \(_now)"
        }
        for key in keys {
            let slot = Int(key.tag & EventQueue<Delivery>.slotMask)
            let target = queue.slots.payload(slot).pointee.target
            if target.index < 0 || Int(target.index) >= components.count {
                return "pending event targets unknown component \(target)"
            }
        }
        return nil
    }
}
