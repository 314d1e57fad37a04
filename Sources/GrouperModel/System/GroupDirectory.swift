import SimKernel

/// What every node of a run may read: the configuration, the sharing scheme, and the
/// identities (node ids, the group id). Fixed when the run is built; no simulator in it.
final class GroupDirectory {
    let config: SystemConfig
    let scheme: any SecretSharingScheme
    /// Node id of device i (UUID-shaped, from the seeded stream "nodes").
    let nodeIDs: [String]
    let deviceByNode: [String: Int]
    let groupID: String

    init(config: SystemConfig, scheme: any SecretSharingScheme, streams: RandomStreams) {
        self.config = config
        self.scheme = scheme
        var rng = streams.stream(named: "nodes")
        nodeIDs = (0..<config.devices).map { _ in MessageIDGenerator.make(using: &rng) }
        var byNode: [String: Int] = [:]
        for (i, n) in nodeIDs.enumerated() { byNode[n] = i }
        deviceByNode = byNode
        var grng = streams.stream(named: "group")
        groupID = MessageIDGenerator.make(using: &grng)
    }

    /// "D3" for a known node id, the id itself otherwise.
    func name(ofNode node: String) -> String {
        deviceByNode[node].map { deviceLabel($0) } ?? node
    }
}
