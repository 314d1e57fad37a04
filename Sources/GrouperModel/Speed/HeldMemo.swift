/// What `DeviceNode.hold` needs of a message — its registry handle and its sender's slot in
/// `HeldIndex` — what the store write after it needs — its object id's run-wide number — and
/// what the handling order needs — its sender's rank — remembered for recently held message
/// values, so that the hundred devices holding the same rebuilt message (one shared value
/// from `DecodedMessageCache`) hash its id, sender and object id once instead of a hundred
/// times. Each part is filled when first asked for.
///
/// Two-way set-associative on the identity of the message's storage box (`storageHash`
/// picks the set; each set keeps its more recently used entry first). An entry keeps its
/// message alive, so a box address is never reused while an entry names it; a hit requires
/// the very same box (hence an equal message), for which `intern` and `slot(of:)` would
/// return the remembered answers again (both only append). An entry is found by its box's
/// address (`box`), an integer compare, so a look-up retains nothing. Speed only,
/// single-threaded, one per run.
final class HeldMemo {
    private struct Entry {
        /// Keeps the box alive, so no other box takes its address while the entry names it.
        var message: GrouperMessage?
        /// `message`'s `storageAddress` (0: no message).
        var box: UInt = 0
        /// -1: not asked yet (then `slot` is -1 too).
        var handle: Int32 = -1
        /// The filler size of the message's content when its sender gave it as marshalled
        /// (`handleAndSlot`'s `compactContent`), else -1.
        var filler: Int32 = -1
        var slot = -1
        /// The sender's number in `senders` (-1: not asked yet).
        var sender: Int32 = -1
        /// The object id's number (`objectNumber(of:)`; -1: not asked yet).
        var object: Int32 = -1
    }

    /// Sets: a message's receivers are spread over a day when some are offline, and the run's
    /// boxes live on in `DecodedMessageCache` (4,096 slots) that long; two ways per set keep
    /// most of those boxes' entries, where one way of 4,096 lost a quarter to collisions.
    static let defaultSets = 4096
    /// A power of two.
    private let sets: Int
    /// Set s is `entries[2s]` (more recently used) and `entries[2s + 1]`.
    private var entries: [Entry]
    /// Run-wide dense numbers of object ids, in order of first use (only grows: one entry per
    /// object id of the run).
    private var objectNumbers = StringNumbering()
    /// Run-wide numbers of senders, in order of first sight, and each one's rank in `String`
    /// order among them (recomputed when a sender is new: a run has few).
    private var senders = StringNumbering()
    private var ranksOfSenders: [UInt32] = []

    /// `sets` (a power of two; tests use few to make entries collide).
    init(sets: Int = HeldMemo.defaultSets) {
        precondition(sets > 0 && sets & (sets - 1) == 0, "HeldMemo: sets must be a power of two")
        self.sets = sets
        entries = [Entry](repeating: Entry(), count: 2 * sets)
    }

    /// The index of the entry of this very message box, moved first in its set; nil if none.
    @inline(__always) private func find(_ m: GrouperMessage) -> Int? {
        let i = 2 * (m.storageHash & (sets - 1)), box = m.storageAddress
        if entries[i].box == box { return i }
        guard entries[i + 1].box == box else { return nil }
        swapWays(i)
        return i
    }

    /// Swaps entries `i` and `i + 1` by moving their bytes (no retain or release).
    @inline(__always) private func swapWays(_ i: Int) {
        entries.withUnsafeMutableBufferPointer { b in
            let p = b.baseAddress! + i
            let first = p.move()
            p.moveInitialize(from: p + 1, count: 1)
            (p + 1).initialize(to: first)
        }
    }

    /// Puts `e` first in its message's set, dropping the set's less recently used entry;
    /// returns its index.
    @inline(__always) private func insert(_ e: Entry, for m: GrouperMessage) -> Int {
        let i = 2 * (m.storageHash & (sets - 1))
        swapWays(i)
        entries[i] = e
        return i
    }

    /// `index.slot(of: m.sender)` if an entry remembers this very message box, else nil
    /// (nothing is interned or assigned here).
    func cachedSlot(of m: GrouperMessage) -> Int? {
        guard let i = find(m), entries[i].slot >= 0 else { return nil }
        return entries[i].slot
    }

    /// `(registry.intern(m, compactContent: compactContent), index.slot(of: m.sender))`. A
    /// `compactContent` given for a box the memo has no entry of (a sender's new message) is
    /// remembered for `marshalledFiller(of:)`.
    func handleAndSlot(_ m: GrouperMessage, compactContent: MarshalledContent? = nil, registry: MessageRegistry,
                       index: HeldIndex) -> (Int32, Int) {
        if let i = find(m) {
            if entries[i].handle < 0 {
                entries[i].handle = registry.intern(m, compactContent: compactContent)
                entries[i].slot = index.slot(of: m.sender)
            }
            return (entries[i].handle, entries[i].slot)
        }
        var filler: Int32 = -1
        if case .filler(let n)? = compactContent { filler = n }
        let e = Entry(message: m, box: m.storageAddress, handle: registry.intern(m, compactContent: compactContent),
                      filler: filler, slot: index.slot(of: m.sender))
        _ = insert(e, for: m)
        return (e.handle, e.slot)
    }

    /// The filler size its sender gave for this very message box's content (exactly
    /// `NewestVersionWinsStore.marshalled` of that size and the message's object id, sender
    /// and send time), if an entry remembers it.
    func marshalledFiller(of m: GrouperMessage) -> Int? {
        guard let i = find(m), entries[i].filler >= 0 else { return nil }
        return Int(entries[i].filler)
    }

    /// The run-wide number of `m.sender` among the senders asked for (`senderRanks` ranks
    /// them). Nothing is interned or assigned in `HeldIndex` here.
    func senderNumber(of m: GrouperMessage) -> UInt32 {
        if let i = find(m) {
            if entries[i].sender < 0 { entries[i].sender = senders.number(of: m.sender) }
            return UInt32(entries[i].sender)
        }
        let n = senders.number(of: m.sender)
        _ = insert(Entry(message: m, box: m.storageAddress, sender: n), for: m)
        return UInt32(n)
    }

    /// For each sender number, its rank in `String` order among every sender numbered so far
    /// (equal senders, equal ranks): what `HandlingOrder` sorts normal messages by.
    func senderRanks() -> [UInt32] {
        if ranksOfSenders.count != senders.count { ranksOfSenders = HandlingOrder.ranks(senders.strings) }
        return ranksOfSenders
    }

    /// The run-wide number of `m.objectID` (`NewestVersionWinsStore.apply`): the same id
    /// always gets the same number; remembered with the message's entry when it has one.
    func objectNumber(of m: GrouperMessage) -> Int32 {
        guard let i = find(m) else { return number(ofObject: m.objectID) }
        if entries[i].object < 0 { entries[i].object = number(ofObject: m.objectID) }
        return entries[i].object
    }

    private func number(ofObject id: String) -> Int32 { objectNumbers.number(of: id) }
}
