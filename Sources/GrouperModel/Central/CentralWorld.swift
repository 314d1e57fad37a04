import SimKernel

/// State shared by the components of one central-server run. Owned by `CentralSystem`.
final class CentralWorld {
    let config: CentralConfig
    let streams: RandomStreams
    var network: NetworkModel
    var serverComponent = ComponentID(index: 0)
    var deviceComponents: [ComponentID] = []
    let nodeIDs: [String]
    /// When each device became a member (nil: not a member).
    var joinedAt: [SimTime?]
    var writes: [ObjectWrite] = []
    /// The devices each write was addressed to (the members when it was written, in event
    /// order: a device invited at the same instant, after the write, is not among them), by
    /// message id. The checkers expect a write exactly at these devices and its writer.
    var addressed: [String: [Int]] = [:]
    /// Invitations asked for: (device, time), in the order they were scheduled.
    var invitations: [(device: Int, at: SimTime)] = []
    var nextRequestID = 1
    // Counters.
    var uploads = 0
    var deleteUploads = 0
    var fetched = 0
    var uploadFailures = 0
    var declined = 0
    var expired = 0
    var lostInRestart = 0

    init(config: CentralConfig, streams: RandomStreams) {
        self.config = config
        self.streams = streams
        network = NetworkModel(profile: config.network, devices: config.devices, faults: config.networkFaults, streams: streams)
        var rng = streams.stream(named: "nodes")
        nodeIDs = (0..<config.devices).map { _ in MessageIDGenerator.make(using: &rng) }
        joinedAt = (0..<config.devices).map { config.members.contains($0) ? SimTime.zero : nil }
    }

    func takeRequestID() -> Int {
        defer { nextRequestID += 1 }
        return nextRequestID
    }

    /// Members at `time`, by index.
    func members(at time: SimTime) -> [Int] {
        joinedAt.indices.filter { joinedAt[$0].map { $0 <= time } ?? false }
    }

    var deviceNodes: [CentralDeviceNode] = []

    /// The owner invited `device`: it is a member from now on, and uploads what it queued.
    func join(_ device: Int, _ sim: Simulation<CentralEvent>) {
        guard joinedAt[device] == nil else { return }
        joinedAt[device] = sim.now
        deviceNodes[device].isMember = true
        sim.schedule(.joined, to: deviceComponents[device], after: .zero)
    }
}
