extension Simulation {
    /// Records the event being delivered; called by `step()` only when `trace` is set.
    @usableFromInline func traceDelivery(_ sink: TraceSink, seq: UInt64, target: ComponentID, event: Event) {
        let name = components[Int(target.index)].name
        if sink.components != nil && !(sink.components!.contains(name)) { return }
        let (kind, fields) = TraceSink.describe(event)
        sink.record(time: now, seq: seq, component: name, kind: kind, fields: fields)
    }
}
