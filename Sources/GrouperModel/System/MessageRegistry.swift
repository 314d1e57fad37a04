/// One immutable copy of each Grouper message the devices of a run hold, shared by all holders,
/// and a dense number for each message id.
///
/// Devices keep every normal message they received or sent (it is handed to invitees), so a
/// run of D devices would otherwise hold about D copies of every message. Here a device keeps
/// a 4-byte handle; `intern(_:)` returns the handle of an equal message stored before, or
/// stores this one. Two different messages under one id (a tampered or garbled rebuild) get
/// different handles, so a holder always reads back exactly the message it stored.
///
/// Messages are stored compactly (`MessageRecords`): an update's content that is exactly what
/// the store marshalls from the update's own fields (nearly all of them) as its filler size,
/// rebuilt on read (`MarshalledContent`), so the registry keeps no copy of the ~400-byte
/// payloads; the fields a sender repeats once per run. Reads give back the same message.
///
/// Id numbers (`idNumber(_:)`) are dense from 0 in first-seen order: devices keep their
/// rebuilt-message sets as bitsets over them. Lookups hash the id string (`StringNumbering`);
/// nothing iterates a table. Single-threaded, one per run.
final class MessageRegistry {
    private var ids = StringNumbering()
    /// First message handle stored under each id number (−1: none yet).
    private var firstHandle: [Int32] = []
    /// Stored messages, by handle.
    private var messages = MessageRecords()
    /// Next handle with the same id (−1: none): rare, only for differing messages under one id.
    private var nextSameID: [Int32] = []
    /// `StringOrder.prefixKey` of each id number's id (0 for a non-ASCII id).
    private var prefixKeys: [UInt64] = []
    /// Whether every id numbered so far is ASCII (so `prefixKeys` order them).
    private var idsAreASCII = true

    /// Distinct message ids seen so far.
    var idCount: Int { firstHandle.count }
    /// Messages stored (one per distinct message value).
    var messageCount: Int { messages.count }

    /// The dense number of `id`, assigned on first sight.
    func idNumber(_ id: String) -> Int32 {
        let n = ids.number(of: id)
        if Int(n) == firstHandle.count {
            firstHandle.append(-1)
            let key = StringOrder.prefixKey(id)
            prefixKeys.append(key ?? 0)
            if key == nil { idsAreASCII = false }
        }
        return n
    }

    /// Sorts id numbers into their ids' `String` order by the keys kept per number
    /// (`StringOrder.sort(_:prefixKeys:id:)`); false, leaving `numbers` alone, once a
    /// non-ASCII id was numbered.
    func sortByID(_ numbers: inout [Int32]) -> Bool {
        guard idsAreASCII else { return false }
        StringOrder.sort(&numbers, prefixKeys: prefixKeys, id: { ids.strings[Int($0)] })
        return true
    }

    /// The id of number `n` (one `idNumber` assigned).
    func messageID(_ n: Int32) -> String { ids.strings[Int(n)] }

    /// The number of `id` if it has one (assigns none).
    func knownNumber(_ id: String) -> Int32? { ids.number(ifKnown: id) }

    /// The handle of a stored message equal to `m`, storing `m` if there is none.
    /// `compactContent`, if given, must be what `MarshalledContent(m.content, objectID:
    /// m.objectID, updater: m.sender, time: m.sendTime)` makes of an update's content (a
    /// sender that has just marshalled it knows it without reading the content).
    func intern(_ m: GrouperMessage, compactContent: MarshalledContent? = nil) -> Int32 {
        let n = Int(idNumber(m.messageID))
        var h = firstHandle[n], last: Int32 = -1
        while h >= 0 {
            if messages.holds(Int(h), m) { return h }
            last = h
            h = nextSameID[Int(h)]
        }
        let new = Int32(messages.count)
        messages.append(m, compactContent: compactContent)
        nextSameID.append(-1)
        if last < 0 { firstHandle[n] = new } else { nextSameID[Int(last)] = new }
        return new
    }

    subscript(handle: Int32) -> GrouperMessage { messages[Int(handle)] }

    /// Estimated bytes kept (for `RetainedState`): the message values and their own string
    /// storage, the handle chains and the id table.
    var retainedBytes: Int {
        messages.retainedBytes
            + (firstHandle.capacity + nextSameID.capacity) * 4 + prefixKeys.capacity * 8
            + ids.retainedBytes
    }
}
