import SimKernel
import GrouperModel

/// Network faults within bounds (`"network"`): reply-delay jitter, duplicate and late
/// replies, on both architectures (`NetworkFaults`).
extension ScenarioReader {
    /// `"network": {"jitter": duration, "duplicate": p, "late": p}`; absent: no network faults.
    /// The jitter must be shorter than the request timeout (`requestTimeout`, the network
    /// profile's `timeout`): a longer one would time most requests out, not make them late.
    func readNetwork(_ n: Node?, requestTimeout: SimDuration?) -> NetworkFaults? {
        guard let n else { return NetworkFaults() }
        guard let o = ObjectReader(n, allowed: ["jitter", "duplicate", "late"]) else { return nil }
        let before = sink.count
        let jitterNode = o.optional("jitter")
        let jitter = jitterNode.map { $0.duration(positive: false, atMost: NetworkFaults.maxJitter) } ?? .zero
        let duplicate = o.optional("duplicate").map { $0.probability() } ?? 0
        let late = o.optional("late").map { $0.probability() } ?? 0
        if let jitter, let node = jitterNode, let timeout = requestTimeout, jitter >= timeout {
            node.fail("a jitter shorter than the request timeout (\(timeout), profiles.network.timeout): "
                + "a reply delayed that long always times out")
        }
        guard sink.count == before, let jitter, let duplicate, let late else { return nil }
        return NetworkFaults(jitter: jitter, duplicate: duplicate, late: late)
    }
}
