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
public struct GrouperMessage: Equatable, Hashable, Sendable {
    public var type: MessageType
    /// update: marshalled object JSON; delete: object id; confirm: highest normal
    /// sequence (decimal); resend: inclusive range "min-max".
    public var content: String
    public var sequence: Int
    /// Class name of the object (`object` key).
    public var objectClass: String
    public var objectID: String
    public var receiver: String
    public var sender: String
    public var email: String
    public var name: String
    /// Virtual send time, whole seconds since the run started.
    public var sendTime: Int64
    public var messageID: String

    public static let multicast = "*"

    public init(type: MessageType, content: String, sequence: Int, objectClass: String, objectID: String,
                receiver: String, sender: String, email: String, name: String, sendTime: Int64,
                messageID: String) {
        self.type = type; self.content = content; self.sequence = sequence
        self.objectClass = objectClass; self.objectID = objectID; self.receiver = receiver
        self.sender = sender; self.email = email; self.name = name; self.sendTime = sendTime
        self.messageID = messageID
    }
}
