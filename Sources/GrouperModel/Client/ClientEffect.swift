import SimKernel

/// What a client core asks of the place it runs, as a value. The core decides; the adapter
/// (`DeviceNode.perform`) does: it numbers and sends requests, runs CPU work, and writes the
/// log and counters. Nothing here is a query, so a core never waits on the world: where a
/// decision needs the world's answer (a server's reply, the end of CPU work) the answer comes
/// back later as an input.
enum ClientEffect {
    /// A request to a server; its outcome comes back as the reply for `purpose`.
    case request(ClientRequest)
    /// `work` on this device's CPU; `then` comes back as an input once it is done (nil: the
    /// work only keeps the CPU busy, e.g. encrypting a store write).
    case cpu(SimDuration, then: GrouperEvent?)
    /// A protocol log line of this device.
    case log(String)
    /// `amount` added to the protocol counter `kind` for a message of `type`.
    case count(CounterKind, MessageType, amount: Int)
    /// A finished upload or download round.
    case timing(TransferTiming)
    /// The messages a receive round handled, in order (for whoever watches deliveries).
    case handled([GrouperMessage])
    /// A failure of the client's own code (an operation that cannot fail on valid state did).
    case internalFailure(String)
    /// A setup call (creating the group, registering a member): answered by the server at
    /// once and untimed; the answer comes back as an input when the call says what it is for.
    case setup(SetupCall)
    /// The face-to-face step: what the owner hands device `to` directly (an invitation, or a
    /// key registered late); it arrives there as an input.
    case handOver(FaceToFace, to: Int)
}

/// A request a core wants sent: the call, the server, what it is for, and the access key it
/// carries. `connected`: whether the device was online when it asked (offline, the request
/// fails at once with `.disconnected`).
struct ClientRequest {
    var call: ServerCall
    var server: Int
    var purpose: RequestPurpose
    /// The group id and the access key (`DeviceNode.credentials`).
    var credentials: RequestCredentials
    var connected: Bool

    var key: String { credentials.key }
}

/// A setup call a membership core wants made on server `server` with `key` (a master or
/// access key; empty for `group/register`). `answer`: what the answer is for, or nil when the
/// core does not need it (`group/init`, `user/deviceToken`).
struct SetupCall {
    var call: ServerCall
    var server: Int
    var key: String
    var answer: SetupPurpose?
}

/// What a setup call's answer is for: the input it comes back as (`setupAnswered`).
enum SetupPurpose: Equatable {
    /// `group/register` on `server` while creating the group: the master key.
    case groupRegistered(server: Int)
    /// The owner's own `user/add` on `server` while creating the group: its access key.
    case ownerAdded(server: Int)
    /// `user/add` of `invitee` on `server` at its invitation.
    case memberAdded(invitee: Int, server: Int)
    /// `user/add` of `invitee` on `server`, retried after the server was down at the invitation.
    case lateMemberAdded(invitee: Int, server: Int)
}

/// What an owner hands a device face to face.
enum FaceToFace {
    /// An invitation: the invitee's access keys per server (nil where it is not registered
    /// yet), the member list, and every normal message the owner holds.
    case invitation(keys: [String?], members: [String], messages: [GrouperMessage])
    /// The invitee's access key on `server`, registered after the invitation.
    case accessKey(server: Int, key: String)
}

/// Where a core's effects go, and the input's time: the adapter's sink performs each effect as
/// it comes (`DeviceNode.Performing`), a test's sink collects them (`CollectedEffects`). A core
/// takes its sink as a parameter (`_ out: some EffectSink`) and hands it on to the cores it
/// calls; it never stores it.
protocol EffectSink {
    /// When the input arrived.
    var now: SimTime { get }
    /// Whether log lines are kept: a core builds a line's text only then.
    var logging: Bool { get }
    /// Takes the next effect, in the order the core produces them.
    func take(_ effect: consuming ClientEffect)
    /// Takes a request effect given by its parts: `take(.request(ClientRequest(…)))`, unless the
    /// sink performs requests itself (`Performing`: the parts move into the server request;
    /// building a `ClientRequest` and taking it out of the effect would copy its credentials and
    /// call, a retain each).
    func takeRequest(_ call: consuming ServerCall, server: Int, purpose: RequestPurpose,
                     credentials: consuming RequestCredentials, connected: Bool)
}

/// The effects a core produces, by kind. Each is inlined into the core that calls it, so with
/// the adapter's sink the effect value is not built: the core runs the adapter's code for that
/// effect directly.
extension EffectSink {
    func takeRequest(_ call: consuming ServerCall, server: Int, purpose: RequestPurpose,
                     credentials: consuming RequestCredentials, connected: Bool) {
        take(.request(ClientRequest(call: call, server: server, purpose: purpose, credentials: credentials,
                                    connected: connected)))
    }

