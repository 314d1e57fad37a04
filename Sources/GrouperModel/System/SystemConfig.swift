import SimKernel

/// Which protocol the clients run (docs/protocol.md, Variants).
public enum ProtocolVariant: String, CaseIterable, Sendable {
    /// The thesis design implemented correctly, as docs/protocol.md describes it (default).
    case thesis
    /// The published code's behaviours, switchable through `AsBuiltSwitches`.
    case asBuilt = "as-built"
    /// Gap detection and resend only (thesis Fig 4.2): no confirm messages.
    case basicMulticast = "basic-multicast"
    /// Self-destruction without recovery: no gap detection, no confirm, no resend.
    case noRecovery = "no-recovery"

    /// Receivers detect gaps and send resend requests.
    public var detectsGaps: Bool { self == .thesis || self == .basicMulticast }
    /// Senders send confirm messages.
    public var sendsConfirms: Bool { self == .thesis || self == .asBuilt }
    /// The servers' share store: the published per-message overwrite for `as-built`, one slot
    /// per receiver for the others (docs/protocol.md, "Server").
    public var shareKeying: ShareKeying { self == .asBuilt ? .perMessage : .perReceiver }
}

/// The published code's behaviours (docs/protocol.md, Variants) that the `as-built` variant
/// can switch on one by one. Ignored by the other variants. All on by default.
public struct AsBuiltSwitches: Equatable, Sendable {
    /// The upload verdict waits for all n servers to answer (not as soon as it is decided).
    public var verdictWaitsForAllServers = true
    /// If the last server to answer fails, the send never finalises and later sends are refused.
    public var lastFailureWedgesSender = true
    /// Unsent messages are re-shared with a fresh polynomial (same id and sequence).
    public var freshPolynomialOnRetry = true
    /// Unsent messages are retried only at (re)launch, i.e. on reconnect; never periodically.
    public var retryOnlyOnLaunch = true
    /// The receiver remembers share ids only for messages that reached k shares, and joins
    /// all shares it collected for a message (a stale share corrupts the join).
    public var joinAllCollectedShares = true
    /// No duplicate check: every rebuilt message is applied again.
    public var noDuplicateCheck = true
    /// On a confirm, compare with the receiver's own highest sequence, not the sender's.
    public var confirmComparesOwnSequence = true
    /// Confirms are sent at most once per TTL, only after a successful receive.
    public var confirmAfterReceiveOncePerTTL = true
    public init() {}
}

/// The periods of a scenario (or a central-server run) that names none (docs/scenarios.md):
/// poll every 5 min, resend and unsent retries every 10 min. (`SystemConfig.init`'s own
/// defaults are relative to its TTL, for tests and library use.)
public enum DefaultPeriods {
    public static let poll = SimDuration.minutes(5)
    public static let resendRetry = SimDuration.minutes(10)
    public static let unsentRetry = SimDuration.minutes(10)
}

/// When senders call `sender.confirm()` on their own.
public struct ConfirmPolicy: Equatable, Sendable {
    /// Periodic confirm (thesis: once per TTL); nil = never periodically.
    public var period: SimDuration?
    /// Confirm when the device comes back online.
    public var onReconnect: Bool
    public init(period: SimDuration?, onReconnect: Bool) { self.period = period; self.onReconnect = onReconnect }
}

/// When receivers run a receive round.
public struct ReceivePolicy: Equatable, Sendable {
    /// Pull when a push notification arrives.
    public var onPush: Bool
    /// Periodic pull; nil = never.
    public var pullPeriod: SimDuration?
    /// Pull when the device comes back online (the app's launch).
    public var onReconnect: Bool
    public init(onPush: Bool = true, pullPeriod: SimDuration?, onReconnect: Bool = true) {
        self.onPush = onPush; self.pullPeriod = pullPeriod; self.onReconnect = onReconnect
    }
}

/// When a sender retries its unsent queue.
public struct UnsentRetryPolicy: Equatable, Sendable {
    public var onReconnect: Bool
    /// Periodic retry while online; nil = never periodically.
    public var period: SimDuration?
    public init(onReconnect: Bool = true, period: SimDuration?) { self.onReconnect = onReconnect; self.period = period }
}

