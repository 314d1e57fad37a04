/// Dense id of a component registered with a `Simulation` (its index).
public struct ComponentID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let index: Int32
    @inlinable public init(index: Int32) { self.index = index }
    @inlinable public static func < (a: ComponentID, b: ComponentID) -> Bool { a.index < b.index }
    public var description: String { "#\(index)" }
}

/// Something that receives timed events: a device, a server, a link.
///
/// Components are classes owned by one `Simulation`; they keep their own state and
/// schedule further events through the simulation they are handed.
public protocol SimComponent<Event>: AnyObject {
    associatedtype Event
    /// Stable name: labels traces and seeds this component's RNG stream.
    var name: String { get }
    /// Handles one event at `sim.now`. The event is handed over (`consuming`): the kernel
    /// keeps no copy, so a handler declared `consuming` may keep its payload without copying
    /// it; a handler with a plain parameter satisfies this too (it borrows the event, which
    /// is destroyed after it returns).
    func handle(_ event: consuming Event, in sim: Simulation<Event>)
}

/// The single-threaded discrete-event loop.
///
/// Events are delivered in (time, seq) order; `now` never decreases; scheduling in
/// the past is a precondition failure. One `Simulation` value per run, no globals.
/// Optional JSON Lines tracing (`trace`) and a run fingerprint (`fingerprint()`);
/// see docs/kernel.md.
public final class Simulation<Event> {
    @usableFromInline struct Delivery {
        @usableFromInline var target: ComponentID
        @usableFromInline var event: Event
        @inlinable init(target: ComponentID, event: Event) { self.target = target; self.event = event }
    }

    public let streams: RandomStreams
    // Hot fields opt out of dynamic exclusivity checks (they cost ~15% of an event):
    // a run is single-threaded and no access to them spans a call into a component
    // (`step()` finishes with the queue before `handle` runs).
    @exclusivity(unchecked) @usableFromInline var _now: SimTime = .zero
    @exclusivity(unchecked) @usableFromInline var _eventsProcessed: UInt64 = 0
    /// Current virtual time.
    @inlinable public var now: SimTime { _now }
    /// Events delivered so far.
    @inlinable public var eventsProcessed: UInt64 { _eventsProcessed }
    @exclusivity(unchecked) @usableFromInline var queue: EventQueue<Delivery>
    @exclusivity(unchecked) @usableFromInline var components: ContiguousArray<any SimComponent<Event>> = []
    /// `components` unretained, for dispatch (`ComponentEntry`); same indices.
    @exclusivity(unchecked) @usableFromInline var entries: ContiguousArray<ComponentEntry<Event>> = []
    @exclusivity(unchecked) @usableFromInline var stopRequested = false
    /// Optional trace of every delivered event (JSON Lines). nil = off: one nil check per event.
    @exclusivity(unchecked) public var trace: TraceSink?
    /// Optional observer of every event about to be delivered: time, target and the event
    /// (a copy). For tools that draw a run (`grouper-sim timeline`); it must not change the
    /// simulation. nil = off: one nil check per event.
    @exclusivity(unchecked) public var observer: ((SimTime, ComponentID, Event) -> Void)?
    /// RNG state accessors mixed into `fingerprint()`, in registration order.
    var fingerprintSources: [() -> Xoshiro256StarStar] = []
    /// Hash of the ordered event stream (time, seq, target) so far.
    @exclusivity(unchecked) @usableFromInline var _eventStreamHash = EventStreamHash()
    public var eventStreamHash: EventStreamHash { _eventStreamHash }

    public init(seed: UInt64, reservingEvents capacity: Int = 1024) {
        streams = RandomStreams(rootSeed: seed)
        queue = EventQueue(reservingCapacity: capacity)
    }

    // MARK: Components

    @discardableResult
    public func add<C: SimComponent>(_ component: C) -> ComponentID where C.Event == Event {
        precondition(components.count < Int(Int32.max), "too many components")
        components.append(component)
        entries.append(ComponentEntry(component))
        return ComponentID(index: Int32(components.count - 1))
    }

    public func component(_ id: ComponentID) -> any SimComponent<Event> { components[Int(id.index)] }
    public var componentCount: Int { components.count }

    /// The RNG stream for a named component, derived from the run's seed.
    public func randomStream(for name: String) -> Xoshiro256StarStar { streams.stream(named: name) }

    // MARK: Scheduling

    @inlinable @discardableResult
    public func schedule(_ event: consuming Event, to target: ComponentID, at time: SimTime) -> EventHandle {
        precondition(time >= now, "scheduling in the past (\(time) < now \(now))")
        precondition(Int(target.index) < components.count && target.index >= 0, "unknown component \(target)")
        return queue.pushUnshared(Delivery(target: target, event: event), at: time)
    }

