/// The devices a server pushes a multicast `user/notify` to, without hashing every node id
/// on every notification.
///
/// A notification names its receivers by node id; the server node maps each to its device
/// through the run's `deviceByNode` table, which never changes. A requester's multicasts
/// usually name the same nodes each time (the group's members with a device token, minus
/// itself), so its last list and their devices are kept and reused when the next list is
/// equal (the same strings, so each comparison is a pointer check). A different list is
/// mapped afresh, so the answer is always the table's.
struct PushMemo: Sendable {
    private struct Entry: Sendable {
        var nodes: [String]
        var devices: [Int]
    }

    private var byRequester: [Entry?] = []
    static let maxRequesters = 1 << 16

    /// The devices of `nodes` (those in `table`, in order), for a notification from `requester`.
    mutating func devices(of nodes: [String], from requester: Int, _ table: [String: Int]) -> [Int] {
        if requester >= 0 && requester < byRequester.count, let e = byRequester[requester], e.nodes == nodes {
            return e.devices
        }
        let devices = nodes.compactMap { table[$0] }
        guard requester >= 0 && requester < Self.maxRequesters else { return devices }
        if requester >= byRequester.count {
            byRequester.append(contentsOf: repeatElement(nil, count: requester + 1 - byRequester.count))
        }
        byRequester[requester] = Entry(nodes: nodes, devices: devices)
        return devices
    }
}
