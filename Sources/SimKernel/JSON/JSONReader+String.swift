extension JSONReader {
    /// A string literal with its escapes decoded (`\uXXXX` included; a surrogate pair
    /// becomes one scalar). Errors: no opening quote, end of input, a raw control byte
    /// (< 0x20, must be escaped), an unknown escape, a bad `\u` escape, a lone surrogate,
    /// invalid UTF-8. O(length); strings without escapes are copied once.
    public mutating func readString() throws(JSONSyntaxError) -> String {
        skipWhitespace()
        guard peek == UInt8(ascii: "\"") else { throw error("expected a string") }
        let open = position
        position += 1
        let start = position
        var high: UInt8 = 0   // OR of the bytes: bit 7 set when any is non-ASCII
        while position < bytes.count {
            let b = bytes[position]
            switch b {
            case UInt8(ascii: "\""):
                position += 1
                return try validUTF8(bytes[start..<position - 1], ascii: high < 0x80, open)
            case UInt8(ascii: "\\"): return try readEscapedString(from: start, open: open)
            case 0..<0x20: throw error("control character in string (use an escape)")
            default: high |= b; position += 1
            }
        }
        throw error("unterminated string")
    }

    /// The rest of a string from its first backslash; `start` is after the opening quote.
    private mutating func readEscapedString(from start: Int, open: Int) throws(JSONSyntaxError) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(2 * (position - start) + 16)
        var run = start
        var high: UInt8 = 0   // raw bytes only: escapes always append whole scalars
        while position < bytes.count {
            let b = bytes[position]
            switch b {
            case UInt8(ascii: "\""):
                out.append(contentsOf: bytes[run..<position])
                position += 1
                return try validUTF8(out[...], ascii: high < 0x80, open)
            case UInt8(ascii: "\\"):
                out.append(contentsOf: bytes[run..<position])
                try readEscape(into: &out)
                run = position
            case 0..<0x20: throw error("control character in string (use an escape)")
            default: high |= b; position += 1
            }
        }
        throw error("unterminated string")
    }

    /// `s` as a String, or an error at the opening quote when it is not valid UTF-8.
    /// (`String(decoding:)` is the fast, specialised path; it repairs invalid input, so a
    /// non-ASCII result is valid exactly when it kept every byte.)
    private func validUTF8(_ s: ArraySlice<UInt8>, ascii: Bool, _ open: Int) throws(JSONSyntaxError) -> String {
        let string = String(decoding: s, as: UTF8.self)
        if !ascii, !string.utf8.elementsEqual(s) { throw error("string is not valid UTF-8", at: open) }
        return string
    }

    /// At a backslash: appends the UTF-8 of what the escape stands for.
    private mutating func readEscape(into out: inout [UInt8]) throws(JSONSyntaxError) {
        let backslash = position
        position += 1
        guard let e = peek else { throw error("unterminated escape") }
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            position += 1
            return try readUnicodeEscape(from: backslash, into: &out)
        default:
            throw error("invalid escape: \\ followed by \(Self.describe(e)) (allowed: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
        }
        position += 1
    }

    /// After `\u`: four hex digits, and a second `\uXXXX` when they are a high surrogate.
    private mutating func readUnicodeEscape(from backslash: Int, into out: inout [UInt8]) throws(JSONSyntaxError) {
        var code = try hex4()
        if (0xDC00..<0xE000).contains(code) { throw error("lone low surrogate \\u\(Self.hex(code))", at: backslash) }
        if (0xD800..<0xDC00).contains(code) {
            let second = position
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                throw error("lone high surrogate \\u\(Self.hex(code)) (a \\uDC00-\\uDFFF escape must follow)", at: backslash)
            }
            position += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else {
                throw error("high surrogate \\u\(Self.hex(code)) followed by \\u\(Self.hex(low)), expected \\uDC00-\\uDFFF",
                            at: second)
            }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        Self.appendUTF8(code, to: &out)
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let c = peek else { throw error("short \\u escape (needs 4 hex digits)") }
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
            default: throw error("bad hex digit in \\u escape (needs 4 hex digits)")
            }
            v = v << 4 | UInt32(d)
            position += 1
        }
        return v
    }

    static func hex(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }

    /// UTF-8 of a scalar value (not a surrogate, ≤ 0x10FFFF: guaranteed by the caller).
    static func appendUTF8(_ v: UInt32, to out: inout [UInt8]) {
        switch v {
        case 0..<0x80: out.append(UInt8(v))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | v >> 6)); out.append(UInt8(0x80 | v & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | v >> 12)); out.append(UInt8(0x80 | v >> 6 & 0x3F)); out.append(UInt8(0x80 | v & 0x3F))
        default:
            out.append(UInt8(0xF0 | v >> 18)); out.append(UInt8(0x80 | v >> 12 & 0x3F))
            out.append(UInt8(0x80 | v >> 6 & 0x3F)); out.append(UInt8(0x80 | v & 0x3F))
        }
    }
}
