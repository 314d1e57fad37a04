/// JSON string literals with the mandatory RFC 8259 escapes only (`"`, `\`, `\n`, `\r`,
/// `\t`, other control characters as `\u00xx`; `/` and non-ASCII are written as is).
///
/// The one escaper of the project: traces, result files and Grouper messages all use it,
/// so their bytes agree.
public enum JSONString {
    /// Appends `s` as a quoted JSON string to UTF-8 bytes.
    @inlinable public static func append(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(b)
            case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
            case 0..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigit(b >> 4)); out.append(hexDigit(b & 15))
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `s` as a quoted JSON string.
    public static func quoted(_ s: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.utf8.count + 2)
        append(s, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @inlinable static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 + v : 0x57 + v }
}
