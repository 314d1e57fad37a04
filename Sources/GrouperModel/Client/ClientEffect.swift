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

/// One step of a client core: the input's time, and the effects the core produced for it, in
/// the order it produced them.
struct ClientStep {
    /// When the input arrived.
    let now: SimTime
    /// Whether log lines are kept: a core builds a line's text only then.
    let logging: Bool
    private(set) var effects: [ClientEffect] = []

    /// `buffer`: an empty array whose capacity the step may reuse.
    init(now: SimTime, logging: Bool = true, buffer: [ClientEffect] = []) {
        self.now = now
        self.logging = logging
        effects = buffer
    }

    /// The effects' array emptied, its capacity kept for the next step.
    consuming func emptied() -> [ClientEffect] {
        effects.removeAll(keepingCapacity: true)
        return effects
    }

    mutating func request(_ r: ClientRequest) { effects.append(.request(r)) }

    mutating func cpu(_ work: SimDuration, then event: GrouperEvent? = nil) { effects.append(.cpu(work, then: event)) }

    mutating func log(_ text: @autoclosure () -> String) {
        if logging { effects.append(.log(text())) }
    }

    /// Adds `amount` to counter `kind`; repeated counts of one kind and type become one effect.
    mutating func count(_ kind: CounterKind, type: MessageType, amount: Int = 1) {
        if case .count(kind, type, let n)? = effects.last {
            effects[effects.count - 1] = .count(kind, type, amount: n + amount)
        } else {
            effects.append(.count(kind, type, amount: amount))
        }
    }

    mutating func timing(_ t: TransferTiming) { effects.append(.timing(t)) }

    mutating func handled(_ messages: [GrouperMessage]) { effects.append(.handled(messages)) }

    mutating func internalFailure(_ text: String) { effects.append(.internalFailure(text)) }
}

extension DeviceNode {
    /// Runs a core's `body` for an input arriving now and performs the effects it produced.
    /// The steps of a device take turns with one array (`spareEffects`), so a step allocates
    /// only when it produces more effects than any before it.
    func step(_ ctx: some DeviceContext, _ body: (inout ClientStep) -> Void) {
        var s = ClientStep(now: ctx.now, logging: ctx.logging, buffer: spareEffects)
        spareEffects = []
        body(&s)
        perform(s.effects, ctx)
        spareEffects = s.emptied()
    }

    /// Performs `effects` in order through `ctx`.
    func perform(_ effects: [ClientEffect], _ ctx: some DeviceContext) {
        for e in effects { perform(e, ctx) }
    }

    func perform(_ effect: ClientEffect, _ ctx: some DeviceContext) {
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
    func perform(_ r: ClientRequest, _ ctx: some DeviceContext) {
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
