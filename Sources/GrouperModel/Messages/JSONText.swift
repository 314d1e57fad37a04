import SimKernel
/// A small, strict JSON reader/writer for Grouper messages: deterministic output, typed
/// errors, no recursion deeper than `maxDepth`, never traps on arbitrary bytes.
enum JSONValue: Equatable, Sendable {
    case string(String)
    case integer(Int64)
    /// Any other JSON value; the payload names its kind for error messages.
    case other(String)
}

enum JSONText {
    static let maxDepth = 32

    /// Appends `s` as a JSON string literal (quotes, backslash and control characters escaped).
    static func appendString(_ s: String, to out: inout [UInt8]) { JSONString.append(s, to: &out) }

    /// Parses a top-level object; string and integer members are returned (in input
    /// order), members of other types are kept as `.other` markers for type errors.
    static func parseObject(_ bytes: [UInt8]) throws(MessageDecodingError) -> [(key: String, value: JSONValue)] {
        var reader = JSONReader(bytes: bytes)
        let members = try reader.readTopObject()
        reader.skipWhitespace()
        if reader.position != bytes.count { throw .invalidJSON("trailing bytes after the object at offset \(reader.position)") }
        return members
    }
}
