import SimKernel
import GrouperModel
import Catalogs

/// A decoded, validated scenario (format v1) for one sweep point.
///
/// Invariants after `ScenarioReader` accepted it: 1 ≤ k ≤ s ≤ n ≤ 255, servers == n,
/// every duration positive where it must be, probabilities in [0, 1],
/// warm-up < duration, device and server indices within the group.
public struct ScenarioSpec: Equatable, Sendable {
    public var name: String
    public var description: String
    public var seed: UInt64
    public var replications: Int
    public var duration: SimDuration
    public var warmup: SimDuration
    public var group: GroupSpec
    public var protocolSpec: ProtocolSpec
    public var sharing: SharingSchemeKind
    public var workload: WorkloadSpec
    public var churn: ChurnSpec
    public var faults: [FaultSpec]
    public var profiles: ProfileSet
    public var sweep: [SweepAxis]
    /// Metric names from `MetricCatalog`, in report order.
    public var metrics: [MetricName]
    /// Values sampled over time in each run (`series.csv`), if asked.
    public var series: SeriesSpec?
    /// Checkers whose failure fails the run (exit code 1 for safety, 4 for liveness only); the
    /// others are only reported.
    public var require: [CheckerName]
    /// The last `settle` of the run is quiet: no writes, every device online, every server up
    /// (churn and fault processes stop, windows are clipped, restarts in it are dropped), so
    /// liveness can be judged.
    public var settle: SimDuration
    /// Which system runs the scenario: Grouper, or a CloudDrop-style central server.
    public var architecture: Architecture = .grouper
    /// The central server's options; only with `architecture` central.
    public var central: CentralSpec = CentralSpec()
    /// How devices keep their store at rest.
    public var deviceStore = DeviceStoreConfig()
    /// Replications per point chosen by a precision target (nil: `replications` each). With
    /// it, `replications` is the cap, `precision.maxReplications`.
    public var precision: PrecisionSpec? = nil
    /// Commands at given times (`"schedule"`): confirms, receive rounds, going offline and
    /// back, answers to resend requests; played after everything else, in list order.
    public var schedule: [ScheduledCommand] = []
    /// How the sweep plots draw their x axis (`"plot"`).
    public var plot = PlotSpec()
    /// Network faults within bounds (`"network"`): reply-delay jitter, duplicate and late
    /// replies; off by default.
    public var network = NetworkFaults()
}

extension ScenarioSpec {
    /// The network faults as the model takes them: they stop for requests sent from the start
    /// of the settle period on, like every other fault (docs/scenarios.md#network).
    public var networkFaults: NetworkFaults {
        var f = network
        if settle.nanoseconds > 0 { f.until = SimTime.zero + (duration - settle) }
        return f
    }
}

/// `"plot": {"x_scale": "auto" | "linear" | "log"}`: the x axis of the sweep plots (metric
/// against the first swept path). `auto` (the default) is log when the values are positive
/// and span more than two decades.
public struct PlotSpec: Equatable, Sendable {
    public var xScale: PlotAxisScale = .auto
    public init(xScale: PlotAxisScale = .auto) { self.xScale = xScale }
}

/// How a numeric plot axis maps values to positions (`SVGPlot.AxisScale`).
public enum PlotAxisScale: String, Sendable, CaseIterable { case auto, linear, log }

/// The group: devices over n servers with f(k, n, s) and a TTL.
public struct GroupSpec: Equatable, Sendable {
    public var devices: Int
    /// f(k, n, s), checked once by the reader.
    public var threshold: ShareThreshold
    public var k: Int { threshold.k }
    public var n: Int { threshold.n }
    public var s: Int { threshold.s }
    public var ttl: SimDuration
    public var sweepPeriod: SimDuration
    /// Devices (1-based, sorted, device 1 among them) that are members from the start; nil: all.
    public var members: [Int]? = nil
    /// Timed invitations of devices that are not members yet.
    public var invitations: [Invitation] = []
    /// Servers sweep at whole multiples of `sweepPeriod` instead of from a random phase each.
    public var alignedSweeps = false

    /// The TTL when a scenario gives none.
    public static let defaultTTL = SimDuration.days(1)

    /// The members from the start, 1-based and sorted.
    public var initialMembers: [Int] { members ?? Array(1...devices) }
}

/// `{"device": 7, "at": "2d", "by": 1}`: the owner invites a device face to face at a time.
public struct Invitation: Equatable, Sendable {
    public var device: Int
    public var at: SimDuration
    /// The inviting device; always the owner (device 1), who holds the master keys.
    public var by: Int
    package init(device: Int, at: SimDuration, by: Int) {
        self.device = device; self.at = at; self.by = by
    }
}

