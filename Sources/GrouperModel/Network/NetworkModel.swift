import SimKernel

/// The device↔server links: per-server latency, and each device's bandwidth shared by its
/// transfers in FIFO order (each direction is a queue: a transfer starts when the previous one
/// on that link finished). FIFO finishes the last of a burst of concurrent transfers at the same
/// time as fair sharing would; only the order of the earlier finishes differs.
public struct NetworkModel: Sendable {
    public let profile: NetworkProfile
    var uplinkFreeAt: [SimTime]
    var downlinkFreeAt: [SimTime]
    /// Bytes each device has sent (requests) and received (responses), each transfer counted
    /// with the profile's per-transfer overhead, as the link time charges it.
    public private(set) var traffic: [DeviceTraffic]
    /// Faults within bounds (`NetworkFaults`); off by default.
    public let faults: NetworkFaults
    /// Device d's draws for its faults, from the stream "network/device-(d+1)"; empty when the
    /// faults are off (no stream is made, nothing is drawn).
    var faultStreams: [Xoshiro256StarStar]
    /// What the faults did so far.
    public internal(set) var faultCounts = NetworkFaultCounts()

    /// The links of `devices` devices; with `faults` on, their draws come from `streams` (which
    /// must then be given).
    public init(profile: NetworkProfile, devices: Int, faults: NetworkFaults = NetworkFaults(),
                streams: RandomStreams? = nil) {
        precondition(faults.isOff || streams != nil, "network faults need the run's random streams")
        self.profile = profile
        uplinkFreeAt = Array(repeating: .zero, count: devices)
        downlinkFreeAt = Array(repeating: .zero, count: devices)
        traffic = Array(repeating: DeviceTraffic(), count: devices)
        self.faults = faults
        faultStreams = faults.isOff ? [] : (0..<devices).map { streams!.stream(named: "network/device-\($0 + 1)") }
    }

    /// When a request of `bytes` sent by `device` at `time` reaches `server`.
    public mutating func requestArrival(device: Int, server: Int, bytes: Int, at time: SimTime) -> SimTime {
        traffic[device].bytesSent += bytes + profile.overheadBytes
        traffic[device].requests += 1
        let start = max(time, uplinkFreeAt[device])
        let done = start + profile.transferTime(bytes: bytes)
        uplinkFreeAt[device] = done
        return done + profile.latency(server: server)
    }

    /// When a response of `bytes` sent by `server` at `time` has fully reached `device`.
    public mutating func responseArrival(device: Int, server: Int, bytes: Int, at time: SimTime) -> SimTime {
        traffic[device].bytesReceived += bytes + profile.overheadBytes
        let reach = time + profile.latency(server: server)
        let start = max(reach, downlinkFreeAt[device])
        let done = start + profile.transferTime(bytes: bytes)
        downlinkFreeAt[device] = done
        return done
    }

    /// A refusal: one round trip, no payload.
    public func refusalArrival(server: Int, at time: SimTime) -> SimTime {
        time + profile.latency(server: server) + profile.latency(server: server)
    }
}

/// One device's traffic with the servers so far. Not part of the run's fingerprint.
public struct DeviceTraffic: Equatable, Sendable {
    public var bytesSent = 0
    public var bytesReceived = 0
    /// Requests that left the device (refusals and blackholed requests included).
    public var requests = 0
    public init() {}

    public static func - (a: DeviceTraffic, b: DeviceTraffic) -> DeviceTraffic {
        var d = DeviceTraffic()
        d.bytesSent = a.bytesSent - b.bytesSent
        d.bytesReceived = a.bytesReceived - b.bytesReceived
        d.requests = a.requests - b.requests
        return d
    }
}

/// Approximate wire sizes of request and response bodies (JSON; binary shares as base64).
enum WireSize {
    static func shareText(_ bytes: Int, scheme: SharingSchemeKind) -> Int {
        scheme == .csss257 ? bytes : (bytes + 2) / 3 * 4
    }

    static func request(_ call: ServerCall, scheme: SharingSchemeKind) -> Int {
        switch call {
        case .transferPut(let ups): ups.reduce(2) { $0 + shareText($1.share.count, scheme: scheme) + 120 }
        case .transferGet(let ids): 2 + ids.count * 8
        case .transferConfirm(let ids, _): 2 + ids.count * 40
        case .userNotify(_, _, let content): 120 + content.utf8.count
        default: 100
        }
    }

    static func response(_ outcome: Result<ServerReply, ServerError>, scheme: SharingSchemeKind) -> Int {
        guard case .success(let r) = outcome else { return 80 }
        return switch r {
        case .shareIDs(let ids): 2 + ids.count * 8
        case .shares(let ss): shares(ss, scheme: scheme)
        case .missing(let ids): 2 + ids.count * 40
        case .notified(let ns): 20 + ns.count * 40
        default: 60
        }
    }

    /// A `transfer/get` reply carrying `ss`.
    static func shares(_ ss: ShareDownloads, scheme: SharingSchemeKind) -> Int {
        ss.reduce(2) { $0 + shareText($1.shareCount, scheme: scheme) + 140 }
    }

    /// Shares a request or response carries (for server processing time).
    static func shareCount(_ call: ServerCall) -> Int {
        switch call {
        case .transferPut(let ups): ups.count
        case .transferGet(let ids): ids.count
        case .transferConfirm(let ids, _): ids.count
        default: 0
        }
    }
}

