import SimKernel

/// One run's simulation side and its parts, owned by `GrouperSystem`:
/// - `directory` (`GroupDirectory`): what every node may read — configuration, scheme, ids;
/// - `stores` (`SharedStores`): the message stores the devices share, and the receiver's
///   plain or memoised steps (speed only);
/// - `record` (`RunRecord`): what really happened, for the checkers and metrics;
/// - the simulation plumbing kept here: the nodes and their kernel components, the network
///   and CPU models, the run-wide request ids, and what the nodes report through their
///   contexts (protocol log, counters, transfer timings, internal failures).
///
/// A device needs only the three parts (`DeviceNode.init(index:directory:stores:record:rng:)`)
/// and reaches the plumbing through its `DeviceContext`. Devices and servers built on a world
/// hold it strongly (a `let`, so reading it through a node needs no retain), and the world
/// holds them in `deviceNodes` and `serverNodes`: `releaseNodes()` breaks that cycle when the
/// system goes away. Single-threaded.
final class World {
    let directory: GroupDirectory
    let stores: SharedStores
    let record: RunRecord
    var network: NetworkModel
    /// The devices' CPUs (the simulator's side of `DeviceContext.useCPU`).
    var cpu: CPUModel
    var deviceComponents: [ComponentID] = []
    var serverComponents: [ComponentID] = []
    var deviceNodes: [DeviceNode] = []
    /// Each device's kernel component, which is its context too (`SimulatedDeviceNode`).
    var deviceAdapters: [SimulatedDeviceNode] = []
    var serverNodes: [ServerNode] = []
    var counters: ProtocolCounters
    var log: [ProtocolLogEntry] = []
    var logEnabled = true
    /// Every timing record while `keepTimings` (else only `timingStats`).
    var timings: [TransferTiming] = []
    var keepTimings = true
    var timingStats = TimingStats()
    var nextRequestID = 1
    /// Failures that are bugs in the model, not outcomes of the protocol (see `internalFailure`).
    var internalFailures: [String] = []

    init(config: SystemConfig, scheme: any SecretSharingScheme, streams: RandomStreams) {
        directory = GroupDirectory(config: config, scheme: scheme, streams: streams)
        stores = SharedStores(directory: directory)
        record = RunRecord(config: config, registry: stores.registry)
        network = NetworkModel(profile: config.network, devices: config.devices, faults: config.networkFaults, streams: streams)
        cpu = CPUModel(devices: config.devices)
        counters = ProtocolCounters(ttl: config.ttl)
        record.requesterHolds = { [unowned self] node, m in self.requesterHolds(node, m) }
    }

    // What the checkers and the observers read, by the names they use.
    var config: SystemConfig { directory.config }
    var nodeIDs: [String] { directory.nodeIDs }
    var groupID: String { directory.groupID }
    var registry: MessageRegistry { stores.registry }
    var writes: [ObjectWrite] { record.writes }
    var invitations: [(device: Int, at: SimTime)] { record.invitations }
    var restartLosses: [String: [Int]] { record.restartLosses }
    var ttlViolations: [String] { record.ttlViolations }
    var withheldBy: [String: [Int]] { record.withheldBy }
    func wasUploaded(_ id: String) -> Bool { record.wasUploaded(id) }
    func writeIndex(of v: ObjectVersion) -> Int? { record.writeIndex(of: v) }

    /// Drops the world's references to its nodes, which hold it in turn, and the adapters'
    /// references to the kernel, which holds them.
    func releaseNodes() {
        for a in deviceAdapters { a.detach() }
        deviceAdapters = []
        deviceNodes = []
        serverNodes = []
    }

    /// Records a failure of the model's own code (an operation that cannot fail on valid
    /// state did): the run goes on, and its executor reports it as an internal error.
    func internalFailure(_ time: SimTime, _ device: Int, _ text: String) {
        internalFailures.append("\(time) \(deviceLabel(device)): \(text)")
        log(time, device, "internal error: " + text)
    }

    func log(_ time: SimTime, _ device: Int, _ text: @autoclosure () -> String) {
        if logEnabled { log.append(ProtocolLogEntry(time: time, device: device, text: text())) }
    }

    func takeRequestID() -> Int {
        defer { nextRequestID += 1 }
        return nextRequestID
    }

    func recordTiming(_ t: TransferTiming) {
        timingStats.add(t)
        if keepTimings { timings.append(t) }
    }
}