    @inline(__always)
    func request(_ r: consuming ClientRequest) { take(.request(r)) }

    @inline(__always)
    func cpu(_ work: SimDuration, then event: GrouperEvent? = nil) { take(.cpu(work, then: event)) }

    @inline(__always)
    func log(_ text: @autoclosure () -> String) {
        if logging { take(.log(text())) }
    }

    /// Adds `amount` to counter `kind`.
    @inline(__always)
    func count(_ kind: CounterKind, type: MessageType, amount: Int = 1) {
        take(.count(kind, type, amount: amount))
    }

    @inline(__always)
    func timing(_ t: TransferTiming) { take(.timing(t)) }

    @inline(__always)
    func handled(_ messages: [GrouperMessage]) { take(.handled(messages)) }

    @inline(__always)
    func internalFailure(_ text: String) { take(.internalFailure(text)) }

    /// A setup call on `server`; its answer comes back as `setupAnswered(answer, …)` unless
    /// `answer` is nil.
    @inline(__always)
    func setup(_ call: ServerCall, on server: Int, key: String, answer: SetupPurpose? = nil) {
        take(.setup(SetupCall(call: call, server: server, key: key, answer: answer)))
    }

    @inline(__always)
    func handOver(_ h: FaceToFace, to device: Int) { take(.handOver(h, to: device)) }
}

/// A sink that keeps the effects of one input in order; repeated counts of one kind and type
/// become one effect.
final class CollectedEffects: EffectSink {
    let now: SimTime
    let logging: Bool
    /// The effects produced so far, in order.
    private(set) var effects: [ClientEffect] = []

    init(now: SimTime, logging: Bool = true) {
        self.now = now
        self.logging = logging
    }

    func take(_ effect: consuming ClientEffect) {
        if case .count(let kind, let type, let amount) = effect, case .count(kind, type, let n)? = effects.last {
            effects[effects.count - 1] = .count(kind, type, amount: n + amount)
        } else {
            effects.append(effect)
        }
    }
}

/// A context that names the device it serves: what the adapter's sink holds. The simulator's
/// adapter (`SimulatedDeviceNode`) is one; any other context is paired with its device
/// (`BoundContext`).
protocol DeviceHost: DeviceContext {
    var node: DeviceNode { get }
    /// Performs one effect of `node` through this context: `node.perform(effect, self)`,
    /// inlined. Called on the host, where the device is a field of the borrowed host, so the
    /// device is not retained around the effect (a sink holding the device would retain it for
    /// each request).
    func perform(_ effect: consuming ClientEffect)
    /// Performs a request effect of `node` given by its parts (`EffectSink.takeRequest`).
    func performRequest(_ call: consuming ServerCall, server: Int, purpose: RequestPurpose,
                        credentials: consuming RequestCredentials, connected: Bool)
}

extension DeviceHost {
    @inline(__always)
    func performRequest(_ call: consuming ServerCall, server: Int, purpose: RequestPurpose,
                        credentials: consuming RequestCredentials, connected: Bool) {
        node.perform(call, server: server, purpose: purpose, credentials: credentials, connected: connected, self)
    }
}

/// `context` serving `node`: a plain context (a test's scripted one) as a host.
struct BoundContext<Context: DeviceContext>: DeviceHost {
    let node: DeviceNode
    let context: Context

    @inline(__always)
    func perform(_ effect: consuming ClientEffect) { node.perform(effect, self) }

    var now: SimTime { context.now }
    var logging: Bool { context.logging }
    func schedule(_ event: consuming GrouperEvent, at time: SimTime) { context.schedule(event, at: time) }
    func schedule(_ event: consuming GrouperEvent, after delay: SimDuration) { context.schedule(event, after: delay) }
    func useCPU(_ work: SimDuration) -> SimTime { context.useCPU(work) }
    func send(_ request: consuming ServerRequest, bytes: Int, to server: Int) { context.send(request, bytes: bytes, to: server) }
    func takeRequestID() -> Int { context.takeRequestID() }
    func directCall(_ request: ServerRequest, to server: Int) -> Result<ServerReply, ServerError>? {
        context.directCall(request, to: server)
    }
    func log(_ text: @autoclosure () -> String) { context.log(text()) }
    func count(_ kind: CounterKind, type: MessageType) { context.count(kind, type: type) }
    func count(_ kind: CounterKind, type: MessageType, amount: Int) { context.count(kind, type: type, amount: amount) }
    func recordTiming(_ timing: TransferTiming) { context.recordTiming(timing) }
    func internalFailure(_ text: String) { context.internalFailure(text) }
    func peer(_ device: Int) -> (node: DeviceNode, context: BoundContext<Context>) {
        let (guest, guestContext) = context.peer(device)
        return (guest, BoundContext(node: guest, context: guestContext))
    }
}