/// Everything that defines one simulated Grouper system. Plain value; validated by `validate()`.
public struct SystemConfig: Equatable, Sendable {
    /// Number of devices D (device 0 is the group owner).
    public var devices: Int
    /// Devices that are members from the start (0..<initialMembers); the rest can be invited later.
    public var initialMembers: Int
    /// Devices that are members from the start, if not simply 0..<initialMembers: sorted,
    /// distinct, with the owner 0 among them (`validate()` checks). Overrides `initialMembers`.
    public var members: [Int]? = nil
    /// The members from the start, whichever way they were given.
    public var startMembers: [Int] { members ?? Array(0..<initialMembers) }
    /// f(k, n, s): checked once where it is made (`ShareThreshold`), so a configuration
    /// cannot hold a broken one.
    public var threshold: ShareThreshold
    /// Number of servers n.
    public var servers: Int { threshold.n }
    /// Threshold k: shares needed to rebuild.
    public var k: Int { threshold.k }
    /// Safe servers count s: an upload succeeds when ≥ s servers stored their share.
    public var s: Int { threshold.s }
    public var ttl: SimDuration
    /// Period of each server's TTL sweep (default 60 s).
    public var sweepPeriod: SimDuration
    /// Servers sweep at whole multiples of `sweepPeriod` instead of from a random phase each
    /// (the equations' thesis model: a share is gone exactly T after it was saved whenever a
    /// sweep falls on the moment that matters).
    public var alignedSweeps = false
    public var variant: ProtocolVariant
    public var asBuilt: AsBuiltSwitches
    public var scheme: SharingSchemeKind
    public var device: DeviceProfile
    public var network: NetworkProfile
    public var server: ServerProfile
    public var confirm: ConfirmPolicy
    public var receive: ReceivePolicy
    public var unsent: UnsentRetryPolicy
    /// A receiver does not ask again for a range it already asked for before this much time passed.
    public var resendRetry: SimDuration
    /// Answering resends: once this many different requesters asked for a message within one
    /// TTL, it is re-uploaded once as a multicast instead of once more per requester; nil =
    /// always to the requester only (the thesis). Not in the published client.
    public var resendMulticastAfter: Int? = nil
    /// What a resend request asks for: one inclusive range from the first to the last missing
    /// sequence (`.span`, the thesis) or the list of missing ranges (`.holes`).
    public var resendRanges: ResendRanges = .span
    /// A request without an answer after this long fails (blackholed server).
    public var requestTimeout: SimDuration
    /// At most this many messages per `transfer/put` request (thesis: 100).
    public var batchLimit: Int
    /// Opt-in recovery simplifications (thesis model of docs/equations.md); default: none.
    public var recovery = RecoveryOptions()
    public var seed: UInt64
    /// Bookkeeping sized by live state (incremental share lists, indexed partial messages,
    /// streaming timing statistics; docs/performance.md). `false` keeps the straightforward
    /// history-sized version: a switch for tests, which check that both give the same runs.
    public var compactState = true
    /// How receivers rebuild messages from shares (docs/adversaries.md; thesis: first-k).
    public var rebuild: RebuildPolicy = .firstK
    /// Servers that pool what they store (only the exposure metrics see them).
    public var coalitions: [Coalition] = []
    /// Track what each single server could read and the bytes servers hold (the exposure and
    /// storage metrics of docs/architectures.md). Observations only: the run is the same with or without.
    public var trackExposure = false
    /// Send updates as chunk messages (docs/architectures.md, Large objects); nil: every update is one message.
    public var chunking: ChunkingConfig? = nil
    /// How devices keep their store at rest (docs/architectures.md, Device storage at rest).
    public var deviceStore = DeviceStoreConfig()
    /// A fault planted for explore's canary tests (`PlantedBug`); nil in every real run.
    public var plantedBug: PlantedBug? = nil
    /// Reply-delay jitter, duplicate and late replies within bounds; off by default.
    public var networkFaults = NetworkFaults()

    /// 60 s: the request timeout of `init` and of every built-in network profile.
    public static let defaultRequestTimeout: SimDuration = .seconds(Int64(60))
    /// 60 s: the servers' TTL sweep period of `init` and of a scenario that names none.
    public static let defaultSweepPeriod: SimDuration = .seconds(Int64(60))

    /// `threshold` with defaults for everything else (1 h TTL, lab profiles, thesis variant).
    public init(devices: Int = 3, threshold: ShareThreshold = .f233,
                ttl: SimDuration = .hours(1), variant: ProtocolVariant = .thesis,
                scheme: SharingSchemeKind = .gf256, seed: UInt64 = 1) {
        self.devices = devices; self.initialMembers = devices
        self.threshold = threshold; self.ttl = ttl
        self.sweepPeriod = Self.defaultSweepPeriod; self.variant = variant; self.asBuilt = AsBuiltSwitches()
        self.scheme = scheme; self.device = .lab; self.network = .lab; self.server = .lab
        self.confirm = ConfirmPolicy(period: ttl, onReconnect: true)
        self.receive = ReceivePolicy(onPush: true, pullPeriod: SimDuration(nanoseconds: ttl.nanoseconds / 4),
                                     onReconnect: true)
        self.unsent = UnsentRetryPolicy(onReconnect: true, period: .minutes(5))
        self.resendRetry = SimDuration(nanoseconds: ttl.nanoseconds / 2)
        self.requestTimeout = Self.defaultRequestTimeout
        self.batchLimit = 100
        self.seed = seed
    }
}

