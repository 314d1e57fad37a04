/// The receiver's steps that have a memoised form, behind one seam the client calls: which
/// implementation a run uses is chosen once, when its `World` is built
/// (`SystemConfig.compactState`: `MemoisedPipeline` when set, `PlainPipeline` otherwise).
///
/// Both give the same result for every input; the memoised one shares work between the
/// devices of a run (the hundred receivers of a message download the very same share
/// buffers, join them to the same secret and decode it to the same message).
/// `CompactStateEquivalenceTests` runs whole scenarios both ways and compares everything
/// they report. Single-threaded, one per run.
protocol ReceivePipeline: AnyObject {
    /// Whether `SeenShareIDs.unseen` may take its shortcut for a server's whole list.
    var listsByGeneration: Bool { get }
    /// Whether a round's rebuild candidates are only the messages that got a share in it
    /// (the others cannot have become ready); otherwise every partial message is looked at.
    var onlyTouchedCandidates: Bool { get }
    /// Sorts distinct message id numbers into the `String` order of their ids; `messageID(n)`
    /// is the id of number `n`.
    func sortByMessageID(_ numbers: inout [Int32], messageID: (Int32) -> String)
    /// What Algorithm 1 (`DeliveryState.decide`) may take instead of hashing `m`'s ids: a
    /// control message's id number, a normal message's sender slot in `HeldIndex`.
    func deliveryHints(_ m: GrouperMessage) -> (idNumber: Int32?, senderSlot: Int?)
    /// `DeviceNode.handlingOrder(ms, asBuilt:)`: the order a round handles its rebuilt messages in.
    func handlingOrder(_ ms: [GrouperMessage], asBuilt: Bool) -> [Int]
    /// Holds normal message `m` in `held` (one shared copy per run: `MessageRegistry`) and
    /// returns its handle there; `compactContent`, if given, is the compact form of
    /// `m.content` (`MessageRegistry.intern(_:compactContent:)`).
    func hold(_ m: GrouperMessage, compactContent: MarshalledContent?, in held: inout HeldMessages) -> Int32
    /// Applies remote update or delete `m` to `store`.
    func apply(_ m: GrouperMessage, to store: inout NewestVersionWinsStore)
    /// The `first-k` rebuild recorded for message number `n` with threshold `k` from exactly
    /// the share buffers of `p`, or nil (always nil in the plain pipeline).
    func recordedRebuild(_ n: Int32, k: Int, _ p: PartialMessage) -> RebuildMemo.Outcome?
    /// Records that `shares` (in server order) of message number `n` rebuilt to `outcome`.
    func recordRebuild(_ n: Int32, k: Int, shares: [[UInt8]], _ outcome: RebuildMemo.Outcome)
    /// The run's scheme's `join(shares, k: k)` of message number `n`. Throws what the join throws.
    func join(_ shares: [[UInt8]], k: Int, number n: Int32) throws(SharingError) -> (secret: [UInt8], work: SharingWork)
    /// The message in rebuilt bytes `secret` of message number `n` (nil if they do not decode).
    func decode(_ secret: [UInt8], number n: Int32) -> GrouperMessage?
    /// A sender split `bytes`, the encoding of its message `m` of number `n` (for `decode`).
    func sent(_ m: GrouperMessage, as bytes: [UInt8], number n: Int32)
    /// `m.encoded()`; `n` is its message id's number if it has one already.
    func encoded(_ m: GrouperMessage, knownNumber n: Int32?) -> [UInt8]
}

extension ReceivePipeline {
    /// `hold(m, compactContent: nil, in: &held)`.
    func hold(_ m: GrouperMessage, in held: inout HeldMessages) -> Int32 { hold(m, compactContent: nil, in: &held) }
}

/// The pipeline that computes every step on its own: the reference the memoised one is
/// compared with.
final class PlainPipeline: ReceivePipeline {
    let scheme: any SecretSharingScheme
    let registry: MessageRegistry
    let heldIndex: HeldIndex

    init(scheme: any SecretSharingScheme, registry: MessageRegistry, heldIndex: HeldIndex) {
        self.scheme = scheme; self.registry = registry; self.heldIndex = heldIndex
    }

    var listsByGeneration: Bool { false }
    var onlyTouchedCandidates: Bool { false }

    func sortByMessageID(_ numbers: inout [Int32], messageID: (Int32) -> String) {
        Self.sortByStrings(&numbers, messageID: messageID)
    }

    /// `sortByMessageID` by the ids themselves (`StringOrder.sortedIndices`).
    static func sortByStrings(_ numbers: inout [Int32], messageID: (Int32) -> String) {
        guard numbers.count > 1 else { return }
        let sorted = StringOrder.sortedIndices(numbers.map(messageID)).map { numbers[$0] }
        for i in sorted.indices { numbers[i] = sorted[i] }
    }

    func deliveryHints(_ m: GrouperMessage) -> (idNumber: Int32?, senderSlot: Int?) { (nil, nil) }

    func handlingOrder(_ ms: [GrouperMessage], asBuilt: Bool) -> [Int] { DeviceNode.handlingOrder(ms, asBuilt: asBuilt) }

    func hold(_ m: GrouperMessage, compactContent: MarshalledContent?, in held: inout HeldMessages) -> Int32 {
        let handle = registry.intern(m, compactContent: compactContent)
        held.set(sender: m.sender, sequence: m.sequence, handle: handle, index: heldIndex)
        return handle
    }