public struct ProtocolSpec: Equatable, Sendable {
    public var variant: ProtocolVariant
    public var confirm: ConfirmPolicySpec
    public var receive: ReceivePolicySpec
    /// A receiver does not ask again for a range it already asked for before this.
    public var resendRetry: SimDuration
    /// Once this many different requesters asked a sender for a message within one TTL, it is
    /// re-uploaded once as a multicast; nil = always to each requester (the thesis).
    public var resendMulticastAfter: Int? = nil
    /// Unsent messages are retried on reconnect and, if set, periodically.
    public var unsentRetryPeriod: SimDuration?
    /// How receivers rebuild messages.
    public var rebuild: RebuildPolicy = .firstK
    /// The thesis model's recovery switches (docs/equations.md); the default is the protocol.
    public var recovery = RecoveryOptions()
    /// What a resend request asks for: the span first…last missing (the thesis) or the holes.
    public var resendRanges: ResendRanges = .span
}

extension ProtocolSpec {
    /// What a scenario gets for everything its `protocol` object leaves out (docs/scenarios.md):
    /// confirm every TTL, push and poll every 5 min, resend and unsent retries every 10 min.
    public static func defaults(ttl: SimDuration) -> ProtocolSpec {
        ProtocolSpec(variant: .thesis, confirm: ConfirmPolicySpec(mode: .periodic, period: ttl, onReconnect: true),
                     receive: ReceivePolicySpec(mode: .pushAndPoll, pollPeriod: DefaultPeriods.poll, onReconnect: true),
                     resendRetry: DefaultPeriods.resendRetry, unsentRetryPeriod: DefaultPeriods.unsentRetry)
    }
}

/// When a device sends confirm messages.
public struct ConfirmPolicySpec: Equatable, Sendable {
    public enum Mode: String, CaseIterable, Sendable {
        /// Every `period` while online.
        case periodic
        /// After a successful receive, at most once per TTL (the demo app); the confirm timer
        /// (every `period`) must be set for it but sends nothing itself.
        case afterReceive = "after-receive"
        /// Only when the device comes back online (`on_reconnect` must not be false).
        case onReconnect = "on-reconnect"
        case never
    }
    public var mode: Mode
    public var period: SimDuration
    public var onReconnect: Bool
}

/// When a device pulls from the servers.
public struct ReceivePolicySpec: Equatable, Sendable {
    public enum Mode: String, CaseIterable, Sendable {
        /// On push notifications only.
        case push
        /// Every `pollPeriod`.
        case poll
        case pushAndPoll = "push-and-poll"
    }
    public var mode: Mode
    public var pollPeriod: SimDuration
    public var onReconnect: Bool
}

/// Device indices (1-based) a process applies to.
public enum DeviceSelection: Equatable, Sendable {
    case all
    case some([Int])
    public func contains(_ device: Int) -> Bool {
        switch self { case .all: return true; case .some(let l): return l.contains(device) }
    }
    /// How many of `total` are selected.
    public func count(of total: Int) -> Int {
        switch self { case .all: return total; case .some(let l): return l.count }
    }
}

/// Server indices (1-based).
public typealias ServerSelection = DeviceSelection

/// A stream of events in time: a renewal process or a burst.
public enum ArrivalProcess: Equatable, Sendable {
    /// Mean number of events in a run of `duration` (a renewal process: its window over the
    /// mean gap, at most `limit`).
    public func expectedEvents(in duration: SimDuration) -> Double {
        switch self {
        case .burst(let count, _): return Double(count)
        case .renewal(let every, let start, let stop, let limit):
            let window = max(0, (min(stop ?? duration, duration) - start).seconds)
            return min(Double(limit ?? Int.max), window / every.typicalGap)
        }
    }

    /// Gaps drawn from `every` (seconds), from `start` until `stop`, at most `limit` events.
    case renewal(every: DistributionSpec, start: SimDuration, stop: SimDuration?, limit: Int?)
    /// `count` events back to back at time `at`.
    case burst(count: Int, at: SimDuration)
}

public struct WorkloadSpec: Equatable, Sendable {
    public var writers: DeviceSelection
    public var update: ArrivalProcess?
    public var delete: ArrivalProcess?
    /// Distinct object ids each writer draws from.
    public var objects: Int
    /// Object (record) size in bytes; draws are rounded and kept in 1...`maxObjectSize`.
    public var objectSize: DistributionSpec
    /// Updates sent as chunk messages; nil: one message per update.
    public var chunking: ChunkingConfig? = nil
    /// Writes at given times (`"writes"`), played after the processes' draws; what `shrink`
    /// turns a run's random workload into.
    public var writes: [ExplicitWrite] = []
    package init(writers: DeviceSelection, update: ArrivalProcess? = nil, delete: ArrivalProcess? = nil, objects: Int, objectSize: DistributionSpec, chunking: ChunkingConfig? = nil, writes: [ExplicitWrite] = []) {
        self.writers = writers; self.update = update; self.delete = delete; self.objects = objects; self.objectSize = objectSize; self.chunking = chunking; self.writes = writes
    }

