/// How the registry stores a message: the fields that differ from message to message, the
/// content compactly (`MarshalledContent`), and the four fields a sender repeats in every
/// message (object class, receiver, e-mail, name) as an index into a run-wide table. About 80
/// bytes per message where a `GrouperMessage` takes about 150, before its content.
struct StoredMessage: Sendable {
    var type: MessageType
    var sequence: Int
    var sendTime: Int64
    var messageID: String
    var sender: String
    var objectID: String
    /// ≥ 0: the filler size of a canonical update content; < 0: −1 − its index in `verbatim`.
    var content: Int32
    /// Index of (object class, receiver, e-mail, name) in `MessageRecords.extras`.
    var extras: Int32
}

/// The fields most messages of one sender share.
struct MessageExtras: Hashable, Sendable {
    var objectClass: String, receiver: String, email: String, name: String
    init(of m: GrouperMessage) { objectClass = m.objectClass; receiver = m.receiver; email = m.email; name = m.name }
}

/// The registry's message storage: records, the distinct extras, contents kept verbatim.
struct MessageRecords: Sendable {
    private(set) var records: [StoredMessage] = []
    private var extras: [MessageExtras] = []
    private var extrasIndex: [MessageExtras: Int32] = [:]
    private var verbatim: [String] = []
    /// The last content string found equal to each of a few recent handles' compact content
    /// (slot = handle mod size): receivers of a message usually hold the very same decoded
    /// string, so most checks are one string comparison instead of a walk over the format.
    /// Bounded; a slot keeps its string alive only until another handle takes the slot.
    private var verified = [(handle: Int, content: String)?](repeating: nil, count: 1024)

    /// The last few distinct extras numbered (`recentExtras.count` at most 16), compared
    /// before the dictionary is asked: a run's senders repeat theirs, usually in the very same
    /// strings, whose comparison is one look at their bits where hashing reads every byte.
    private var recentExtras: [(extras: MessageExtras, number: Int32)] = []
    private var nextRecent = 0

    var count: Int { records.count }

    /// The index of `x` in `extras`, appended on first sight.
    private mutating func extrasNumber(_ x: MessageExtras) -> Int32 {
        for r in recentExtras where r.extras == x { return r.number }
        let n = extrasIndex[x] ?? {
            extras.append(x)
            extrasIndex[x] = Int32(extras.count - 1)
            return Int32(extras.count - 1)
        }()
        if recentExtras.count < 16 { recentExtras.append((x, n)) } else { recentExtras[nextRecent] = (x, n) }
        nextRecent = (nextRecent + 1) & 15
        return n
    }

    /// Stores `m`; `compactContent` as in `MessageRegistry.intern(_:compactContent:)`.
    mutating func append(_ m: GrouperMessage, compactContent: MarshalledContent? = nil) {
        let xi = extrasNumber(MessageExtras(of: m))
        var content: Int32
        if m.type == .update, let n = Self.fillerSize(of: m, compactContent) {
            content = n
        } else {
            verbatim.append(m.content)
            content = -Int32(verbatim.count)
        }
        records.append(StoredMessage(type: m.type, sequence: m.sequence, sendTime: m.sendTime, messageID: m.messageID,
                                     sender: m.sender, objectID: m.objectID, content: content, extras: xi))
    }

    /// The filler size of update `m`'s content if it is canonical (`MarshalledContent`), read
    /// from `compact` when given.
    private static func fillerSize(of m: GrouperMessage, _ compact: MarshalledContent?) -> Int32? {
        switch compact {
        case .filler(let n)?: return n
        case .verbatim?: return nil
        case nil: return MarshalledContent.fillerSize(of: m.content, objectID: m.objectID, updater: m.sender, time: m.sendTime)
        }
    }

    /// The message stored at `i`.
    subscript(i: Int) -> GrouperMessage {
        let r = records[i], x = extras[Int(r.extras)]
        let content = r.content >= 0
            ? NewestVersionWinsStore.marshalled(objectID: r.objectID, size: Int(r.content), updater: r.sender, time: r.sendTime)
            : verbatim[Int(-1 - r.content)]
        return GrouperMessage(type: r.type, content: content, sequence: r.sequence, objectClass: x.objectClass,
                              objectID: r.objectID, receiver: x.receiver, sender: r.sender, email: x.email, name: x.name,
                              sendTime: r.sendTime, messageID: r.messageID)
    }

    /// Whether the message stored at `i` equals `m`, field by field (no content is rebuilt).
    mutating func holds(_ i: Int, _ m: GrouperMessage) -> Bool {
        let r = records[i]
        guard r.type == m.type, r.sequence == m.sequence, r.sendTime == m.sendTime, r.messageID == m.messageID,
              r.sender == m.sender, r.objectID == m.objectID, extras[Int(r.extras)] == MessageExtras(of: m) else { return false }
        if r.content < 0 { return verbatim[Int(-1 - r.content)] == m.content }
        let slot = i & (verified.count - 1)
        if let v = verified[slot], v.handle == i { return v.content == m.content }
        guard MarshalledContent.fillerSize(of: m.content, objectID: m.objectID, updater: m.sender, time: m.sendTime) == r.content
        else { return self[i].content == m.content }   // String equality (canonical equivalence), as `==` of messages
        verified[slot] = (i, m.content)
        return true
    }

    /// Estimated bytes kept (for `RetainedState`): records, their id strings, verbatim contents, extras.
    var retainedBytes: Int {
        records.capacity * MemoryLayout<StoredMessage>.stride
            + records.reduce(0) { $0 + RetainedState.stringBytes($1.messageID) }
            + verbatim.capacity * MemoryLayout<String>.stride + verbatim.reduce(0) { $0 + RetainedState.stringBytes($1) }
            + extras.count * (MemoryLayout<MessageExtras>.stride * 2 + 8)
            + verified.count * MemoryLayout<(handle: Int, content: String)?>.stride
    }
}
