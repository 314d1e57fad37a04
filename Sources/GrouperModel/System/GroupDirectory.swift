import SimKernel

/// What every node of a run may read: the configuration, the sharing scheme, and the
/// identities (node ids, the group id). Fixed when the run is built; no simulator in it.
final class GroupDirectory {
    let config: SystemConfig
    let scheme: any SecretSharingScheme
    /// Node id of device i (UUID-shaped, from the seeded stream "nodes").
    let nodeIDs: [String]
    let deviceByNode: [String: Int]
    /// `deviceByNode` without `Hasher`: node ids numbered in device order, so a node's number
    /// is its device; nil if two devices share a node id (then the dictionary answers).
    private let nodeNumbers: StringNumbering?
    let groupID: String

    init(config: SystemConfig, scheme: any SecretSharingScheme, streams: RandomStreams) {
        self.config = config
        self.scheme = scheme
        var rng = streams.stream(named: "nodes")
        nodeIDs = (0..<config.devices).map { _ in MessageIDGenerator.make(using: &rng) }
        var byNode: [String: Int] = [:]
        for (i, n) in nodeIDs.enumerated() { byNode[n] = i }
        deviceByNode = byNode
        var numbers = StringNumbering()
        for n in nodeIDs { _ = numbers.number(of: n) }
        nodeNumbers = numbers.count == nodeIDs.count ? numbers : nil
        var grng = streams.stream(named: "group")
        groupID = MessageIDGenerator.make(using: &grng)
    }

    /// `deviceByNode[node]`.
    func device(ofNode node: String) -> Int? {
        guard let nodeNumbers else { return deviceByNode[node] }
        return nodeNumbers.number(ifKnown: node).map(Int.init)
    }

    /// "D3" for a known node id, the id itself otherwise.
    func name(ofNode node: String) -> String {
        deviceByNode[node].map { deviceLabel($0) } ?? node
    }
}
