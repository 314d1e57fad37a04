/// The plain values a timeline is made of (`grouper-sim timeline`, docs/timeline.md): lanes,
/// bands, share spans, request arrows, links and markers, with times in integer nanoseconds of
/// virtual time. Devices and servers are named as scenario files number them, from 1
/// ("D1", "S1"); lane indices are positions in `TimelineRecording.lanes`.

/// One row of the chart: a device or a server.
public struct TimelineLane: Equatable, Sendable {
    public enum Kind: String, Sendable { case device, server }
    public var kind: Kind
    /// 0-based index in the model.
    public var index: Int
    /// "D1", "S1", …
    public var name: String { (kind == .device ? "D" : "S") + "\(index + 1)" }
}

/// A stretch of time a lane (or, with `lane` nil, the whole run) is in some state.
public struct TimelineBand: Equatable, Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case offline, refusing, blackholed, hostile, settle
    }
    public var kind: Kind
    /// nil: every lane (the settle period).
    public var lane: Int?
    public var start: Int64, end: Int64
    public var detail: String
}

/// One share a server held, from its put to its deletion.
public struct TimelineSpan: Equatable, Sendable {
    public enum End: String, Sendable {
        /// Deleted by the server's TTL sweep.
        case ttl
        /// Lost when the server restarted without its data.
        case restart
        /// Replaced by a later put of the same message (and receiver).
        case replaced
        /// Still held when the run ended.
        case runEnd = "run-end"
        /// Gone for another reason (a hostile server dropping it).
        case other
    }
    public var lane: Int
    public var shareID: Int
    public var messageID: String
    /// update, delete, confirm, resend ("" if unknown).
    public var type: String
    /// Lane of the sending device (nil if unknown).
    public var sender: Int?
    public var sequence: Int
    public var object: String
    /// The device the share is for ("D2"), nil for a multicast share.
    public var receiver: String?
    public var start: Int64, end: Int64
    public var endReason: End
    package init(lane: Int, shareID: Int, messageID: String, type: String, sender: Int? = nil, sequence: Int, object: String, receiver: String? = nil, start: Int64, end: Int64, endReason: End) {
        self.lane = lane; self.shareID = shareID; self.messageID = messageID; self.type = type; self.sender = sender; self.sequence = sequence; self.object = object; self.receiver = receiver; self.start = start; self.end = end; self.endReason = endReason
    }
}

/// One request from a device to a server and how it ended, or a push from a server.
public struct TimelineArrow: Equatable, Sendable {
    public enum Endpoint: String, Sendable, CaseIterable {
        case put, list, get, confirm, notify, push, other
    }
    public enum Outcome: String, Sendable, CaseIterable {
        case ok, error, refused
        /// No answer before the request timeout: the server was blackholed.
        case timedOut = "timed-out"
        /// The server served the request, but its answer came after the request timeout.
        case late
        /// The device went offline while waiting.
        case disconnected
        /// The run ended first.
        case unanswered
    }
    /// Position in `TimelineRecording.arrows` (stable ids for links).
    public var id: Int
    public var device: Int, server: Int
    public var endpoint: Endpoint
    /// Message type of the shares put or fetched (update, delete, confirm, resend, mixed; "" none).
    public var type: String
    public var outcome: Outcome
    /// Sent by the device (a push: sent by the server).
    public var sent: Int64
    /// Reached the server (a push: reached the device).
    public var arrived: Int64
    /// The device got the answer (or gave up); nil for a push or an unanswered request.
    public var answered: Int64?
    public var messageIDs: [String]
    /// Objects of the messages put or fetched.
    public var objects: [String]
    /// Whether a put carries re-uploaded shares (unicast to a requester).
    public var reupload: Bool
    public var detail: String
}

/// A resend request and a re-upload that answers it.
public struct TimelineLink: Equatable, Sendable {
    /// Arrow ids: the put of the resend request, the put of the re-upload.
    public var from: Int, to: Int
    public var detail: String
}

/// A moment on a lane: a checker's finding, or a write a device made.
public struct TimelineMarker: Equatable, Sendable {
    public enum Kind: String, Sendable { case finding, write }
    public var kind: Kind
    public var lane: Int
    public var time: Int64
    /// The checker (findings) or "update"/"delete" (writes).
    public var label: String
    public var text: String
    public var messageIDs: [String]
    /// Findings: safety, liveness or server.
    public var severity: String
    public var object: String
}

/// Everything one run did, as the recorder saw it.
public struct TimelineRecording: Equatable, Sendable {
    public var scenario: String
    public var point: Int, replication: Int
    public var seed: UInt64
    public var end: Int64
    /// k, n, s and the TTL, for the page's header.
    public var sharing: String
    public var ttl: Int64
    public var lanes: [TimelineLane] = []
    public var bands: [TimelineBand] = []
    public var spans: [TimelineSpan] = []
    public var arrows: [TimelineArrow] = []
    public var links: [TimelineLink] = []
    public var markers: [TimelineMarker] = []

    /// Lane of device `i` / server `j` (0-based model indices).
    public func deviceLane(_ i: Int) -> Int { i }
    public var devices: Int { lanes.filter { $0.kind == .device }.count }
    public func serverLane(_ j: Int) -> Int { devices + j }
}
