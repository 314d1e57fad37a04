import SimKernel

/// Version of an object write: newest wins, ties broken by sender node id then sequence.
/// A total order over all writes (a sender's sequence numbers are unique).
public struct ObjectVersion: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The message's send time (whole seconds).
    public var time: Int64
    public var sender: String
    public var sequence: Int
    public init(time: Int64, sender: String, sequence: Int) {
        self.time = time; self.sender = sender; self.sequence = sequence
    }
    public init(of m: GrouperMessage) { self.init(time: m.sendTime, sender: m.sender, sequence: m.sequence) }
    public static func < (a: ObjectVersion, b: ObjectVersion) -> Bool {
        (a.time, a.sender, a.sequence) < (b.time, b.sender, b.sequence)
    }
    public var description: String { "\(time)/\(sender.prefix(8))/\(sequence)" }
}

/// An object as a device's store holds it; `content == nil` is a tombstone (deleted).
public struct StoredObject: Equatable, Sendable {
    public var version: ObjectVersion
    public var content: String?
}

extension StoredObject {
    /// The object update or delete `m` writes (a delete: a tombstone).
    init(of m: GrouperMessage) { self.init(version: ObjectVersion(of: m), content: m.type == .update ? m.content : nil) }
}

/// The synchronization plugin (thesis Table 4.2): marshalls objects, applies remote writes.
public protocol SyncPlugin: Sendable {
    /// Marshalls an object of `size` payload bytes into the update message content.
    func marshall(objectID: String, size: Int, updater: String, time: Int64) -> String
    /// Applies a local or remote update; returns whether the store changed.
    mutating func updateRemote(_ message: GrouperMessage) -> Bool
    /// Applies a local or remote delete; returns whether the store changed.
    mutating func deleteRemote(_ message: GrouperMessage) -> Bool
    /// Live objects: object id → content.
    var liveObjects: [String: String] { get }
    /// Every entry including tombstones.
    var entries: [String: StoredObject] { get }
}

/// The default store: newest version wins (the Sync framework's model), tombstones kept so a
/// late older update cannot resurrect a deleted object.
///
/// Objects live in arrays by a local slot (order of first write); a table finds an object id's
/// slot. A caller that numbers object ids densely for the whole run (`apply(_:objectNumber:)`:
/// the device, through `HeldMemo`) finds the slot by that number instead, so a write hashes no
/// object id; both ways reach the same slot, so they can be mixed freely.
///
/// An object written by an update or delete message is kept as that message (`Stored.message`):
/// one reference to its shared box instead of its sender and content strings, each
/// reference-counted on its own. `entries`, `storedObjects` and `entry` give the same
/// `StoredObject` either way.
public struct NewestVersionWinsStore: SyncPlugin {
    /// One stored object.
    private enum Stored: Sendable {
        /// Written by update or delete `m`: the object `StoredObject(of: m)`.
        case message(GrouperMessage)
        case object(StoredObject)

        var object: StoredObject {
            switch self {
            case .message(let m): return StoredObject(of: m)
            case .object(let o): return o
            }
        }

        /// Whether this version is older than `m`'s (`object.version < ObjectVersion(of: m)`),
        /// comparing senders only when the times are equal.
        func isOlder(than m: GrouperMessage) -> Bool {
            switch self {
            case .message(let e):
                if GrouperMessage.sameStorage(e, m) { return false }
                if e.sendTime != m.sendTime { return e.sendTime < m.sendTime }
                return (e.sender, e.sequence) < (m.sender, m.sequence)
            case .object(let o):
                if o.version.time != m.sendTime { return o.version.time < m.sendTime }
                return (o.version.sender, o.version.sequence) < (m.sender, m.sequence)
            }
        }
    }

    private var ids: [String] = []
    private var objects: [Stored] = []
    private var slotOfID: [String: Int] = [:]
    /// Run-wide object number → local slot + 1 (0: not written under that number yet).
    private var slotOfNumber: [Int32] = []

    public init() {}

    /// Every entry including tombstones, by object id.
    public var entries: [String: StoredObject] { Dictionary(uniqueKeysWithValues: zip(ids, storedObjects)) }

    /// Every entry including tombstones, in the order objects were first written.
    var storedObjects: [StoredObject] { objects.map(\.object) }

    /// The entry of object `id` (a tombstone too), if the store has one.
    func entry(_ id: String) -> StoredObject? { slotOfID[id].map { objects[$0].object } }

