extension JSONReader {
    /// Reads a string literal, decoding escapes (`\uXXXX` with surrogate pairs).
    mutating func readString() throws(MessageDecodingError) -> String {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
            throw .invalidJSON("expected a string at offset \(position)")
        }
        position += 1
        var out: [UInt8] = []
        while true {
            guard position < bytes.count else { throw .invalidJSON("unterminated string") }
            let b = bytes[position]
            position += 1
            if b == UInt8(ascii: "\"") { break }
            if b < 0x20 { throw .invalidJSON("control character in a string at offset \(position - 1)") }
            if b != UInt8(ascii: "\\") { out.append(b); continue }
            guard position < bytes.count else { throw .invalidJSON("unterminated escape") }
            let e = bytes[position]
            position += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"): out.append(contentsOf: try readUnicodeEscape())
            default: throw .invalidJSON("unknown escape at offset \(position - 1)")
            }
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw .invalidJSON("string is not valid UTF-8") }
        return s
    }

    private mutating func readHex4() throws(MessageDecodingError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw .invalidJSON("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[position]
            position += 1
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A")) + 10
            default: throw .invalidJSON("bad hex digit in \\u escape at offset \(position - 1)")
            }
            v = v << 4 | d
        }
        return v
    }

    /// After `\u`: one scalar (a surrogate pair takes two escapes), as UTF-8.
    private mutating func readUnicodeEscape() throws(MessageDecodingError) -> [UInt8] {
        var v = try readHex4()
        if (0xD800...0xDBFF).contains(v) {
            guard position + 2 <= bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                throw .invalidJSON("lone high surrogate")
            }
            position += 2
            let low = try readHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw .invalidJSON("bad low surrogate") }
            v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(v) else { throw .invalidJSON("lone low surrogate") }
        return Array(String(Character(scalar)).utf8)
    }
}