/// Network faults within bounds (a scenario's `network` block, docs/scenarios.md#network): off
/// by default, and when off the model draws nothing and runs exactly as without them.
///
/// - `jitter`: each request and each reply is delayed by an extra amount drawn uniformly in
///   [0, jitter] (after the link: the bandwidth queues are unchanged). Requests a device sends
///   within `jitter` of each other may reach a server in either order, and so may replies.
/// - `duplicate`: the probability that a reply that arrives in time arrives a second time,
///   a further [0, jitter] later (the device must ignore the copy).
/// - `late`: the probability that a reply that would arrive in time is held past the request's
///   deadline: the device times out at its deadline (the server did the work), and the reply
///   itself arrives up to `jitter` after it (the device must ignore it). With the option on,
///   a reply that is late anyway (a slow transfer) also still arrives after the time-out.
///
/// Bounds: a request arrives at most `jitter` after its fault-free arrival; a reply's first
/// delivery is at most `jitter` after its fault-free arrival or, when late, at the deadline;
/// a duplicate or late copy arrives at most `jitter` after that. Requests sent at or after
/// `until` (the start of a scenario's settle period) travel without faults.
public struct NetworkFaults: Equatable, Sendable {
    public var jitter: SimDuration
    public var duplicate: Double
    public var late: Double
    /// Requests sent at or after this time travel without faults; nil: the whole run.
    public var until: SimTime?

    public init(jitter: SimDuration = .zero, duplicate: Double = 0, late: Double = 0, until: SimTime? = nil) {
        self.jitter = jitter; self.duplicate = duplicate; self.late = late; self.until = until
    }

    /// No fault at all: the network behaves (and draws) exactly as without the option.
    public var isOff: Bool { jitter.nanoseconds == 0 && duplicate == 0 && late == 0 }

    /// The largest jitter a configuration may give (the scenario reader's bound): the profile
    /// delays' bound, so a time plus a few jitters stays far inside the clock.
    public static let maxJitter = SimDuration.days(1)

    /// Problems with the values (empty when valid): field name and message.
    public var violations: [(field: String, message: String)] {
        var out: [(String, String)] = []
        if jitter.nanoseconds < 0 || jitter > Self.maxJitter { out.append(("jitter", "must be in 0...\(Self.maxJitter), got \(jitter)")) }
        for (name, p) in [("duplicate", duplicate), ("late", late)] where !(0...1).contains(p) {
            out.append((name, "must be a probability in [0, 1], got \(p)"))
        }
        return out
    }
}

/// What the network faults did in a run (observations; not part of the fingerprint).
public struct NetworkFaultCounts: Equatable, Sendable {
    /// Requests and replies delivered later than without faults (a jitter draw above zero).
    public var delayed = 0
    /// Replies delivered twice.
    public var duplicated = 0
    /// Replies that arrived after the device had timed out (held by `late`, or slow anyway).
    public var late = 0
    public init() {}
}

/// How a served reply reaches the device: what it learns first, and when the reply itself
/// arrives once more (a duplicate after an in-time reply, the late reply after a time-out).
struct ServedReply: Equatable {
    var answer: RequestAnswer
    var again: SimTime?
}

extension NetworkModel {
    /// Whether faults can apply to a request sent at `time`.
    func faulty(sentAt time: SimTime) -> Bool {
        !faults.isOff && faults.until.map { time < $0 } ?? true
    }

    /// U[0, jitter] from `device`'s fault stream, counted when above zero.
    mutating func jitter(device: Int) -> SimDuration {
        guard faults.jitter.nanoseconds > 0 else { return .zero }
        let d = SimDuration(nanoseconds: Int64(faultStreams[device].int(in: 0...Int(faults.jitter.nanoseconds))))
        if d.nanoseconds > 0 { faultCounts.delayed += 1 }
        return d
    }

    /// The extra delay of a request `device` sent at `sentAt`: zero, without a draw, unless faults apply.
    public mutating func requestDelay(device: Int, sentAt: SimTime) -> SimDuration {
        faulty(sentAt: sentAt) ? jitter(device: device) : .zero
    }

    /// How the reply to a request `device` sent at `sentAt`, served at `now`, reaches it: the
    /// reply would arrive at `arrival`; the device gives up at `deadline`. Without faults this
    /// is `RequestAnswer.served` and nothing arrives again.
    mutating func servedReply(device: Int, sentAt: SimTime, arrival: SimTime, deadline: SimTime, now: SimTime) -> ServedReply {
        guard faulty(sentAt: sentAt) else {
            return ServedReply(answer: RequestAnswer.served(arrival: arrival, deadline: deadline, now: now), again: nil)
        }
        let at = arrival + jitter(device: device)
        let timeout = max(deadline, now)
        if at > deadline {   // late anyway: the time-out first, then the reply
            faultCounts.late += 1
            return ServedReply(answer: RequestAnswer(timedOut: true, at: timeout), again: max(at, timeout))
        }
        if faults.late > 0 && faultStreams[device].chance(faults.late) {
            faultCounts.late += 1
            return ServedReply(answer: RequestAnswer(timedOut: true, at: timeout), again: timeout + jitter(device: device))
        }
        if faults.duplicate > 0 && faultStreams[device].chance(faults.duplicate) {
            faultCounts.duplicated += 1
            return ServedReply(answer: RequestAnswer(timedOut: false, at: at), again: at + jitter(device: device))
        }
        return ServedReply(answer: RequestAnswer(timedOut: false, at: at), again: nil)
    }
}
