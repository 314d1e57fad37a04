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
    static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\\")); out.append(b)
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(b)
            case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                out.append(contentsOf: Array("\\u00".utf8)); out.append(hex[Int(b >> 4)]); out.append(hex[Int(b & 15)])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

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
