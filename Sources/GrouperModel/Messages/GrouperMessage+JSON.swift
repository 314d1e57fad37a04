import Foundation

/// JSON wire format (thesis Fig 4.5 spelling of the keys).
///
/// Key mapping: `object` ← objectClass, `object_id` ← objectID, `sender_id` ← sender,
/// `receiver_id` ← receiver, `message_id` ← messageID, `send_time` ← sendTime; `type`,
/// `content`, `sequence`, `email`, `name` as named: the thesis's Fig 4.5 spelling, which the
/// published client puts on the wire (docs/messages.md).
///
/// Encoding is deterministic: keys sorted by byte value, laid out the way
/// NSJSONSerialization's pretty printer does (`{\n  "key" : value,\n …\n}`, 2-space indent,
/// `" : "`), so sizes match the thesis's messages byte for byte apart from key order. `/` is
/// not escaped (NSJSONSerialization writes `\/`; no thesis field contains one).
extension GrouperMessage {
    /// The keys, sorted, as they appear on the wire.
    public static let wireKeys = ["content", "email", "message_id", "name", "object", "object_id",
                                  "receiver_id", "send_time", "sender_id", "sequence", "type"]

    /// UTF-8 bytes of the message. The marshalling work for the cost model is the byte
    /// count (`encoded().count`); O(size of the fields).
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(160 + content.utf8.count + content.utf8.count / 8)
        out.append(contentsOf: "{\n".utf8)
        let fields: [(String, MessageFieldValue)] = [
            ("content", .string(content)), ("email", .string(email)), ("message_id", .string(messageID)),
            ("name", .string(name)), ("object", .string(objectClass)), ("object_id", .string(objectID)),
            ("receiver_id", .string(receiver)), ("send_time", .integer(sendTime)), ("sender_id", .string(sender)),
            ("sequence", .integer(Int64(sequence))), ("type", .string(type.rawValue)),
        ]
        for (i, (key, value)) in fields.enumerated() {
            out.append(contentsOf: "  ".utf8)
            JSONText.appendString(key, to: &out)
            out.append(contentsOf: " : ".utf8)
            switch value {
            case let .string(s): JSONText.appendString(s, to: &out)
            case let .integer(v): out.append(contentsOf: String(v).utf8)
            case .other: preconditionFailure("the encoder writes only strings and integers")
            }
            out.append(contentsOf: (i + 1 < fields.count ? ",\n" : "\n").utf8)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// Encoded bytes plus their count, the marshalling work charged by the cost model.
    public func encodedWithWork() -> (bytes: [UInt8], workBytes: Int) {
        let bytes = encoded()
        return (bytes, bytes.count)
    }

    /// Decodes a message written by `encoded()` (or any JSON object with the same keys,
    /// in any order and layout). Unknown keys are ignored. Never traps on bad input.
    public static func decode(_ bytes: [UInt8]) throws(MessageDecodingError) -> GrouperMessage {
        let object = try JSONText.parseObject(bytes)
        func string(_ key: String) throws(MessageDecodingError) -> String {
            guard let v = object.first(where: { $0.key == key })?.value else { throw .missingField(key) }
            guard case let .string(s) = v else { throw .wrongType(field: key, expected: "a string") }
            return s
        }
        func integer(_ key: String) throws(MessageDecodingError) -> Int64 {
            guard let v = object.first(where: { $0.key == key })?.value else { throw .missingField(key) }
            guard case let .integer(i) = v else { throw .wrongType(field: key, expected: "an integer") }
            return i
        }
        let typeName = try string("type")
        guard let type = MessageType(rawValue: typeName) else {
            throw .invalidValue(field: "type", reason: "\"\(typeName)\" is not one of update, delete, confirm, resend")
        }
        let sequence = try integer("sequence")
        guard sequence >= 0, sequence <= Int64(Int32.max) else {
            throw .invalidValue(field: "sequence", reason: "\(sequence) is outside 0...\(Int32.max)")
        }
        return GrouperMessage(type: type, content: try string("content"), sequence: Int(sequence),
                              objectClass: try string("object"), objectID: try string("object_id"),
                              receiver: try string("receiver_id"), sender: try string("sender_id"),
                              email: try string("email"), name: try string("name"),
                              sendTime: try integer("send_time"), messageID: try string("message_id"))
    }
}
