import SimKernel

/// Where an observed event goes: a device or a server (0-based, as in the model).
public enum EventTarget: Equatable, Sendable {
    case device(Int)
    case server(Int)
}

extension GrouperSystem {
    /// Calls `observer` with every event just before it is delivered: its time, target and
    /// value; nil stops. For tools that draw a run (`grouper-sim timeline`): the state the
    /// observer reads is the state after the previous event. Observing changes nothing in
    /// the run, its counters or its fingerprint.
    public func observeEvents(_ observer: ((SimTime, EventTarget, GrouperEvent) -> Void)?) {
        guard let observer else { sim.observer = nil; return }
        var targets: [EventTarget?] = []
        for (j, c) in world.serverComponents.enumerated() { Self.put(.server(j), at: Int(c.index), in: &targets) }
        for (i, c) in world.deviceComponents.enumerated() { Self.put(.device(i), at: Int(c.index), in: &targets) }
        sim.observer = { time, component, event in
            let i = Int(component.index)
            if i < targets.count, let t = targets[i] { observer(time, t, event) }
        }
    }

    private static func put(_ t: EventTarget, at i: Int, in targets: inout [EventTarget?]) {
        while targets.count <= i { targets.append(nil) }
        targets[i] = t
    }

    /// Calls `observer` with every message a device creates (normal, confirm and resend, and
    /// the copy under a new id that a multicast re-upload sends), as it is made; nil stops. Observing changes nothing in the run.
    public func observeMessages(_ observer: ((GrouperMessage) -> Void)?) { world.record.messageObserver = observer }
}
