import SimKernel

/// Where a Grouper client runs: its clock, its own timers, its CPU, and its requests to the
/// servers (push notifications to other members are requests too: `notify`).
///
/// The client's cores (sender, receiver, Algorithm 1, resends, membership) return their effects as
/// `ClientEffect` values and `DeviceNode` performs them through this interface, so they do not
/// know they are simulated: `SimulatedDeviceNode` implements it on the kernel and the network
/// model, and a test can script it. What the
/// device reports about itself (protocol log, counters, transfer timings, internal failures)
/// goes through it too. The rest of what a device touches are the run's parts that need no
/// simulator either: the read-only `GroupDirectory`, the shared message stores
/// (`SharedStores`) and the checkers' `RunRecord`.
protocol DeviceContext {
    /// The current time.
    var now: SimTime { get }
    /// Whether the protocol log is kept (a client builds a log line's text only then).
    var logging: Bool { get }
    /// Hands `event` back to this device at `time` (work done on its CPU, a timer).
    func schedule(_ event: consuming GrouperEvent, at time: SimTime)
    /// Hands `event` back to this device after `delay`.
    func schedule(_ event: consuming GrouperEvent, after delay: SimDuration)
    /// Reserves this device's CPU for `work` (costed by the caller from `DeviceProfile`) and
    /// returns when it is done. The context owns the CPU: the simulator queues work on one
    /// core per device (`CPUModel`); a test can make work instant, slow, or anything it likes.
    func useCPU(_ work: SimDuration) -> SimTime
    /// Sends `request` (`bytes` on the wire) to server `server`. Its outcome comes back to this
    /// device as `.response` (or `.timeout`) with the request's id.
    func send(_ request: consuming ServerRequest, bytes: Int, to server: Int)
    /// A new request id, unique in the run (the simulator numbers the run's requests in order).
    func takeRequestID() -> Int
    /// A setup call (creating the group, registering a member face to face) answered by server
    /// `server` at once and untimed; nil when the server cannot answer now.
    func directCall(_ request: ServerRequest, to server: Int) -> Result<ServerReply, ServerError>?
    /// Appends `text` to the protocol log under this device and the current time. The
    /// simulator keeps the run's log (`GrouperSystem.log`, trace files) and builds `text` only
    /// while logging is on; a test can collect it.
    func log(_ text: @autoclosure () -> String)
    /// Adds one to the protocol counter `kind` for this device, a message of `type`, at the
    /// current time. The simulator keeps the run's counters (`GrouperSystem.counters`).
    func count(_ kind: CounterKind, type: MessageType)
    /// Adds `amount` to the protocol counter `kind` (the same as `amount` calls of `count`): a
    /// receive round counts its rebuilt messages once per type instead of once per message.
    func count(_ kind: CounterKind, type: MessageType, amount: Int)
    /// Reports one finished upload or download round of this device (`GrouperSystem`'s timings).
    func recordTiming(_ timing: TransferTiming)
    /// Reports a failure of the client's own code (an operation that cannot fail on valid state
    /// did) under this device and the current time: the run goes on, and the simulator's
    /// executor reports it as an internal error.
    func internalFailure(_ text: String)
    /// Another device and its context, for the one face-to-face step: an invitation hands the
    /// invitee its keys and the held messages directly.
    func peer(_ device: Int) -> (node: DeviceNode, context: Self)
}

extension DeviceContext {
    var logging: Bool { true }

    func count(_ kind: CounterKind, type: MessageType, amount: Int) {
        for _ in 0..<amount { count(kind, type: type) }
    }
}
