/// JSON string literals with the mandatory RFC 8259 escapes only (`"`, `\`, `\n`, `\r`,
/// `\t`, other control characters as `\u00xx`; `/` and non-ASCII are written as is).
///
/// The one escaper of the project: traces, result files and Grouper messages all use it,
/// so their bytes agree.
public enum JSONString {
    /// Appends `s` as a quoted JSON string to UTF-8 bytes. Runs of bytes that need no escape
    /// are copied in one piece (a message's content is hundreds of bytes with a few quotes);
    /// `appendByteByByte` is the plain form it must equal (`JSONStringTests`).
    @inlinable public static func append(_ s: String, to out: inout [UInt8]) {
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { appendQuoted($0, to: &out) }
        if done == nil { appendByteByByte(s, to: &out) }
    }

    /// `bytes` (UTF-8) as a quoted JSON string: escape-free runs appended whole.
    @usableFromInline static func appendQuoted(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var run = 0
        for i in bytes.indices {
            let b = bytes[i]
            if b >= 0x20 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") { continue }
            if run < i { out.append(contentsOf: bytes[run..<i]) }
            appendEscape(b, to: &out)
            run = i + 1
        }
        if run < bytes.count { out.append(contentsOf: bytes[run...]) }
        out.append(UInt8(ascii: "\""))
    }

    /// The plain escaper: one byte at a time.
    public static func appendByteByByte(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            if b >= 0x20 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") { out.append(b) } else { appendEscape(b, to: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The escape of a quote, a backslash or a control character.
    @usableFromInline static func appendEscape(_ b: UInt8, to out: inout [UInt8]) {
        switch b {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(b)
        case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
        default:
            out.append(contentsOf: "\\u00".utf8)
            out.append(hexDigit(b >> 4)); out.append(hexDigit(b & 15))
        }
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
