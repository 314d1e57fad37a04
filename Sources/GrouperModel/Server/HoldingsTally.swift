/// What a server holds, per message id, kept up to date on every store and deletion so that
/// observers of exposure and coalitions read changes in O(changes) instead of passing over
/// every share after every event. Off (nil in `UntrustedServer.holdings`) unless a run
/// observes exposure or the server is in a coalition.
public struct HoldingsTally: Sendable, Equatable {
    /// Shares held per message id (ids with no share left are removed).
    public private(set) var shares: [String: Int] = [:]
    /// Bytes of the held shares.
    public private(set) var shareBytes = 0
    /// Ids whose share count changed since the last `drain`, with the change, in order.
    private var changes: [(id: String, delta: Int)] = []

    public init() {}

    mutating func stored(_ e: ShareEntity) {
        shares[e.messageID, default: 0] += 1
        shareBytes += e.share.count
        changes.append((e.messageID, 1))
    }

    mutating func removed(_ e: ShareEntity) {
        let left = shares[e.messageID, default: 0] - 1
        shares[e.messageID] = left > 0 ? left : nil
        shareBytes -= e.share.count
        changes.append((e.messageID, -1))
    }

    /// Whether any share of `id` is held.
    public func holds(_ id: String) -> Bool { shares[id] != nil }

    /// The changes since the last call, then forgets them.
    public mutating func drain() -> [(id: String, delta: Int)] {
        defer { changes.removeAll(keepingCapacity: true) }
        return changes
    }

    public static func == (a: HoldingsTally, b: HoldingsTally) -> Bool {
        a.shares == b.shares && a.shareBytes == b.shareBytes
    }
}
