import Foundation
import SimJSON

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
    /// count (`encoded().count`); O(size of the fields). Written through a pointer into a
    /// temporary buffer of the largest size the fields can take (every byte escaped as
    /// `\u00xx`), then copied into an array of the exact size: each member's fixed text
    /// (separator, indent, key) one copied run of `fixedText`, each string `JSONString.write`,
    /// one pass over each string. `GrouperMessageCodecTests` compares the bytes with a
    /// member-by-member encoder.
    public func encoded() -> [UInt8] {
        let content = content
        return encoded(objectID: objectID, sender: sender, contentBound: 6 * content.utf8.count + 2) {
            JSONString.write(content, to: $0)
        } ?? encodedByAppending()
    }

    /// `encoded()` of an update whose content is exactly (byte for byte) what
    /// `NewestVersionWinsStore.marshalled(objectID: objectID, size: filler, updater: sender,
    /// time: sendTime)` writes, written without reading the content: its escaped fixed text
    /// (`marshalledText`), the escaped object id and sender, the filler's `x`s in one fill
    /// and the time's digits; nil if a string has no contiguous UTF-8 storage.
    /// `SenderPathTests.marshalledEncodingIsEncoded` compares it with `encoded()`.
    func encoded(marshalledFiller filler: Int) -> [UInt8]? {
        let objectID = objectID, sender = sender, time = sendTime
        let bound = Self.marshalledText.count + 6 * (objectID.utf8.count + sender.utf8.count) + 4 + filler + 20
        return encoded(objectID: objectID, sender: sender, contentBound: bound) { start in
            Self.marshalledText.withUnsafeBufferPointer { f -> UnsafeMutablePointer<UInt8>? in
                var p = start
                func text(_ k: Int) {
                    let n = Self.marshalledStarts[k + 1] - Self.marshalledStarts[k]
                    p.initialize(from: f.baseAddress! + Self.marshalledStarts[k], count: n)
                    p += n
                }
                // A string escaped in place: `JSONString.write` quotes it, so it is written
                // from the text's last byte on (a quote, `"` of `\"`, written again) and
                // the next text starts on its closing quote.
                func escaped(_ s: String) -> Bool {
                    guard let end = JSONString.write(s, to: p - 1) else { return false }
                    p = end - 1
                    return true
                }
                text(0); guard escaped(objectID) else { return nil }
                text(1); memset(p, Int32(UInt8(ascii: "x")), filler); p += filler
                text(2); p = Self.writeDecimal(time, to: p)
                text(3); guard escaped(sender) else { return nil }
                text(4)
                return p
            }
        }
    }

    /// The encoding with the content written by `writeContent` (at most `contentBound` bytes,
    /// quotes included; returns the end, or nil to give up); nil if it or another string
    /// has no contiguous UTF-8 storage. `objectID` and `sender` are the message's, read once
    /// by the caller. Inlined into both callers (each string read from the box is a retain).
    @inline(__always)
    private func encoded(objectID: String, sender: String, contentBound: Int,
                         _ writeContent: (UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8>?) -> [UInt8]? {
        let email = email, id = messageID, name = name, objectClass = objectClass
        let receiver = receiver, type = type.rawValue
        let fixed = Self.fixedText, starts = Self.fixedStarts
        let stringBytes = email.utf8.count + id.utf8.count + name.utf8.count
            + objectClass.utf8.count + objectID.utf8.count + receiver.utf8.count + sender.utf8.count + type.utf8.count
        let bound = fixed.count + contentBound + 6 * stringBytes + 2 * 8 + 2 * 20
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound) { buffer -> [UInt8]? in
            fixed.withUnsafeBufferPointer { f -> [UInt8]? in
                let start = buffer.baseAddress!
                var p = start
                func text(_ k: Int) {
                    let n = starts[k + 1] - starts[k]
                    p.initialize(from: f.baseAddress! + starts[k], count: n)
                    p += n
                }
                func string(_ s: String) -> Bool {
                    guard let end = JSONString.write(s, to: p) else { return false }
                    p = end
                    return true
                }
                text(0); guard let end = writeContent(p) else { return nil }
                p = end
                text(1); guard string(email) else { return nil }
                text(2); guard string(id) else { return nil }
                text(3); guard string(name) else { return nil }
                text(4); guard string(objectClass) else { return nil }
                text(5); guard string(objectID) else { return nil }
                text(6); guard string(receiver) else { return nil }
                text(7); p = Self.writeDecimal(sendTime, to: p)
                text(8); guard string(sender) else { return nil }
                text(9); p = Self.writeDecimal(Int64(sequence), to: p)
                text(10); guard string(type) else { return nil }
                text(11)
                precondition(p - start <= bound, "encoded(): wrote past its bound")
                return Array(UnsafeBufferPointer(start: start, count: p - start))
            }
        }
    }

    /// The JSON-escaped fixed text of a marshalled content (`NewestVersionWinsStore.marshalled`)
    /// with its quotes: before the object id, the filler, the time, the updater, and after
    /// it; piece k is `marshalledText[marshalledStarts[k]..<marshalledStarts[k + 1]]`.
    /// Pieces 0 and 3 end with a quote (`escaped` relies on it).
    static let marshalledPieces = [#""{\"id\":\""#, #"\",\"payload\":\""#, #"\",\"update_at\":"#,
                                   #",\"updater\":\""#, #"\"}""#]
    static let marshalledText: [UInt8] = marshalledPieces.flatMap { Array($0.utf8) }
    static let marshalledStarts: [Int] = marshalledPieces.reduce(into: [0]) { $0.append($0.last! + $1.utf8.count) }

    /// `encoded()` appended piece by piece to a growing array: the form for a string without
    /// contiguous UTF-8 storage.
    func encodedByAppending() -> [UInt8] {
        var out: [UInt8] = []
        let content = content
        out.reserveCapacity(160 + content.utf8.count + content.utf8.count / 8)
        let p = Self.memberPrefixes
        out.append(contentsOf: p[0]); JSONString.append(content, to: &out)
        out.append(contentsOf: p[1]); JSONString.append(email, to: &out)
        out.append(contentsOf: p[2]); JSONString.append(messageID, to: &out)
        out.append(contentsOf: p[3]); JSONString.append(name, to: &out)
        out.append(contentsOf: p[4]); JSONString.append(objectClass, to: &out)
        out.append(contentsOf: p[5]); JSONString.append(objectID, to: &out)
        out.append(contentsOf: p[6]); JSONString.append(receiver, to: &out)
        out.append(contentsOf: p[7]); Self.appendDecimal(sendTime, to: &out)
        out.append(contentsOf: p[8]); JSONString.append(sender, to: &out)
        out.append(contentsOf: p[9]); Self.appendDecimal(Int64(sequence), to: &out)
        out.append(contentsOf: p[10]); JSONString.append(type.rawValue, to: &out)
        out.append(contentsOf: "\n}".utf8)
        return out
    }

    /// Every member prefix, then the closing `\n}`, in one array; piece k is
    /// `fixedText[fixedStarts[k]..<fixedStarts[k + 1]]`.
    static let fixedText: [UInt8] = memberPrefixes.flatMap { $0 } + Array("\n}".utf8)
    static let fixedStarts: [Int] = memberPrefixes.reduce(into: [0]) { $0.append($0.last! + $1.count) } + [fixedText.count]

    /// Characters of `v` in decimal.
    static func decimalCount(_ v: Int64) -> Int {
        var m = v.magnitude, n = v < 0 ? 2 : 1
        while m >= 10 { m /= 10; n += 1 }
        return n
    }

    /// Writes `v` in decimal at `p` (as `appendDecimal`); returns the end.
    static func writeDecimal(_ v: Int64, to p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let end = p + decimalCount(v)
        var q = end, m = v.magnitude
        repeat {
            q -= 1
            q.pointee = UInt8(ascii: "0") + UInt8(m % 10)
            m /= 10
        } while m > 0
        if v < 0 { p.pointee = UInt8(ascii: "-") }
        return end
    }

    /// Per member in `wireKeys` order, the bytes before its value: `{\n` or `,\n`, the indent,
    /// the quoted key and ` : `.
    static let memberPrefixes: [[UInt8]] = wireKeys.enumerated().map { i, key in
        Array(((i == 0 ? "{\n" : ",\n") + "  " + JSONString.quoted(key) + " : ").utf8)
    }

    /// `v` in decimal, as `String(v)` writes it.
    static func appendDecimal(_ v: Int64, to out: inout [UInt8]) {
        if v < 0 { out.append(UInt8(ascii: "-")) }
        let m = v.magnitude
        var d: UInt64 = 1
        while m / d >= 10 { d *= 10 }
        while d > 0 { out.append(UInt8(ascii: "0") + UInt8(m / d % 10)); d /= 10 }
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
