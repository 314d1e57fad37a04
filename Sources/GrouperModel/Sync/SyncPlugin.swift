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
public struct NewestVersionWinsStore: SyncPlugin {
    public private(set) var entries: [String: StoredObject] = [:]
    public init() {}

    public func marshall(objectID: String, size: Int, updater: String, time: Int64) -> String {
        Self.marshalled(objectID: objectID, size: size, updater: updater, time: time)
    }

    /// The content `marshall` writes (`MarshalledContent` matches and rebuilds it).
    static func marshalled(objectID: String, size: Int, updater: String, time: Int64) -> String {
        // Deterministic filler so the size is exact and the content is tied to its write.
        // Built from bytes: `String(repeating:count:)` appends one character at a time.
        let filler = String(decoding: [UInt8](repeating: UInt8(ascii: "x"), count: max(0, size)), as: UTF8.self)
        return "{\"id\":\"\(objectID)\",\"payload\":\"\(filler)\",\"update_at\":\(time),\"updater\":\"\(updater)\"}"
    }

    public mutating func updateRemote(_ m: GrouperMessage) -> Bool {
        write(m.objectID, StoredObject(version: ObjectVersion(of: m), content: m.content))
    }

    public mutating func deleteRemote(_ m: GrouperMessage) -> Bool {
        write(m.objectID, StoredObject(version: ObjectVersion(of: m), content: nil))
    }

    mutating func write(_ id: String, _ new: StoredObject) -> Bool {
        if let i = entries.index(forKey: id) {   // one lookup for the check and the write
            if entries.values[i].version >= new.version { return false }
            entries.values[i] = new
            return true
        }
        entries[id] = new
        return true
    }

    public var liveObjects: [String: String] {
        entries.compactMapValues(\.content)
    }
}
