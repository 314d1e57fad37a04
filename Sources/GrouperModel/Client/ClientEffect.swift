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
}

/// A request a core wants sent: the call, the server, what it is for, and the access key it
/// carries. `connected`: whether the device was online when it asked (offline, the request
/// fails at once with `.disconnected`).
struct ClientRequest {
    var call: ServerCall
    var server: Int
    var purpose: RequestPurpose
    var key: String
    var connected: Bool
}

/// Where a step's effects go: the adapter that performs each as it comes
/// (`DeviceNode.Performing`), or a list a test reads (`CollectedEffects`).
protocol EffectSink {
    mutating func take(_ effect: consuming ClientEffect)
}

/// A sink that keeps the effects in order; repeated counts of one kind and type become one
/// effect.
struct CollectedEffects: EffectSink {
    private(set) var effects: [ClientEffect] = []

    mutating func take(_ effect: consuming ClientEffect) {
        if case .count(let kind, let type, let amount) = effect, case .count(kind, type, let n)? = effects.last {
            effects[effects.count - 1] = .count(kind, type, amount: n + amount)
        } else {
            effects.append(effect)
        }
    }
}

/// One step of a client core: the input's time, and the effects the core produces for it, in
/// the order it produces them, handed to `sink` as they come. The adapter's sink performs
/// each at once (`DeviceNode.step`), so nothing is kept or copied between core and adapter;
/// a test's step collects them (`ClientStep(now:)`, then `effects`).
struct ClientStep<Sink: EffectSink> {
    /// When the input arrived.
    let now: SimTime
    /// Whether log lines are kept: a core builds a line's text only then.
    let logging: Bool
    var sink: Sink

    init(now: SimTime, logging: Bool, sink: Sink) {
        self.now = now
        self.logging = logging
        self.sink = sink
    }

    mutating func request(_ r: ClientRequest) { sink.take(.request(r)) }

    mutating func cpu(_ work: SimDuration, then event: GrouperEvent? = nil) { sink.take(.cpu(work, then: event)) }

    mutating func log(_ text: @autoclosure () -> String) {
        if logging { sink.take(.log(text())) }
    }

    /// Adds `amount` to counter `kind`.
    mutating func count(_ kind: CounterKind, type: MessageType, amount: Int = 1) {
        sink.take(.count(kind, type, amount: amount))
    }

    mutating func timing(_ t: TransferTiming) { sink.take(.timing(t)) }

    mutating func handled(_ messages: [GrouperMessage]) { sink.take(.handled(messages)) }

    mutating func internalFailure(_ text: String) { sink.take(.internalFailure(text)) }
}

extension ClientStep where Sink == CollectedEffects {
    /// A step that collects its effects (`effects`).
    init(now: SimTime, logging: Bool = true) {
        self.init(now: now, logging: logging, sink: CollectedEffects())
    }

    /// The effects produced so far, in order.
    var effects: [ClientEffect] { sink.effects }
}

extension DeviceNode {
    /// The adapter's sink: performs each effect through `ctx` as the core produces it.
    struct Performing<Context: DeviceContext>: EffectSink {
        let node: DeviceNode
        let ctx: Context

        func take(_ effect: consuming ClientEffect) { node.perform(effect, ctx) }
    }

    /// Runs a core's `body` for an input arriving now, performing each effect as the core
    /// produces it (in the order produced, as a collected step would list them).
    func step<C: DeviceContext>(_ ctx: C, _ body: (inout ClientStep<Performing<C>>) -> Void) {
        var s = ClientStep(now: ctx.now, logging: ctx.logging, sink: Performing(node: self, ctx: ctx))
        body(&s)
    }

    /// Performs `effects` in order through `ctx`.
    func perform(_ effects: [ClientEffect], _ ctx: some DeviceContext) {
        for e in effects { perform(e, ctx) }
    }

    func perform(_ effect: consuming ClientEffect, _ ctx: some DeviceContext) {
        switch effect {
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
        }
    }

    /// Numbers the request, remembers what it is for, and sends it once the CPU has built it
    /// (the client's per-request cost delays the send); offline, it fails at once.
    func perform(_ r: consuming ClientRequest, _ ctx: some DeviceContext) {
        let id = ctx.takeRequestID()
        pending.insert(id, r.purpose)
        guard r.connected else {
            ctx.schedule(.response(requestID: id, outcome: .disconnected), after: .zero)
            return
        }
        let sentAt = ctx.useCPU(config.device.requestTime)
        let request = ServerRequest(requestID: id, device: index, groupID: directory.groupID,
                                    key: r.key, call: r.call, sentAt: sentAt)
        let bytes = WireSize.request(r.call, scheme: config.scheme) + costedWireBytes(r.call)
        ctx.send(consume request, bytes: bytes, to: r.server)
    }
}