    /// The largest object a scenario may write without chunking (16 MiB), and the largest chunk.
    public static let maxObjectSize = 16 << 20
    /// The largest object a scenario may write with chunking (4 GiB).
    public static let maxChunkedObjectSize = 4 << 30
    /// At most this many chunks per object.
    public static let maxChunksPerObject = 1 << 16
    /// At most this many expected workload events, or churn changes, per run.
    public static let maxEvents = 10_000_000

    /// One size draw, in bytes.
    public func drawSize(using rng: inout Xoshiro256StarStar) -> Int {
        let v = objectSize.sample(using: &rng).rounded()
        let cap = chunking == nil ? Self.maxObjectSize : Self.maxChunkedObjectSize
        return v >= Double(cap) ? cap : max(1, Int(v))
    }
}

/// An explicit offline window of one device.
public struct OfflineWindow: Equatable, Sendable {
    public var device: Int
    public var start: SimDuration
    public var end: SimDuration
    package init(device: Int, start: SimDuration, end: SimDuration) {
        self.device = device; self.start = start; self.end = end
    }
}

public struct ChurnSpec: Equatable, Sendable {
    public var devices: DeviceSelection
    /// Alternating online/offline periods (seconds), every selected device independently.
    public var process: (online: DistributionSpec, offline: DistributionSpec)?
    public var windows: [OfflineWindow]
    /// Probability that a churning device starts the run offline (process only).
    public var startOffline: Double
    package init(devices: DeviceSelection, process: (online: DistributionSpec, offline: DistributionSpec)? = nil, windows: [OfflineWindow], startOffline: Double) {
        self.devices = devices; self.process = process; self.windows = windows; self.startOffline = startOffline
    }

    public static let none = ChurnSpec(devices: .all, process: nil, windows: [], startOffline: 0)

    public static func == (a: ChurnSpec, b: ChurnSpec) -> Bool {
        a.devices == b.devices && a.windows == b.windows && a.startOffline == b.startOffline
            && a.process?.online == b.process?.online && a.process?.offline == b.process?.offline
    }
}

/// Server failure modes (docs/scenarios.md#faults).
public enum ServerDownMode: String, CaseIterable, Sendable {
    /// Requests fail fast.
    case refuse
    /// Requests time out.
    case blackhole
}

/// When a fault is active.
public enum FaultActivity: Equatable, Sendable {
    /// The whole run.
    case always
    /// During [start, end) (end nil: until the run ends).
    case window(start: SimDuration, end: SimDuration?)
    /// Alternating periods: `up` without the fault, `down` with it.
    case process(up: DistributionSpec, down: DistributionSpec)
}

public struct FaultSpec: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// Down during [start, end) (end nil: until the run ends).
        case window(mode: ServerDownMode, start: SimDuration, end: SimDuration?)
        /// Alternating up/down periods (seconds) for each selected server.
        case process(mode: ServerDownMode, up: DistributionSpec, down: DistributionSpec)
        /// Restart at `at`, keeping or losing the stored shares.
        case restart(at: SimDuration, keepData: Bool)
        /// A hostile behaviour, active as `when` says.
        case misbehave(ServerMisbehaviour, when: FaultActivity)
        /// The selected servers pool what they store (exposure metrics only).
        case collude(name: String)
    }
    public var servers: ServerSelection
    public var kind: Kind
    package init(servers: ServerSelection, kind: Kind) {
        self.servers = servers; self.kind = kind
    }
}

/// `"architecture"`: the system a scenario runs on (docs/architectures.md).
public enum Architecture: String, CaseIterable, Sendable {
    /// Shamir-shared messages on n untrusted TTL servers (the default).
    case grouper
    /// One trusted server keeps each whole file until every addressed receiver fetched it.
    case central
}

/// `"central": {"retention": "3d"}`: options of the central server.
public struct CentralSpec: Equatable, Sendable {
    /// A transfer not fetched this long after its upload is given up (`unattended`, the file is
    /// lost for that receiver); nil = kept until fetched (CloudDrop).
    public var retention: SimDuration?
    public init(retention: SimDuration? = nil) { self.retention = retention }
}
