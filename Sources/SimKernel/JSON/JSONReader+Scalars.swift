extension JSONReader {
    /// A number literal (RFC 8259 grammar: optional `-`, no leading zeros, a fraction and an
    /// exponent each with at least one digit). Range is the caller's business: see
    /// `JSONNumber.int64` and `.double`.
    public mutating func readNumber() throws(JSONSyntaxError) -> JSONNumber {
        skipWhitespace()
        let start = position
        if peek == UInt8(ascii: "-") { position += 1 }
        let intStart = position
        guard skipDigits() > 0 else {
            throw error(position == start ? "expected a number" : "expected a digit after '-'")
        }
        if bytes[intStart] == UInt8(ascii: "0") && position - intStart > 1 {
            throw error("leading zeros are not allowed in numbers", at: start)
        }
        var isInteger = true
        if peek == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard skipDigits() > 0 else { throw error("expected digits after '.'") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
            guard skipDigits() > 0 else { throw error("expected digits in exponent") }
        }
        return JSONNumber(text: String(decoding: bytes[start..<position], as: UTF8.self), isInteger: isInteger)
    }

    /// `true` or `false`.
    public mutating func readBool() throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        switch peek {
        case UInt8(ascii: "t"): try literal("true"); return true
        case UInt8(ascii: "f"): try literal("false"); return false
        default: throw error("expected true or false")
        }
    }

    /// `null`.
    public mutating func readNull() throws(JSONSyntaxError) {
        skipWhitespace()
        guard peek == UInt8(ascii: "n") else { throw error("expected null") }
        try literal("null")
    }

    private mutating func skipDigits() -> Int {
        let start = position
        while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") { position += 1 }
        return position - start
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        var i = position
        for w in word.utf8 {
            guard i < bytes.count, bytes[i] == w else { throw error("invalid literal, expected '\(word)'") }
            i += 1
        }
        position = i
    }
}
