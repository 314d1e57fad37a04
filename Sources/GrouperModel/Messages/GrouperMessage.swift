/// The four Grouper message types (thesis Table 4.3).
public enum MessageType: String, CaseIterable, Sendable {
    case update, delete, confirm, resend
    /// update/delete are normal messages and carry a sequence number ≥ 1.
    public var isNormal: Bool { self == .update || self == .delete }
}

/// A Grouper message (thesis Table 4.3, Fig 4.5).
///
/// Normal messages take the sender's next sequence number (1, 2, …); control
/// messages (confirm, resend) carry sequence 0. `receiver` is `"*"` for multicast
/// or one node id. Encoding lives in `GrouperMessage+JSON.swift`.
///
/// A value type whose fields live in one shared, copy-on-write box (`Fields`): a rebuilt
/// message passes through decoding, ordering, Algorithm 1's actions, the store and the
/// handed-over list, and copying eight strings each time would cost a retain and a release
/// per string. A copy costs one retain; a setter puts a changed copy of the box in its
/// place, so values behave as plain structs do and a box never changes.
public struct GrouperMessage: Sendable {
    /// Immutable: a setter puts a changed copy in place of the box. Reading a field of a
    /// `let` is a borrow, where a field that could change under a call would be retained for
    /// as long as it is used.
    final class Fields: Sendable {
        let type: MessageType
        let content: String
        let sequence: Int
        let objectClass: String
        let objectID: String
        let receiver: String
        let sender: String
        let email: String
        let name: String
        let sendTime: Int64
        let messageID: String

        init(type: MessageType, content: String, sequence: Int, objectClass: String, objectID: String,
             receiver: String, sender: String, email: String, name: String, sendTime: Int64, messageID: String) {
            self.type = type; self.content = content; self.sequence = sequence
            self.objectClass = objectClass; self.objectID = objectID; self.receiver = receiver
            self.sender = sender; self.email = email; self.name = name; self.sendTime = sendTime
            self.messageID = messageID
        }

        /// A copy with `change` applied to a mutable copy of the fields.
        func with(_ change: (inout Values) -> Void) -> Fields {
            var v = Values(type: type, content: content, sequence: sequence, objectClass: objectClass, objectID: objectID,
                           receiver: receiver, sender: sender, email: email, name: name, sendTime: sendTime,
                           messageID: messageID)
            change(&v)
            return Fields(type: v.type, content: v.content, sequence: v.sequence, objectClass: v.objectClass,
                          objectID: v.objectID, receiver: v.receiver, sender: v.sender, email: v.email, name: v.name,
                          sendTime: v.sendTime, messageID: v.messageID)
        }
    }

    /// The fields as a plain struct, for a setter's change.
    struct Values {
        var type: MessageType, content: String, sequence: Int, objectClass: String, objectID: String
        var receiver: String, sender: String, email: String, name: String, sendTime: Int64, messageID: String
    }

    private var fields: Fields

    public var type: MessageType { get { fields.type } set { fields = fields.with { $0.type = newValue } } }
    /// update: marshalled object JSON; delete: object id; confirm: highest normal
    /// sequence (decimal); resend: inclusive range "min-max".
    public var content: String { get { fields.content } set { fields = fields.with { $0.content = newValue } } }
    public var sequence: Int { get { fields.sequence } set { fields = fields.with { $0.sequence = newValue } } }
    /// Class name of the object (`object` key).
    public var objectClass: String { get { fields.objectClass } set { fields = fields.with { $0.objectClass = newValue } } }
    public var objectID: String { get { fields.objectID } set { fields = fields.with { $0.objectID = newValue } } }
    public var receiver: String { get { fields.receiver } set { fields = fields.with { $0.receiver = newValue } } }
    public var sender: String { get { fields.sender } set { fields = fields.with { $0.sender = newValue } } }
    public var email: String { get { fields.email } set { fields = fields.with { $0.email = newValue } } }
    public var name: String { get { fields.name } set { fields = fields.with { $0.name = newValue } } }
    /// Virtual send time, whole seconds since the run started.
    public var sendTime: Int64 { get { fields.sendTime } set { fields = fields.with { $0.sendTime = newValue } } }
    public var messageID: String { get { fields.messageID } set { fields = fields.with { $0.messageID = newValue } } }

    public static let multicast = "*"

    public init(type: MessageType, content: String, sequence: Int, objectClass: String, objectID: String,
                receiver: String, sender: String, email: String, name: String, sendTime: Int64,
                messageID: String) {
        fields = Fields(type: type, content: content, sequence: sequence, objectClass: objectClass,
                        objectID: objectID, receiver: receiver, sender: sender, email: email, name: name,
                        sendTime: sendTime, messageID: messageID)
    }

    /// Whether `a` and `b` share one box (then they are equal without comparing fields).
    static func sameStorage(_ a: GrouperMessage, _ b: GrouperMessage) -> Bool { a.fields === b.fields }

    /// A hash of the box's identity (not of the fields): equal only for values sharing a box
    /// or for boxes at the same address at different times. Multiplicative (Fibonacci): each
    /// of the low bits depends on the address's low 24 bits and more.
    var storageHash: Int {
        let bits = UInt64(storageAddress)
        return Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> 24)
    }

    /// The address of the box (never 0): equal only for values sharing a box, or for boxes at
    /// the same address at different times.
    var storageAddress: UInt { UInt(bitPattern: ObjectIdentifier(fields)) }

    /// Bytes of one box (for `RetainedState`): object header and fields, not the strings' storage.
    static var boxBytes: Int { 16 + 3 * 8 + 8 * MemoryLayout<String>.stride }
}

extension GrouperMessage: Equatable, Hashable {
    /// Field by field, as a synthesized `==` of the fields would.
    public static func == (a: GrouperMessage, b: GrouperMessage) -> Bool {
        if a.fields === b.fields { return true }
        let x = a.fields, y = b.fields
        return x.type == y.type && x.content == y.content && x.sequence == y.sequence
            && x.objectClass == y.objectClass && x.objectID == y.objectID && x.receiver == y.receiver
            && x.sender == y.sender && x.email == y.email && x.name == y.name && x.sendTime == y.sendTime
            && x.messageID == y.messageID
    }

    /// Every field in declaration order, as a synthesized `hash(into:)` of the fields would.
    public func hash(into h: inout Hasher) {
        let x = fields
        h.combine(x.type); h.combine(x.content); h.combine(x.sequence); h.combine(x.objectClass)
        h.combine(x.objectID); h.combine(x.receiver); h.combine(x.sender); h.combine(x.email)
        h.combine(x.name); h.combine(x.sendTime); h.combine(x.messageID)
    }
}
