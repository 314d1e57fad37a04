/// What `DeviceNode.hold` needs of a message — its registry handle and its sender's slot in
/// `HeldIndex` — and what the store write after it needs — its object id's run-wide number —
/// remembered for recently held message values, so that the hundred devices holding the same
/// rebuilt message (one shared value from `DecodedMessageCache`) hash its id, sender and
/// object id once instead of a hundred times.
///
/// Direct-mapped on the identity of the message's storage box. An entry keeps its message
/// alive, so a box address is never reused while an entry names it; a hit requires the very
/// same box (hence an equal message), for which `intern` and `slot(of:)` would return the
/// remembered answers again (both only append). Speed only, single-threaded, one per run.
final class HeldMemo {
    private struct Entry {
        var message: GrouperMessage?
        var handle: Int32 = -1
        var slot = -1
        /// The object id's number (`objectNumber(of:)`; -1: not asked yet).
        var object: Int32 = -1
    }

    static let size = 1024
    private var entries = [Entry](repeating: Entry(), count: size)
    /// Run-wide dense numbers of object ids, in order of first use (only grows: one entry per
    /// object id of the run).
    private var objectNumbers = StringNumbering()

    /// `index.slot(of: m.sender)` if an entry remembers this very message box, else nil
    /// (nothing is interned or assigned here).
    func cachedSlot(of m: GrouperMessage) -> Int? {
        let i = m.storageHash & (Self.size - 1)
        guard let old = entries[i].message, GrouperMessage.sameStorage(old, m) else { return nil }
        return entries[i].slot
    }

    /// `(registry.intern(m), index.slot(of: m.sender))`.
    func handleAndSlot(_ m: GrouperMessage, registry: MessageRegistry, index: HeldIndex) -> (Int32, Int) {
        let i = m.storageHash & (Self.size - 1)
        if let old = entries[i].message, GrouperMessage.sameStorage(old, m) { return (entries[i].handle, entries[i].slot) }
        let e = Entry(message: m, handle: registry.intern(m), slot: index.slot(of: m.sender))
        entries[i] = e
        return (e.handle, e.slot)
    }

    /// The run-wide number of `m.objectID` (`NewestVersionWinsStore.apply`): the same id
    /// always gets the same number; remembered with the message's entry when it has one.
    func objectNumber(of m: GrouperMessage) -> Int32 {
        let i = m.storageHash & (Self.size - 1)
        guard let old = entries[i].message, GrouperMessage.sameStorage(old, m) else { return number(ofObject: m.objectID) }
        if entries[i].object < 0 { entries[i].object = number(ofObject: m.objectID) }
        return entries[i].object
    }

    private func number(ofObject id: String) -> Int32 { objectNumbers.number(of: id) }
}
