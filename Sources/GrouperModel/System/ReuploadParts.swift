import SimKernel

/// What one stored re-upload was, for its requester (docs/protocol.md, Counters). Counted when
/// the re-upload's job succeeds (where `reUploads` counts it), from what really happened:
/// - `held`: the requester held the message already when the sender chose to re-upload it
///   (after its servers check; a copy the requester rebuilds from this very upload before the
///   sender's verdict, or from an attempt the sender took for failed, is not held). Under
///   `resend_ranges` `"span"` mostly messages received between two holes of the range; under
///   `"holes"` only messages the requester received after it asked, before the sender checked;
/// - `repeated`: the requester does not hold it, and a copy of it for this requester was
///   stored before (that copy expired before the requester fetched it, and it asked again);
/// - `first`: neither — the first copy of a message the requester misses. A multicast
///   re-upload (the thesis model's recovery, shared re-uploads) has no single requester and
///   counts here too.
public enum ReuploadPart: String, CaseIterable, Sendable {
    case first, repeated, held
}

/// Stored re-uploads split into `ReuploadPart`s, per (part, sender device, TTL window
/// ⌊t / TTL⌋). Observation only: nothing in the protocol reads it, and it is not part of the
/// run's counters (so not of its fingerprint). Every re-upload `reUploads` counts is counted
/// in exactly one part.
public struct ReuploadParts: Sendable {
    public let ttl: SimDuration
    private struct Key: Hashable, Comparable {
        var part: Int, device: Int, window: Int
        static func < (a: Key, b: Key) -> Bool { (a.part, a.device, a.window) < (b.part, b.device, b.window) }
    }
    private var table: [Key: Int] = [:]
    /// (message id number, requester) pairs a unicast copy was stored for.
    private var copied: Set<UInt64> = []
    /// (message id number, requester) → whether the requester held the message when the sender
    /// chose to re-upload it (`chosen`); taken out when that copy is stored.
    private var heldWhenChosen: [UInt64: Bool] = [:]

    public init(ttl: SimDuration) { self.ttl = ttl }

    private static func pair(_ number: Int32, _ requester: Int) -> UInt64 {
        UInt64(UInt32(bitPattern: number)) << 32 | UInt64(UInt32(truncatingIfNeeded: requester))
    }

    /// Notes that a sender chose to re-upload message number `number` to `requester` (its
    /// index), which `holds` it or not at that moment: the copy's part, once it is stored, is
    /// decided by this.
    mutating func chosen(number: Int32, requester: (index: Int, holds: Bool)) {
        heldWhenChosen[Self.pair(number, requester.index)] = requester.holds
    }

    /// Classifies and counts one stored re-upload of message number `number` by `device`:
    /// `requester` nil for a multicast, else its index and whether it holds the message now
    /// (used only for a copy `chosen` was not told of).
    mutating func note(number: Int32, device: Int, requester: (index: Int, holds: Bool)?, at time: SimTime) {
        var part = ReuploadPart.first
        if let r = requester {
            let pair = Self.pair(number, r.index)
            let before = !copied.insert(pair).inserted
            let held = heldWhenChosen.removeValue(forKey: pair) ?? r.holds
            part = held ? .held : before ? .repeated : .first
        }
        let w = Int(time.nanoseconds / max(ttl.nanoseconds, 1))
        table[Key(part: ReuploadPart.allCases.firstIndex(of: part)!, device: device, window: w), default: 0] += 1
    }

    /// Sum over the cells matching the filters (nil = any).
    public func total(_ part: ReuploadPart, device: Int? = nil, window: Int? = nil) -> Int {
        let p = ReuploadPart.allCases.firstIndex(of: part)!
        var sum = 0
        for (k, v) in table where k.part == p && (device == nil || k.device == device) && (window == nil || k.window == window) {
            sum += v
        }
        return sum
    }
}

extension RunRecord {
    /// Counts a re-upload of `m` by `device` stored now for `requester` (a node id; nil: a
    /// multicast) in its `ReuploadParts` part; what the requester holds comes from
    /// `requesterHolds` (set by the world).
    /// `m`'s id number is `number` (`registry.idNumber(m.messageID)`).
    func noteReuploadPart(_ m: GrouperMessage, number: Int32, device: Int, requester: String?, at time: SimTime) {
        let r = requester.flatMap { requesterHolds?($0, m) }
        reuploadParts.note(number: number, device: device, requester: r, at: time)
    }
}

/// Unicast re-upload copies stored (`DeviceNode.noteReuploadsStored`), by (message id
/// number, requester): when, and on how many servers. Keyed by one packed integer, the
/// message's registry id number and the requester's number among the requesters seen, so a
/// copy hashes neither the 36-byte message id nor the pair of strings; what a dictionary
/// keyed by (message id, requester) strings answers, as `StoredReuploadsTests` checks.
struct StoredReuploads {
    private var requesters = StringNumbering()
    private var copies: [UInt64: (at: SimTime, servers: Int)] = [:]
    /// Pairs kept before the next pruning: at least 4,096, and twice what the last pruning
    /// kept, so pruning costs O(1) per copy however many pairs stay within a TTL.
    private var pruneAbove = 4096

    /// Pairs kept, including some whose copy is more than a TTL old (not yet pruned).
    var count: Int { copies.count }

    /// The copy stored before for (`number`, `requester`) less than `ttl` before `now`, if
    /// any; then records this one, stored at `now` on `servers` servers. Pairs whose copy is
    /// a `ttl` or more old are dropped once the table holds more than `pruneAbove` pairs.
    mutating func store(number: Int32, requester: String, at now: SimTime, servers: Int, ttl: SimDuration)
        -> (at: SimTime, servers: Int)? {
        let key = UInt64(UInt32(bitPattern: number)) << 32 | UInt64(UInt32(bitPattern: requesters.number(of: requester)))
        let prev = copies.updateValue((now, servers), forKey: key)
        if copies.count > pruneAbove {
            copies = copies.filter { now - $0.value.at < ttl }
            pruneAbove = max(4096, 2 * copies.count)
        }
        guard let prev, now - prev.at < ttl else { return nil }
        return prev
    }
}

extension RunRecord {
    /// Notes that `m` was chosen for a unicast re-upload to `requester` (a node id), with
    /// whether the requester holds it now (`ReuploadParts.chosen`).
    func noteReuploadChosen(_ m: GrouperMessage, requester: String) {
        guard let r = requesterHolds?(requester, m) else { return }
        reuploadParts.chosen(number: registry.idNumber(m.messageID), requester: r)
    }
}

extension World {
    /// Device index of node `node` and whether its Algorithm 1 state has received the normal
    /// message `m` (sender, sequence); nil for a node that is no device of the run.
    func requesterHolds(_ node: String, _ m: GrouperMessage) -> (index: Int, holds: Bool)? {
        guard let r = directory.device(ofNode: node), r < deviceNodes.count else { return nil }
        return (r, deviceNodes[r].hasReceived(from: m.sender, sequence: m.sequence))
    }
}

extension GrouperSystem {
    /// Re-uploads stored so far, split into parts (`ReuploadPart`).
    public var reuploadParts: ReuploadParts { world.record.reuploadParts }
}