    func apply(_ m: GrouperMessage, to store: inout NewestVersionWinsStore) {
        _ = m.type == .update ? store.updateRemote(m) : store.deleteRemote(m)
    }

    func recordedRebuild(_ n: Int32, k: Int, _ p: PartialMessage) -> RebuildMemo.Outcome? { nil }

    func recordRebuild(_ n: Int32, k: Int, shares: [[UInt8]], _ outcome: RebuildMemo.Outcome) {}

    func join(_ shares: [[UInt8]], k: Int, number n: Int32) throws(SharingError) -> (secret: [UInt8], work: SharingWork) {
        try scheme.join(shares, k: k)
    }

    func decode(_ secret: [UInt8], number n: Int32) -> GrouperMessage? { try? GrouperMessage.decode(secret) }

    func sent(_ m: GrouperMessage, as bytes: [UInt8], number n: Int32) {}

    func encoded(_ m: GrouperMessage, knownNumber n: Int32?) -> [UInt8] { m.encoded() }
}

/// The pipeline that shares work between the devices of a run through its memos
/// (`HeldMemo`, `RebuildMemo`, `JoinMemo`, `DecodedMessageCache`), each of which changes
/// only speed, never a result.
final class MemoisedPipeline: ReceivePipeline {
    let scheme: any SecretSharingScheme
    let registry: MessageRegistry
    let heldIndex: HeldIndex
    /// Registry handles and sender slots of recently held messages.
    let heldMemo = HeldMemo()
    /// Decoded rebuilt secrets.
    let decoded = DecodedMessageCache()
    /// Joins of rebuilt messages' shares.
    let joins = JoinMemo()
    /// `first-k` rebuilds of messages from the same share buffers.
    let rebuilds = RebuildMemo()

    init(scheme: any SecretSharingScheme, registry: MessageRegistry, heldIndex: HeldIndex) {
        self.scheme = scheme; self.registry = registry; self.heldIndex = heldIndex
    }

    var listsByGeneration: Bool { true }
    var onlyTouchedCandidates: Bool { true }

    /// By the prefix keys the registry keeps per id number (no id string read unless two
    /// share their first eight bytes); by the ids once one is not ASCII.
    func sortByMessageID(_ numbers: inout [Int32], messageID: (Int32) -> String) {
        if !registry.sortByID(&numbers) { PlainPipeline.sortByStrings(&numbers, messageID: messageID) }
    }

    func deliveryHints(_ m: GrouperMessage) -> (idNumber: Int32?, senderSlot: Int?) {
        m.type.isNormal ? (nil, heldMemo.cachedSlot(of: m)) : (registry.idNumber(m.messageID), nil)
    }

    /// By packed integer keys, senders ranked through `HeldMemo` (no sender string hashed per
    /// message and device).
    func handlingOrder(_ ms: [GrouperMessage], asBuilt: Bool) -> [Int] {
        HandlingOrder.indices(ms, asBuilt: asBuilt, senderNumber: { heldMemo.senderNumber(of: $0) },
                              ranks: { heldMemo.senderRanks() })
    }

    func hold(_ m: GrouperMessage, compactContent: MarshalledContent?, in held: inout HeldMessages) -> Int32 {
        let (handle, slot) = heldMemo.handleAndSlot(m, compactContent: compactContent, registry: registry, index: heldIndex)
        held.set(slot: slot, sequence: m.sequence, handle: handle, index: heldIndex)
        return handle
    }

    /// By the object's run-wide number: no hashing of its id per device.
    func apply(_ m: GrouperMessage, to store: inout NewestVersionWinsStore) {
        _ = store.apply(m, objectNumber: heldMemo.objectNumber(of: m))
    }

    func recordedRebuild(_ n: Int32, k: Int, _ p: PartialMessage) -> RebuildMemo.Outcome? {
        rebuilds.outcome(n, k: k, p)
    }

    func recordRebuild(_ n: Int32, k: Int, shares: [[UInt8]], _ outcome: RebuildMemo.Outcome) {
        rebuilds.record(n, k: k, shares: shares, outcome)
    }

    /// Through `JoinMemo`, except at k = 1: a join of one share is a weighted copy of its bytes,
    /// cheaper than the memo's checks, its slot's bookkeeping and keeping the shares alive.
    func join(_ shares: [[UInt8]], k: Int, number n: Int32) throws(SharingError) -> (secret: [UInt8], work: SharingWork) {
        if k == 1 { return try scheme.join(shares, k: k) }
        return try joins.join(shares, k: k, number: n, scheme: scheme)
    }

    func decode(_ secret: [UInt8], number n: Int32) -> GrouperMessage? { decoded.decode(secret, number: n) }

    func sent(_ m: GrouperMessage, as bytes: [UInt8], number n: Int32) { decoded.sent(m, bytes: bytes, number: n) }

    /// The bytes `sent` recorded for an equal message (a re-upload), else a fresh encoding:
    /// of a sender's update, its content written from the filler size it gave when it held
    /// the message (`HeldMemo.marshalledFiller`), not read.
    func encoded(_ m: GrouperMessage, knownNumber n: Int32?) -> [UInt8] {
        if let n, let bytes = decoded.encoded(m, number: n) { return bytes }
        if m.type == .update, let filler = heldMemo.marshalledFiller(of: m),
           let bytes = m.encoded(marshalledFiller: filler) { return bytes }
        return m.encoded()
    }
}
