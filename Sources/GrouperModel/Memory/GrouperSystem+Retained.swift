/// What a run keeps, in estimated bytes, split by what it grows with. Unlike `LiveState`
/// (counts of live entries), it counts storage as allocated — array and table capacities,
/// string buffers — so a buffer that keeps a dead front or doubles past what is live shows
/// up. An estimate from counts and capacities (Swift gives no exact heap sizes), not RSS:
/// memory tests assert on it rather than on wall time or the process's resident size.
public struct RetainedState: Equatable, Sendable {
    /// Bounded by what is live: shares on servers, the servers' kept lists and the receivers'
    /// seen ids (capacities), partial messages, queues, pending requests, timing records and
    /// log lines.
    public var working = 0
    /// One entry per message of the run: the registry's single copy of each message, the
    /// run-wide held index, every sender's list of what it sent (to answer resends), the
    /// checkers' reference writes and upload times.
    public var perMessage = 0
    /// One entry per (device, message): held bits and exceptions, rebuilt bits, the control
    /// message ids each device has handled.
    public var perDelivery = 0
    public var total: Int { working + perMessage + perDelivery }

    /// Heap bytes of a string's own storage (0 for the ≤ 15-byte strings Swift keeps inline;
    /// a shared buffer is counted by each holder, so this is an upper bound).
    static func stringBytes(_ s: String) -> Int {
        let n = s.utf8.count
        return n <= 15 ? 0 : (n + 32 + 15) / 16 * 16
    }
}

extension GrouperSystem {
    /// What the run keeps right now (see `RetainedState`).
    public var retainedState: RetainedState {
        var r = RetainedState()
        r.working = workingBytes
        r.perMessage = world.registry.retainedBytes + world.stores.heldIndex.retainedBytes
            + world.writes.capacity * MemoryLayout<ObjectWrite>.stride
            + world.record.writesBySender.reduce(0) { $0 + $1.capacity * 4 + 64 } + world.record.uploaded.retainedBytes
        for d in world.deviceNodes {
            r.perMessage += d.sent.capacity * MemoryLayout<SentRecord>.stride
            r.perDelivery += d.held.retainedBytes + d.rebuilt.retainedBytes + d.delivery.seenControlNumbers.retainedBytes
                + d.delivery.seenControl.capacity * MemoryLayout<String>.stride
                + d.delivery.seenControl.reduce(0) { $0 + RetainedState.stringBytes($1) }
        }
        return r
    }

    private var workingBytes: Int {
        var b = 0
        for n in world.serverNodes {
            b += n.server.shares.reduce(0) { $0 + MemoryLayout<ShareEntity>.stride + ShareDownload.boxBytes + $1.share.capacity }
            b += n.server.keptListBytes
        }
        for d in world.deviceNodes {
            b += d.receiving.reduce(0) { $0 + $1.seen.capacityBytes }
            b += d.partial.values.reduce(0) { $0 + $1.slots.reduce(0) { $0 + ($1?.share.capacity ?? 0) } + 64 }
            b += (d.outbox.count + d.unsent.count) * MemoryLayout<OutboxItem>.stride
            b += d.pending.count * 64
        }
        b += world.timings.capacity * MemoryLayout<TransferTiming>.stride
        b += world.log.reduce(0) { $0 + MemoryLayout<ProtocolLogEntry>.stride + RetainedState.stringBytes($1.text) }
        return b
    }
}
