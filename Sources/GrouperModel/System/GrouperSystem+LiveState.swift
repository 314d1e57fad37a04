/// Counts of the objects a run keeps, split into working state (bounded by what is live:
/// shares on servers, lists, partial messages, queues) and history the protocol or the
/// checkers need for the whole run (every normal message a device holds is handed to
/// invitees; every write is the checkers' reference). Memory tests assert on these counts,
/// not on wall time or RSS.
public struct LiveState: Equatable, Sendable {
    public var sharesOnServers = 0
    /// Ids in the servers' kept lists (per group, and each user's hidden ids).
    public var listedIDs = 0
    /// Share ids the receivers remember per server.
    public var seenIDs = 0
    /// Messages with some but not all shares collected, and their shares.
    public var partialMessages = 0, partialShares = 0
    public var queuedMessages = 0, pendingRequests = 0
    public var timingRecords = 0, logEntries = 0
    /// History: (device, message) pairs held, distinct messages stored once, writes.
    public var heldMessages = 0, registeredMessages = 0, writes = 0

    /// Everything but the history.
    public var working: Int {
        sharesOnServers + listedIDs + seenIDs + partialMessages + partialShares + queuedMessages
            + pendingRequests + timingRecords + logEntries
    }
}

extension GrouperSystem {
    /// What the run keeps right now (see `LiveState`).
    public var liveState: LiveState {
        var s = LiveState()
        for n in world.serverNodes {
            s.sharesOnServers += n.server.shares.count
            s.listedIDs += n.server.keptListIDs
        }
        for d in world.deviceNodes {
            s.seenIDs += d.receiving.reduce(0) { $0 + $1.seen.count }
            s.partialMessages += d.partial.count
            s.partialShares += d.partial.values.reduce(0) { $0 + $1.count }
            s.queuedMessages += d.outbox.count + d.unsent.count
            s.pendingRequests += d.pending.count
            s.heldMessages += d.held.count
        }
        s.timingRecords = world.timings.count
        s.logEntries = world.log.count
        s.registeredMessages = world.registry.messageCount
        s.writes = world.writes.count
        return s
    }
}