extension DeviceNode {
    /// The adapter's sink: performs each effect through its host (the device and its
    /// context) as the core produces it. One reference: the simulator's host is the kernel
    /// component itself (`SimulatedDeviceNode`), which the kernel lends to `handle`, so
    /// building the sink and lending it to every step of the event retains nothing (a sink of
    /// the device and a context of several references retained each of them once per event;
    /// docs/performance.md).
    struct Performing<Host: DeviceHost>: EffectSink {
        let host: Host

        @_transparent
        init(host: Host) { self.host = host }

        /// The device.
        var node: DeviceNode { host.node }
        /// Where it runs.
        var ctx: Host { host }

        var now: SimTime { host.now }

        var logging: Bool { host.logging }

        @inline(__always)
        func take(_ effect: consuming ClientEffect) { host.perform(effect) }

        @inline(__always)
        func takeRequest(_ call: consuming ServerCall, server: Int, purpose: RequestPurpose,
                         credentials: consuming RequestCredentials, connected: Bool) {
            host.performRequest(call, server: server, purpose: purpose, credentials: credentials, connected: connected)
        }
    }

    /// The sink for an input arriving now through `host`, this device's host: the core's
    /// effects are performed as it produces them (in the order produced, as a collected step
    /// would list them).
    @_transparent
    func performing<H: DeviceHost>(_ host: H) -> Performing<H> { Performing(host: host) }

    /// The sink for an input arriving now through the plain context `ctx`.
    @_transparent
    func performing<C: DeviceContext>(_ ctx: C) -> Performing<BoundContext<C>> {
        Performing(host: BoundContext(node: self, context: ctx))
    }

    /// Performs `effects` in order through `ctx`.
    func perform(_ effects: [ClientEffect], _ ctx: some DeviceContext) {
        let host = BoundContext(node: self, context: ctx)
        for e in effects { perform(e, host) }
    }

    /// One effect. Inlined into each call site, where the effect's case is known, so only
    /// that case's code remains.
    @inline(__always)
    func perform(_ effect: consuming ClientEffect, _ ctx: some DeviceHost) {
        switch consume effect {
        case .request(let r): perform(r, ctx)
        case .cpu(let work, let then):
            let done = ctx.useCPU(work)
            if let then { ctx.schedule(then, at: done) }
        case .log(let text): ctx.log(text)
        case .count(let kind, let type, let amount):
            if amount == 1 { ctx.count(kind, type: type) } else { ctx.count(kind, type: type, amount: amount) }
        case .timing(let t): ctx.recordTiming(t)
        case .handled(let messages): onReceive?(index, messages)
        case .internalFailure(let text): ctx.internalFailure(text)
        case .setup(let s): perform(s, ctx)
        case .handOver(let h, let device):
            let (guest, guestHost) = ctx.peer(device)
            guest.handedOver(h, guest.performing(guestHost))
        }
    }

    /// Makes the setup call at once and hands its answer straight back to the core (nil when
    /// the server cannot answer now).
    func perform(_ s: SetupCall, _ ctx: some DeviceHost) {
        let answer = ctx.directCall(ServerRequest(requestID: 0, device: index, groupID: directory.groupID,
                                                  key: s.key, call: s.call), to: s.server)
        if let purpose = s.answer { setupAnswered(purpose, answer, performing(ctx)) }
    }

    /// Performs a collected request (`perform(_:server:purpose:credentials:connected:_:)`).
    @inline(__always)
    func perform(_ r: consuming ClientRequest, _ ctx: some DeviceContext) {
        perform(r.call, server: r.server, purpose: r.purpose, credentials: r.credentials, connected: r.connected, ctx)
    }

    /// Numbers the request, remembers what it is for, and sends it once the CPU has built it
    /// (the client's per-request cost delays the send); offline, it fails at once. Inlined where
    /// the request is built, so the call and credentials (consumed parameters) move into the
    /// server request without copies.
    @inline(__always)
    func perform(_ call: consuming ServerCall, server: Int, purpose: RequestPurpose,
                 credentials: consuming RequestCredentials, connected: Bool, _ ctx: some DeviceContext) {
        let id = ctx.takeRequestID()
        pending.insert(id, purpose)
        guard connected else {
            ctx.schedule(.response(requestID: id, outcome: .disconnected), after: .zero)
            return
        }
        let sentAt = ctx.useCPU(config.device.requestTime)
        let bytes = WireSize.request(call, scheme: config.scheme) + costedWireBytes(call)
        ctx.send(ServerRequest(requestID: id, device: index, credentials: credentials, call: call, sentAt: sentAt),
                 bytes: bytes, to: server)
    }
}
