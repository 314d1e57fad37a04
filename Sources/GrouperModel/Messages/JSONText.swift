import SimKernel
import SimJSON

/// A member of a Grouper message as the codec sees it: strings and integers are the only
/// wire types; anything else is kept as `.other` so decoding can name the wrong type.
enum MessageFieldValue: Equatable, Sendable {
    case string(String)
    case integer(Int64)
    /// Any other JSON value; the payload names its kind for error messages.
    case other(String)
}

/// The message codec's use of SimJSON's `JSONReader` and `JSONString`: deterministic
/// output, typed errors, at most `maxDepth` open containers, never traps on arbitrary bytes.
enum JSONText {
    static let maxDepth = 32

    /// Appends `s` as a JSON string literal (quotes, backslash and control characters escaped).
    static func appendString(_ s: String, to out: inout [UInt8]) { JSONString.append(s, to: &out) }

    /// Parses a top-level object into its members in input order; nested values are
    /// checked and skipped. Duplicate keys and trailing bytes are errors.
    /// O(bytes + members²) (a message has about a dozen members).
    static func parseObject(_ bytes: [UInt8]) throws(MessageDecodingError) -> [(key: String, value: MessageFieldValue)] {
        var r = JSONReader(bytes: bytes, maxDepth: maxDepth)
        do throws(JSONSyntaxError) {
            let kind = try r.peekKind()
            guard kind == .object else { throw r.error("expected a JSON object, got \(kind.name)") }
            var members: [(key: String, value: MessageFieldValue)] = []
            members.reserveCapacity(12)
            if try r.beginObject() {
                repeat {
                    r.skipWhitespace()
                    let keyStart = r.position
                    let key = try r.readKey()
                    if members.contains(where: { $0.key == key }) {
                        throw r.error("duplicate key \(JSONString.quoted(key))", at: keyStart)
                    }
                    members.append((key, try field(&r)))
                } while try r.nextMember()
            }
            try r.finish()
            return members
        } catch {
            throw .invalidJSON(error.description)
        }
    }

    /// One member's value: strings and `Int64` integers kept, everything else skipped.
    private static func field(_ r: inout JSONReader) throws(JSONSyntaxError) -> MessageFieldValue {
        let kind = try r.peekKind()
        switch kind {
        case .string: return .string(try r.readString())
        case .number:
            let n = try r.readNumber()
            if let v = n.int64 { return .integer(v) }
            return .other(n.isInteger ? "an integer out of 64-bit range" : "a non-integer number")
        default:
            try r.skipValue()
            return .other(kind.name)
        }
    }
}
