/// Cursor over JSON bytes. Every read checks bounds; every failure is a typed error.
struct JSONReader {
    let bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func skipWhitespace() {
        while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
    }

    private func fail(_ what: String) -> MessageDecodingError {
        .invalidJSON("\(what) at offset \(position)")
    }

    private mutating func expect(_ c: UInt8) throws(MessageDecodingError) {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == c else { throw fail("expected '\(Character(Unicode.Scalar(c)))'") }
        position += 1
    }

    /// Reads the top-level object, keeping string and integer members.
    mutating func readTopObject() throws(MessageDecodingError) -> [(key: String, value: JSONValue)] {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "{") else { throw fail("expected a JSON object") }
        position += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return members }
        while true {
            skipWhitespace()
            let key = try readString()
            try expect(UInt8(ascii: ":"))
            let value = try readValue(depth: 1)
            if members.contains(where: { $0.key == key }) { throw .invalidJSON("duplicate key \"\(key)\"") }
            members.append((key, value))
            skipWhitespace()
            guard position < bytes.count else { throw fail("unterminated object") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "}") { position += 1; return members }
            throw fail("expected ',' or '}'")
        }
    }

    mutating func readValue(depth: Int) throws(MessageDecodingError) -> JSONValue {
        if depth > JSONText.maxDepth { throw fail("nesting deeper than \(JSONText.maxDepth)") }
        skipWhitespace()
        guard position < bytes.count else { throw fail("expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        case UInt8(ascii: "{"), UInt8(ascii: "["): try skipContainer(depth: depth); return .other("a container")
        default:
            for (word, kind) in [("true", "a boolean"), ("false", "a boolean"), ("null", "null")] where matches(word) {
                position += word.utf8.count
                return .other(kind)
            }
            throw fail("unexpected character")
        }
    }

    private func matches(_ word: String) -> Bool {
        let w = Array(word.utf8)
        return position + w.count <= bytes.count && Array(bytes[position..<position + w.count]) == w
    }

    /// Skips an object or array (contents validated).
    private mutating func skipContainer(depth: Int) throws(MessageDecodingError) {
        let isObject = bytes[position] == UInt8(ascii: "{")
        let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        position += 1
        skipWhitespace()
        if position < bytes.count, bytes[position] == close { position += 1; return }
        while true {
            if isObject { skipWhitespace(); _ = try readString(); try expect(UInt8(ascii: ":")) }
            _ = try readValue(depth: depth + 1)
            skipWhitespace()
            guard position < bytes.count else { throw fail("unterminated container") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == close { position += 1; return }
            throw fail("expected ',' or a closing bracket")
        }
    }

    private mutating func readDigits() throws(MessageDecodingError) {
        let start = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
        if position == start { throw fail("expected digits") }
    }

    /// Integer → `.integer`; a fraction, exponent or out-of-range value → `.other`.
    private mutating func readNumber() throws(MessageDecodingError) -> JSONValue {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        try readDigits()
        var isInteger = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false; position += 1
            try readDigits()
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isInteger = false; position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            try readDigits()
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isInteger, let v = Int64(text) { return .integer(v) }
        return .other(isInteger ? "an integer out of 64-bit range" : "a non-integer number")
    }
}
