/// Recursive-descent JSON parser over UTF-8 bytes (RFC 8259, no extensions).
///
/// O(bytes) time; nesting is limited to `maxDepth` so hostile input cannot
/// exhaust the stack.
public struct JSONParser {
    private let bytes: [UInt8]
    private var i = 0
    private var depth = 0
    static let maxDepth = 200

    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(bytes: Array(text.utf8))
    }

    public static func parse(bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var p = JSONParser(bytes: bytes)
        p.skipSpace()
        let v = try p.value()
        p.skipSpace()
        if p.i < p.bytes.count { throw p.error("unexpected text after the JSON value") }
        return v
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ reason: String) -> JSONSyntaxError {
        var line = 1, col = 1
        for b in bytes[..<min(i, bytes.count)] {
            if b == 0x0A { line += 1; col = 1 } else if b & 0xC0 != 0x80 { col += 1 }
        }
        return JSONSyntaxError(line: line, column: col, reason: reason)
    }

    private var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    private mutating func skipSpace() {
        while let b = peek, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { i += 1 }
    }

    private mutating func value() throws(JSONSyntaxError) -> JSONValue {
        guard let b = peek else { throw error("unexpected end of input, expected a value") }
        switch b {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("unexpected character '\(Character(Unicode.Scalar(b)))', expected a value")
        }
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let w = Array(word.utf8)
        guard i + w.count <= bytes.count, Array(bytes[i..<i + w.count]) == w else {
            throw error("invalid literal, expected '\(word)'")
        }
        i += w.count
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maxDepth { throw error("nesting deeper than \(Self.maxDepth) levels") }
    }

    private mutating func object() throws(JSONSyntaxError) -> JSONValue {
        try enter(); defer { depth -= 1 }
        i += 1
        var members: [(key: String, value: JSONValue)] = []
        skipSpace()
        if peek == UInt8(ascii: "}") { i += 1; return .object(members) }
        while true {
            skipSpace()
            guard peek == UInt8(ascii: "\"") else { throw error("expected a key in double quotes") }
            let key = try string()
            skipSpace()
            guard peek == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\"") }
            i += 1
            skipSpace()
            members.append((key, try value()))
            skipSpace()
            if peek == UInt8(ascii: ",") { i += 1; continue }
            if peek == UInt8(ascii: "}") { i += 1; return .object(members) }
            throw error("expected ',' or '}' in object")
        }
    }

    private mutating func array() throws(JSONSyntaxError) -> JSONValue {
        try enter(); defer { depth -= 1 }
        i += 1
        var items: [JSONValue] = []
        skipSpace()
        if peek == UInt8(ascii: "]") { i += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value())
            skipSpace()
            if peek == UInt8(ascii: ",") { i += 1; continue }
            if peek == UInt8(ascii: "]") { i += 1; return .array(items) }
            throw error("expected ',' or ']' in array")
        }
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard let b = peek else { throw error("unterminated string") }
            i += 1
            if b == UInt8(ascii: "\"") { break }
            if b < 0x20 { i -= 1; throw error("control character in string (use an escape)") }
            if b != UInt8(ascii: "\\") { out.append(b); continue }
            try escape(into: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func escape(into out: inout [UInt8]) throws(JSONSyntaxError) {
        guard let e = peek else { throw error("unterminated escape") }
        i += 1
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var code = try hex4()
            if (0xD800..<0xDC00).contains(code), peek == UInt8(ascii: "\\"), i + 1 < bytes.count,
               bytes[i + 1] == UInt8(ascii: "u") {
                i += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("invalid surrogate pair") }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
        default: i -= 1; throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let d = Character(Unicode.Scalar(bytes[i])).hexDigitValue else { throw error("bad hex digit in \\u escape") }
            v = v * 16 + UInt32(d); i += 1
        }
        return v
    }

    private mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = i
        if peek == UInt8(ascii: "-") { i += 1 }
        func digits(_ p: inout JSONParser) -> Int {
            var n = 0
            while let b = p.peek, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") { p.i += 1; n += 1 }
            return n
        }
        let intStart = i
        guard digits(&self) > 0 else { throw error("invalid number") }
        if bytes[intStart] == UInt8(ascii: "0") && i - intStart > 1 { throw error("leading zeros are not allowed in numbers") }
        if peek == UInt8(ascii: ".") {
            i += 1
            guard digits(&self) > 0 else { throw error("expected digits after '.'") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            i += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
            guard digits(&self) > 0 else { throw error("expected digits in exponent") }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let v = Double(text), v.isFinite else { throw error("number out of range: \(text)") }
        return .number(v, text: text)
    }
}
