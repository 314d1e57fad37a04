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

    public init(profile: NetworkProfile, devices: Int) {
        self.profile = profile
        uplinkFreeAt = Array(repeating: .zero, count: devices)
        downlinkFreeAt = Array(repeating: .zero, count: devices)
        traffic = Array(repeating: DeviceTraffic(), count: devices)
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
        ss.reduce(2) { $0 + shareText($1.share.count, scheme: scheme) + 140 }
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