extension SystemConfig {
    /// f(k, `servers`, s) with defaults for everything else; throws if k, n, s break the rule
    /// (the field is `servers` for n).
    public init(devices: Int = 3, servers: Int, k: Int, s: Int,
                ttl: SimDuration = .hours(1), variant: ProtocolVariant = .thesis,
                scheme: SharingSchemeKind = .gf256, seed: UInt64 = 1) throws(SystemConfigError) {
        let threshold: ShareThreshold
        do { threshold = try ShareThreshold(k: k, n: servers, s: s) } catch {
            throw SystemConfigError(field: error.parameter == "n" ? "servers" : error.parameter, message: error.message)
        }
        self.init(devices: devices, threshold: threshold, ttl: ttl, variant: variant, scheme: scheme, seed: seed)
    }
}

/// A configuration that cannot run; the message names the field and what is allowed.
public struct SystemConfigError: Error, Equatable, CustomStringConvertible, Sendable {
    public var field: String
    public var message: String
    public var description: String { "\(field): \(message)" }
}

extension SystemConfig {
    /// Checks ranges: 1 ≤ D, positive durations, batch ≥ 1 (f(k, n, s) is checked where it is made).
    public func validate() throws(SystemConfigError) {
        func fail(_ f: String, _ m: String) -> SystemConfigError { SystemConfigError(field: f, message: m) }
        guard devices >= 1 else { throw fail("devices", "must be ≥ 1, got \(devices)") }
        guard (1...devices).contains(initialMembers) else {
            throw fail("initialMembers", "must be in 1...\(devices), got \(initialMembers)")
        }
        if let members {
            guard members.first == 0, zip(members, members.dropFirst()).allSatisfy({ $0 < $1 }),
                  let last = members.last, last < devices else {
                throw fail("members", "must be sorted distinct device indices in 0..<\(devices) starting with the owner 0, got \(members)")
            }
        }
        guard ttl.nanoseconds > 0 else { throw fail("ttl", "must be positive, got \(ttl)") }
        guard sweepPeriod.nanoseconds > 0 else { throw fail("sweepPeriod", "must be positive, got \(sweepPeriod)") }
        guard requestTimeout.nanoseconds > 0 else { throw fail("requestTimeout", "must be positive") }
        guard batchLimit >= 1 else { throw fail("batchLimit", "must be ≥ 1, got \(batchLimit)") }
        for (name, p) in [("confirm.period", confirm.period), ("receive.pullPeriod", receive.pullPeriod),
                          ("unsent.period", unsent.period)] {
            if let p, p.nanoseconds <= 0 { throw fail(name, "must be positive or absent, got \(p)") }
        }
        guard resendRetry.nanoseconds >= 0 else { throw fail("resendRetry", "must be ≥ 0") }
        if rebuild == .check && servers < k + 1 {
            throw fail("rebuild", "check needs n ≥ k + 1 shares to rebuild, got n=\(servers), k=\(k)")
        }
        if rebuild == .correct && servers < k + 2 {
            throw fail("rebuild", "correct needs n ≥ k + 2 to correct a share, got n=\(servers), k=\(k)")
        }
        for c in coalitions where c.servers.isEmpty || !c.servers.allSatisfy({ (0..<servers).contains($0) }) {
            throw fail("coalitions", "coalition \(c.name) must name servers in 0..<\(servers), got \(c.servers)")
        }
        if let c = chunking, c.chunkBytes < 1 || c.realBytesPerChunk < 0 {
            throw fail("chunking", "chunk bytes must be ≥ 1 and real bytes ≥ 0, got \(c.chunkBytes) and \(c.realBytesPerChunk)")
        }
        guard deviceStore.kdfIterations >= 1 else { throw fail("deviceStore.kdfIterations", "must be ≥ 1") }
        if let v = networkFaults.violations.first { throw fail("networkFaults.\(v.field)", v.message) }
        if let m = resendMulticastAfter, m < 1 { throw fail("resendMulticastAfter", "must be ≥ 1 or absent, got \(m)") }
    }
}
