import SimKernel

/// Everything that defines one simulated central-server system (CloudDrop-style, docs/architectures.md): the same
/// devices, profiles and receive/retry policies as a Grouper run, one trusted server.
public struct CentralConfig: Equatable, Sendable {
    public var devices: Int
    /// Members from the start (sorted, distinct, with device 0); the others join when invited.
    public var members: [Int]
    public var device: DeviceProfile = .lab
    public var network: NetworkProfile = .lab
    public var server: ServerProfile = .lab
    public var receive: ReceivePolicy
    /// Periodic retry of the unsent queue while online; nil = on reconnect only.
    public var unsentRetryPeriod: SimDuration?
    /// A transfer not fetched this long after the upload expires (`unattended`, file lost for
    /// that receiver); nil = kept until fetched, however long (CloudDrop's behaviour).
    public var retention: SimDuration?
    /// How often the server looks for expired transfers (only with a retention).
    public var retentionSweep: SimDuration = .seconds(Int64(60))
    public var requestTimeout: SimDuration = SystemConfig.defaultRequestTimeout
    /// Each chunk of an update is its own transfer (docs/architectures.md, Large objects); nil: one transfer per update.
    public var chunking: ChunkingConfig? = nil
    /// How devices keep their store at rest (docs/architectures.md, Device storage at rest).
    public var deviceStore = DeviceStoreConfig()
    /// Reply-delay jitter, duplicate and late replies within bounds (`NetworkFaults`); off by default.
    public var networkFaults = NetworkFaults()
    public var seed: UInt64

    public init(devices: Int, members: [Int]? = nil, seed: UInt64 = 1) {
        self.devices = devices
        self.members = members ?? Array(0..<devices)
        self.receive = ReceivePolicy(onPush: true, pullPeriod: DefaultPeriods.poll, onReconnect: true)
        self.unsentRetryPeriod = DefaultPeriods.unsentRetry
        self.seed = seed
    }

    public func validate() throws(SystemConfigError) {
        func fail(_ f: String, _ m: String) -> SystemConfigError { SystemConfigError(field: f, message: m) }
        guard devices >= 1 else { throw fail("devices", "must be ≥ 1, got \(devices)") }
        guard members.first == 0, zip(members, members.dropFirst()).allSatisfy({ $0 < $1 }),
              let last = members.last, last < devices else {
            throw fail("members", "must be sorted distinct device indices in 0..<\(devices) starting with 0, got \(members)")
        }
        if let r = retention, r.nanoseconds <= 0 { throw fail("retention", "must be positive or absent, got \(r)") }
        guard retentionSweep.nanoseconds > 0 else { throw fail("retentionSweep", "must be positive") }
        guard requestTimeout.nanoseconds > 0 else { throw fail("requestTimeout", "must be positive") }
        if let p = receive.pullPeriod, p.nanoseconds <= 0 { throw fail("receive.pullPeriod", "must be positive or absent") }
        if let p = unsentRetryPeriod, p.nanoseconds <= 0 { throw fail("unsentRetryPeriod", "must be positive or absent") }
        if let v = networkFaults.violations.first { throw fail("networkFaults.\(v.field)", v.message) }
    }
}
