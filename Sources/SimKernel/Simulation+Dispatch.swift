/// How `step()` reaches a component without retaining it: per component its object,
/// unretained, and its type (an existential metatype, a plain value). Calling
/// `handle` through the type's `deliver` borrows the object, where a call through the
/// `any SimComponent` array entry costs a `swift_retain`/`swift_release` pair (two
/// atomic updates, ~40 instructions) per event.
///
/// Audit notes: `Simulation.components` holds every component strongly for the
/// simulation's lifetime and only ever appends, so each `object` stays alive while the
/// simulation can deliver to it; `type` is the object's dynamic type, recorded by
/// `Simulation.add` next to it, so the unchecked downcast in `deliver` is exact.
/// `deliver(movingFrom:)` moves the event out of the slot `step()` has just freed: the move
/// is the argument of `handle`, evaluated before the handler runs, so no push can reuse the
/// slot before it, and `step()` pushes nothing between freeing the slot and the call.
@usableFromInline struct ComponentEntry<Event> {
    @usableFromInline let object: Unmanaged<AnyObject>
    @usableFromInline let type: any SimComponent<Event>.Type
    @inlinable init<C: SimComponent>(_ component: C) where C.Event == Event {
        object = Unmanaged.passUnretained(component)
        type = C.self
    }
}

extension SimComponent {
    /// Calls `handle` on `object`, which must be an instance of `Self` kept alive by its
    /// simulation (see `ComponentEntry`), moving the event out of `delivery` (a popped
    /// event's slot, already freed: nothing may push before the move) into the call.
    @inlinable @inline(__always)
    static func deliver(movingFrom delivery: UnsafeMutablePointer<Simulation<Event>.Delivery>, to object: Unmanaged<AnyObject>,
                        in sim: Simulation<Event>) {
        object._withUnsafeGuaranteedRef {
            unsafeDowncast($0, to: Self.self).handle(delivery.move().event, in: sim)
        }
    }
}
