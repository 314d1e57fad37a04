import SimKernel
import SimJSON

/// Builds a `JSONValue` tree from UTF-8 JSON with SimJSON's `JSONReader` (RFC 8259, no
/// extensions; syntax errors by line and column). Object keys keep file order and
/// duplicates (the scenario reader reports those by path); numbers keep their text.
///
/// O(bytes) time; nesting is limited to `maxDepth` so hostile input cannot exhaust the stack.
public enum JSONParser {
    static let maxDepth = JSONReader.defaultMaxDepth

    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(bytes: Array(text.utf8))
    }

    /// The one value of `bytes`; anything but whitespace after it is an error.
    public static func parse(bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var reader = JSONReader(bytes: bytes, maxDepth: maxDepth)
        let v = try value(&reader)
        try reader.finish()
        return v
    }

    /// Recursion depth is bounded by the reader's `maxDepth`.
    private static func value(_ r: inout JSONReader) throws(JSONSyntaxError) -> JSONValue {
        switch try r.peekKind() {
        case .object:
            var members: [(key: String, value: JSONValue)] = []
            if try r.beginObject() {
                repeat { members.append((try r.readKey(), try value(&r))) } while try r.nextMember()
            }
            return .object(members)
        case .array:
            var items: [JSONValue] = []
            if try r.beginArray() {
                repeat { items.append(try value(&r)) } while try r.nextElement()
            }
            return .array(items)
        case .string: return .string(try r.readString())
        case .number:
            let n = try r.readNumber()
            guard let v = n.double else { throw r.error("number out of range: \(n.text)") }
            return .number(v, text: n.text)
        case .bool: return .bool(try r.readBool())
        case .null: try r.readNull(); return .null
        }
    }
}
