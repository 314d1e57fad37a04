import SimKernel

/// What the protocol counts (docs/protocol.md, Counters), and a few diagnostics.
public enum CounterKind: String, CaseIterable, Sendable, Comparable {
    /// A message stored on ≥ s servers (one per successful upload of a message).
    case messagesUploaded
    /// Share puts sent (one per message per server attempted, refused ones included).
    case sharePuts
    /// Share puts a server acknowledged (the `share_puts` metric).
    case sharesStored
    /// Messages rebuilt from ≥ k shares by a receiver (downloads).
    case messagesRebuilt
    /// Resend requests sent.
    case resendRequests
    /// Normal messages re-uploaded to answer a resend request.
    case reUploads
    /// Messages taken from the unsent queue for another try.
    case unsentRetries
    /// Messages whose upload failed (fewer than s servers) at least once: counted at a
    /// message's first failure only.
    case uploadFailures
    /// Failed upload attempts, per message: a message that fails three times counts three.
    case uploadAttemptsFailed
    /// Messages some failed upload attempt of which still reached ≥ k servers (at the verdict
    /// or by late answers): receivers can rebuild them although the sender retries. Counted
    /// once per message, at the first such attempt.
    case failedButRebuildable
    /// Rebuilt messages dropped as duplicates.
    case duplicatesDropped
    /// Joins whose result did not decode as a Grouper message.
    case corruptRebuilds
    /// Rebuilds that parsed but carried content no device sent (hostile servers, first-k).
    case corruptedDeliveries
    /// Messages whose shares a `check`/`correct` receiver found inconsistent (once per message).
    case tamperDetected
    /// Messages `correct` rebuilt around bad shares.
    case tamperCorrected
    public static func < (a: CounterKind, b: CounterKind) -> Bool { a.rawValue < b.rawValue }
}

/// One cell: kind, device, message type, TTL window (⌊time / TTL⌋).
public struct CounterKey: Hashable, Comparable, Sendable {
    public var kind: CounterKind
    public var device: Int
    public var type: MessageType
    public var window: Int
    public static func < (a: CounterKey, b: CounterKey) -> Bool {
        (a.kind.rawValue, a.device, a.type.rawValue, a.window) < (b.kind.rawValue, b.device, b.type.rawValue, b.window)
    }

    /// The enums' case numbers rather than their string raw values (which the derived
    /// conformances hash and compare): a counter is bumped per rebuilt message. A field-less
    /// enum is stored as its case number in one byte. Only lookups use it; listings sort by `<`.
    private var cases: UInt16 {
        UInt16(unsafeBitCast(kind, to: UInt8.self)) << 8 | UInt16(unsafeBitCast(type, to: UInt8.self))
    }

    public static func == (a: CounterKey, b: CounterKey) -> Bool {
        a.device == b.device && a.window == b.window && a.cases == b.cases
    }

    public func hash(into h: inout Hasher) {
        h.combine(device); h.combine(window); h.combine(cases)
    }
}

/// Counters per (kind, device, type, window). Lookups use a dictionary; every listing is sorted.
///
/// A device mostly bumps a few cells again and again (its rebuilt updates round after round;
/// an upload's puts, stored shares and uploads in turn), so each device's last `ways` cells and
/// what they gained since are kept aside (`recent`); a cell goes into the dictionary only when
/// the device bumps `ways` others after it: a repeat hashes nothing. Every read (`total`,
/// `rows`) includes them, so the counts read are the dictionary's alone would be
/// (`ProtocolCountersTests`).
public struct ProtocolCounters: Sendable {
    public let ttl: SimDuration
    var table: [CounterKey: Int] = [:]
    /// Device d's cells aside in `recent[d * ways ..< (d + 1) * ways]`, each with the amount
    /// not yet in `table`: the most recently added first, empty ones (nil) last.
    private var recent: [(key: CounterKey, amount: Int)?] = []
    static let ways = 4
    /// Devices with a cell aside, at most (larger indices go straight to `table`).
    static let recentDevices = 1 << 12

    public init(ttl: SimDuration) { self.ttl = ttl }

    public mutating func add(_ kind: CounterKind, device: Int, type: MessageType, at time: SimTime, _ amount: Int = 1) {
        guard amount != 0 else { return }
        let w = Int(time.nanoseconds / max(ttl.nanoseconds, 1))
        let key = CounterKey(kind: kind, device: device, type: type, window: w)
        guard device >= 0 && device < Self.recentDevices else { table[key, default: 0] += amount; return }
        let base = device * Self.ways, end = base + Self.ways
        if end > recent.count { recent.append(contentsOf: repeatElement(nil, count: end - recent.count)) }
        for i in base..<end {
            guard let r = recent[i] else { break }
            if r.key == key { recent[i]!.amount += amount; return }
        }
        if let oldest = recent[end - 1] { table[oldest.key, default: 0] += oldest.amount }
        for i in stride(from: end - 1, to: base, by: -1) { recent[i] = recent[i - 1] }
        recent[base] = (key, amount)
    }

    /// Sum over every cell matching the given filters (nil = any).
    public func total(_ kind: CounterKind, device: Int? = nil, type: MessageType? = nil, window: Int? = nil) -> Int {
        func matches(_ k: CounterKey) -> Bool {
            k.kind == kind && (device == nil || k.device == device) && (type == nil || k.type == type)
                && (window == nil || k.window == window)
        }
        var sum = 0
        for (k, v) in table where matches(k) { sum += v }
        for case let r? in recent where matches(r.key) { sum += r.amount }
        return sum
    }

    /// Every cell, sorted by key.
    public var rows: [(key: CounterKey, value: Int)] {
        var all = table
        for case let r? in recent { all[r.key, default: 0] += r.amount }
        return all.keys.sorted().map { ($0, all[$0]!) }
    }
}

/// Direction of a timed transfer.
public enum TransferDirection: String, Sendable { case upload, download }

/// One upload job or receive round, with the thesis's time breakdown.
public struct TransferTiming: Equatable, Sendable {
    public var direction: TransferDirection
    public var device: Int
    /// Messages uploaded in the job / rebuilt in the round.
    public var messages: Int
    public var start: SimTime
    public var end: SimTime
    /// JSON encode/decode and store writes.
    public var dataSync: SimDuration
    /// Split or join.
    public var secretSharing: SimDuration
    /// Everything else: waiting for the network and the servers.
    public var network: SimDuration
    public var succeeded: Bool
    public var total: SimDuration { end - start }
}

/// A line of the protocol log (readable, asserted by scenario tests).
public struct ProtocolLogEntry: Equatable, Sendable, CustomStringConvertible {
    public var time: SimTime
    public var device: Int
    public var text: String
    public var description: String { "\(time) \(deviceLabel(device)) \(text)" }
}