    /// `schedule` for an event of a plan the model makes before its run (a workload, churn,
    /// faults): the same seq and the same order of events, but the event waits in a sorted lane
    /// beside the queue (`EventQueue.pushAhead`), so that a plan of many events does not make
    /// every other event's push and pop dearer.
    @inlinable @discardableResult
    public func scheduleAhead(_ event: consuming Event, to target: ComponentID, at time: SimTime) -> EventHandle {
        precondition(time >= now, "scheduling in the past (\(time) < now \(now))")
        precondition(Int(target.index) < components.count && target.index >= 0, "unknown component \(target)")
        return queue.pushAheadUnshared(Delivery(target: target, event: event), at: time)
    }

    @inlinable @discardableResult
    public func schedule(_ event: consuming Event, to target: ComponentID, after delay: SimDuration) -> EventHandle {
        precondition(delay.nanoseconds >= 0, "negative delay \(delay)")
        return schedule(event, to: target, at: now + delay)
    }

    /// Cancels a pending event; false if it already ran or was cancelled.
    @inlinable @discardableResult
    public func cancel(_ handle: EventHandle) -> Bool { queue.cancel(handle) }

    /// Live pending events.
    public var pendingCount: Int { queue.count }
    /// Time of the next live event, if any.
    public func nextEventTime() -> SimTime? { queue.peekTime() }

    // MARK: Running

    /// Delivers the earliest event. Returns false when the queue is empty.
    @inlinable @inline(__always) @discardableResult
    public func step() -> Bool {
        guard let (time, handle) = queue.popMinKeyUnshared() else { return false }
        deliverPopped(time: time, handle: handle)
        return true
    }

    /// Delivers the earliest event if its time is at most `limit` (nanoseconds); false when
    /// there is none.
    @inlinable @inline(__always)
    func step(notAfter limit: Int64) -> Bool {
        guard let (time, handle) = queue.popMinKeyUnshared(notAfter: limit) else { return false }
        deliverPopped(time: time, handle: handle)
        return true
    }

    /// Delivers the event whose key the queue just popped.
    @inlinable @inline(__always)
    func deliverPopped(time: SimTime, handle: EventHandle) {
        _now = time
        _eventsProcessed &+= 1
        // The event stays in its slot while the trace and the observer read it, and moves from
        // there into the handler: a 100-byte event is not copied on its way out of the queue.
        let delivery = queue.payloadInPlace(handle)
        let target = delivery.pointee.target
        _eventStreamHash.mix(time: time.nanoseconds, seq: handle.seq, target: target.index)
        if let sink = trace { traceDelivery(sink, seq: handle.seq, target: target, event: delivery.pointee.event) }
        if let observer { observer(time, target, delivery.pointee.event) }
        let entry = entries[Int(target.index)]
        queue.releaseSlot(of: handle)   // nothing is pushed before the event moves out
        entry.type.deliver(movingFrom: delivery, to: entry.object, in: self)   // handed over
    }

    /// Asks `run…` to return after the event being handled.
    @inlinable public func stop() { stopRequested = true }

    /// Runs every event with time ≤ `limit`, then sets `now = limit` (if later).
    @inlinable public func run(until limit: SimTime) {
        stopRequested = false
        while !stopRequested, step(notAfter: limit.nanoseconds) {}
        if !stopRequested && _now < limit { _now = limit }
    }

    /// `run(until:)` that also stops before the event that would make `eventsProcessed` exceed
    /// `maxEvents` (a budget on a run that may loop); false when it stopped for the budget.
    @inlinable public func run(until limit: SimTime, maxEvents: UInt64) -> Bool {
        stopRequested = false
        while !stopRequested {
            if _eventsProcessed >= maxEvents {
                if let t = queue.peekTime(), t <= limit { return false }
                break
            }
            if !step(notAfter: limit.nanoseconds) { break }
        }
        if !stopRequested && _now < limit { _now = limit }
        return true
    }

    /// Runs until no events remain (or `stop()`).
    @inlinable public func runUntilQuiescent() {
        stopRequested = false
        while !stopRequested && step() {}
    }

    /// Runs while `condition` holds before each event (and events remain).
    @inlinable public func run(while condition: (Simulation<Event>) -> Bool) {
        stopRequested = false
        while !stopRequested, condition(self), step() {}
    }
}

/// Order-sensitive 64-bit hash of the event stream (stable across processes).
public struct EventStreamHash: Hashable, Sendable {
    public var value: UInt64 = 0x6A09_E667_F3BC_C908
    public init() {}
    @inlinable @inline(__always) public mutating func mix(time: Int64, seq: UInt64, target: Int32) {
        mix(UInt64(bitPattern: time)); mix(seq); mix(UInt64(UInt32(bitPattern: target)))
    }
    @inlinable public mutating func mix(_ word: UInt64) {
        var sm = SplitMix64(seed: value ^ word)
        value = sm.next()
    }
    /// 16 lowercase hex digits.
    public var hex: String { StableHash.hex(value) }
}