    /// The object ids of `storedObjects`, in the same order.
    var storedIDs: [String] { ids }

    public func marshall(objectID: String, size: Int, updater: String, time: Int64) -> String {
        Self.marshalled(objectID: objectID, size: size, updater: updater, time: time)
    }

    /// The content `marshall` writes (`MarshalledContent` matches and rebuilds it).
    static func marshalled(objectID: String, size: Int, updater: String, time: Int64) -> String {
        // Deterministic filler so the size is exact and the content is tied to its write.
        // Written as bytes straight into the string's storage: the pieces copied whole, the
        // filler set in one go (`CompactContentTests` compares it with the interpolated string).
        var objectID = objectID, updater = updater, time = String(time)
        let filler = max(0, size)
        return objectID.withUTF8 { o in updater.withUTF8 { u in time.withUTF8 { t in
            let total = 7 + o.count + 13 + filler + 14 + t.count + 12 + u.count + 2
            return String(unsafeUninitializedCapacity: total) { buffer in
                var at = buffer.baseAddress!
                func put(_ p: UnsafeBufferPointer<UInt8>) {
                    if let b = p.baseAddress { at.initialize(from: b, count: p.count) }
                    at += p.count
                }
                func put(_ p: StaticString) { put(UnsafeBufferPointer(start: p.utf8Start, count: p.utf8CodeUnitCount)) }
                put(#"{"id":""#); put(o); put(#"","payload":""#)
                at.initialize(repeating: UInt8(ascii: "x"), count: filler)
                at += filler
                put(#"","update_at":"#); put(t); put(#","updater":""#); put(u); put(#""}"#)
                return at - buffer.baseAddress!
            }
        } } }
    }

    public mutating func updateRemote(_ m: GrouperMessage) -> Bool {
        guard m.type == .update else { return write(m.objectID, StoredObject(version: ObjectVersion(of: m), content: m.content)) }
        return write(slot: slot(m.objectID), m)
    }

    public mutating func deleteRemote(_ m: GrouperMessage) -> Bool {
        guard m.type != .update else { return write(m.objectID, StoredObject(version: ObjectVersion(of: m), content: nil)) }
        return write(slot: slot(m.objectID), m)
    }

    /// `updateRemote` (`deleteRemote` when `m` is a delete) of a message whose object id has
    /// run-wide number `number` (the same id always has the same number). `m.objectID` is read
    /// only when the number has no slot yet.
    mutating func apply(_ m: GrouperMessage, objectNumber number: Int32) -> Bool {
        write(slot: slot(of: m, number: number), m)
    }

    /// Stores the object `m` writes (`StoredObject(of: m)`) in slot `i` if it is newer.
    private mutating func write(slot i: Int, _ m: GrouperMessage) -> Bool {
        if i == objects.count {
            objects.append(.message(m))
            return true
        }
        guard objects[i].isOlder(than: m) else { return false }
        objects[i] = .message(m)
        return true
    }

    /// `new` is consumed: stored without copying its strings once more.
    mutating func write(_ id: String, _ new: consuming StoredObject) -> Bool {
        let i = slot(id)
        if i == objects.count {
            objects.append(.object(new))
            return true
        }
        if objects[i].object.version >= new.version { return false }
        objects[i] = .object(new)
        return true
    }

    /// The slot of object `id`; `objects.count` (with `id` recorded there) if it is new.
    private mutating func slot(_ id: String) -> Int {
        if let i = slotOfID[id] { return i }
        slotOfID[id] = ids.count
        ids.append(id)
        return ids.count - 1
    }

    /// `slot(m.objectID)` found by the object's run-wide number when it was written under it before.
    private mutating func slot(of m: GrouperMessage, number: Int32) -> Int {
        let n = Int(number)
        if n < slotOfNumber.count, slotOfNumber[n] > 0 { return Int(slotOfNumber[n]) - 1 }
        let i = slot(m.objectID)
        if n >= slotOfNumber.count { slotOfNumber.append(contentsOf: repeatElement(0, count: n + 1 - slotOfNumber.count)) }
        slotOfNumber[n] = Int32(i + 1)
        return i
    }

    public var liveObjects: [String: String] {
        var out: [String: String] = [:]
        for (i, id) in ids.enumerated() { if let c = objects[i].object.content { out[id] = c } }
        return out
    }
}
