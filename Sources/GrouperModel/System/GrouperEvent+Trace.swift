import SimKernel

/// How Grouper events appear in the kernel's JSON Lines trace (`GrouperSystem.traceEvents`,
/// `grouper-sim run --events`): a short kind and a few fields, never share bytes or keys.
extension GrouperEvent: TraceableEvent {
    /// Every kind `traceKind` can return, in declaration order (for option validation).
    public static let traceKinds = ["request", "sweep", "server-command", "response", "timeout", "push",
                                    "timer", "command", "upload-ready", "round-processed"]

    public var traceKind: String {
        switch self {
        case .request: "request"
        case .sweep: "sweep"
        case .serverCommand: "server-command"
        case .response: "response"
        case .timeout: "timeout"
        case .push: "push"
        case .timer: "timer"
        case .command: "command"
        case .uploadReady: "upload-ready"
        case .roundProcessed: "round-processed"
        }
    }

    public var traceFields: [(String, String)] {
        switch self {
        case .request(let r):
            [("request", "\(r.requestID)"), ("from", "device-\(r.device + 1)"), ("endpoint", r.call.endpoint)] + r.call.traceFields
        case .sweep, .push: []
        case .serverCommand(.setState(let state, _)): [("state", state.rawValue)]
        case .serverCommand(.restart(let keep)): [("restart", keep ? "keep-data" : "lose-data")]
        case .serverCommand(.misbehave(let id, let b)): [("misbehave", b?.kindName ?? "off"), ("fault", "\(id)")]
        case .response(let id, let outcome): [("request", "\(id)")] + outcome.traceFields
        case .timeout(let id): [("request", "\(id)")]
        case .timer(let t): [("timer", "\(t)")]
        case .command(let c): c.traceFields
        case .uploadReady(let job): [("job", "\(job)")]
        case .roundProcessed(let round): [("round", "\(round)")]
        }
    }
}

extension ServerCall {
    /// Sizes of a request's body (counts, not contents).
    var traceFields: [(String, String)] {
        switch self {
        case .transferPut(let shares): [("shares", "\(shares.count)")]
        case .transferGet(let ids): [("ids", "\(ids.count)")]
        case .transferConfirm(let ids, _): [("messages", "\(ids.count)")]
        case .userNotify(let receiver, let category, _): [("receiver", receiver), ("category", category)]
        case .userAdd(let node, _): [("node", node)]
        default: []
        }
    }
}

extension RequestOutcome {
    var traceFields: [(String, String)] {
        switch self {
        case .reply(let reply): [("outcome", "reply")] + reply.traceFields
        case .error(let e): [("outcome", "error"), ("error", e.description)]
        case .refused: [("outcome", "refused")]
        case .timedOut: [("outcome", "timed-out")]
        case .disconnected: [("outcome", "disconnected")]
        }
    }
}

extension ServerReply {
    var traceFields: [(String, String)] {
        switch self {
        case .masterKey, .accessKey: [("reply", "key")]
        case .info: [("reply", "info")]
        case .success: [("reply", "success")]
        case .state(let s): [("reply", "state"), ("state", s)]
        case .stored(let n): [("reply", "stored"), ("count", "\(n)")]
        case .shareIDs(let ids): [("reply", "share-ids"), ("count", "\(ids.count)")]
        case .shares(let shares): [("reply", "shares"), ("count", "\(shares.count)")]
        case .missing(let ids): [("reply", "missing"), ("count", "\(ids.count)")]
        case .notified(let nodes): [("reply", "notified"), ("count", "\(nodes.count)")]
        }
    }
}

extension DeviceCommand {
    var traceFields: [(String, String)] {
        switch self {
        case .update(let id, let size): [("command", "update"), ("object", id), ("size", "\(size)")]
        case .delete(let id): [("command", "delete"), ("object", id)]
        case .confirm: [("command", "confirm")]
        case .receive: [("command", "receive")]
        case .setOnline(let on, _): [("command", on ? "online" : "offline")]
        case .invite(let invitee): [("command", "invite"), ("invitee", "device-\(invitee + 1)")]
        case .answerResend(let requester, let range):
            [("command", "answer-resend"), ("requester", "device-\(requester + 1)"),
             ("range", DeliveryState.formatRange(range))]
        }
    }
}
