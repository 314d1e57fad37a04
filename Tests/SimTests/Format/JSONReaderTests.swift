import Testing
import SimKernel
import SimJSON

/// Walks a whole document with the pull API and writes it back compactly (keys in input
/// order, numbers as written): exercises every read call the codec and the scenario parser use.
private func render(_ text: String, maxDepth: Int = JSONReader.defaultMaxDepth) throws(JSONSyntaxError) -> String {
    var r = JSONReader(bytes: Array(text.utf8), maxDepth: maxDepth)
    let out = try value(&r)
    try r.finish()
    #expect(r.depth == 0)
    return out
}

private func value(_ r: inout JSONReader) throws(JSONSyntaxError) -> String {
    switch try r.peekKind() {
    case .object:
        var parts: [String] = []
        if try r.beginObject() {
            repeat { parts.append(JSONString.quoted(try r.readKey()) + ":" + (try value(&r))) } while try r.nextMember()
        }
        return "{" + parts.joined(separator: ",") + "}"
    case .array:
        var parts: [String] = []
        if try r.beginArray() { repeat { parts.append(try value(&r)) } while try r.nextElement() }
        return "[" + parts.joined(separator: ",") + "]"
    case .string: return JSONString.quoted(try r.readString())
    case .number: return try r.readNumber().text
    case .bool: return try r.readBool() ? "true" : "false"
    case .null: try r.readNull(); return "null"
    }
}

private func string(_ literal: String) throws(JSONSyntaxError) -> String {
    var r = JSONReader(bytes: Array(literal.utf8))
    return try r.readString()
}

private func failure(_ bytes: [UInt8], maxDepth: Int = JSONReader.defaultMaxDepth) -> JSONSyntaxError? {
    var r = JSONReader(bytes: bytes, maxDepth: maxDepth)
    do { try r.skipValue(); try r.finish(); return nil } catch { return error }
}

private func failure(_ text: String, maxDepth: Int = JSONReader.defaultMaxDepth) -> JSONSyntaxError? {
    failure(Array(text.utf8), maxDepth: maxDepth)
}

@Suite struct JSONReaderTests {
    @Test func documentsKeepKeyOrderDuplicatesAndNumberText() throws {
        #expect(try render(#" { "b" : [1, -2.50e3, true, false, null, {}, []], "a": "x", "b": {"c": ""} } "#)
            == #"{"b":[1,-2.50e3,true,false,null,{},[]],"a":"x","b":{"c":""}}"#)
        #expect(try render("\t\r\n\"only\"\n") == #""only""#)
        #expect(try render("-0") == "-0")
    }

    @Test func escapesDecode() throws {
        #expect(try string(#""\"\\\/\b\f\n\r\t""#) == "\"\\/\u{08}\u{0C}\n\r\t")
        #expect(try string(#""\u00e9\u20AC\u0000x""#) == "é€\u{0}x")
        #expect(try string(#""plain ascii""#) == "plain ascii")
        #expect(try string("\"raw é€😀\"") == "raw é€😀")
        #expect(try string(#""mixed é \"q\" €""#) == "mixed é \"q\" €")
    }

    @Test func surrogatePairsJoinAndLoneSurrogatesAreErrors() throws {
        #expect(try string(#""\uD83D\uDE00""#) == "😀")
        #expect(try string(#""\ud834\udd1e!""#) == "𝄞!")
        #expect(throws: JSONSyntaxError(line: 1, column: 3, reason: #"lone high surrogate \uD800 (a \uDC00-\uDFFF escape must follow)"#)) {
            try string(#""a\uD800""#)
        }
        #expect(throws: JSONSyntaxError(line: 1, column: 2, reason: #"lone high surrogate \uD83D (a \uDC00-\uDFFF escape must follow)"#)) {
            try string(#""\uD83Dx""#)
        }
        #expect(throws: JSONSyntaxError(line: 1, column: 8, reason: #"high surrogate \uD83D followed by \u0041, expected \uDC00-\uDFFF"#)) {
            try string(#""\uD83D\u0041""#)
        }
        #expect(throws: JSONSyntaxError(line: 1, column: 2, reason: #"lone low surrogate \uDE00"#)) {
            try string(#""\uDE00\uD83D""#)
        }
    }

    /// Integers beyond Int64 are read (the literal is kept); converting is the caller's
    /// choice: the message codec calls them the wrong type, the scenario format rounds to Double.
    @Test func numbersKeepTheirTextAndConvertOnRequest() throws {
        func number(_ t: String) throws(JSONSyntaxError) -> JSONNumber {
            var r = JSONReader(bytes: Array(t.utf8))
            return try r.readNumber()
        }
        #expect(try number("9223372036854775807").int64 == Int64.max)
        #expect(try number("-9223372036854775808").int64 == Int64.min)
        #expect(try number("9223372036854775808").int64 == nil)
        #expect(try number("9223372036854775808").isInteger)
        #expect(try number("9223372036854775808").double == 9_223_372_036_854_775_808)
        #expect(try number("9007199254740993").double == 9_007_199_254_740_992)
        #expect(try number("1e400").double == nil)
        #expect(try number("1e400").text == "1e400")
        #expect(try number("1.0").int64 == nil)
        #expect(try number("1E+2") == JSONNumber(text: "1E+2", isInteger: false))
        #expect(try number("-0.5e-3").double == -0.0005)
        #expect(try number("-0").int64 == 0)
    }

    @Test func nestingIsBoundedByMaxDepth() throws {
        let deep = { (n: Int) in String(repeating: "[", count: n) + String(repeating: "]", count: n) }
        #expect(try render(deep(3), maxDepth: 3) == "[[[]]]")
        #expect(failure(deep(4), maxDepth: 3) == JSONSyntaxError(line: 1, column: 4, reason: "nesting deeper than 3 levels"))
        #expect(failure(#"{"a":{"b":[1]}}"#, maxDepth: 2) == JSONSyntaxError(line: 1, column: 11, reason: "nesting deeper than 2 levels"))
        #expect(failure(deep(JSONReader.defaultMaxDepth)) == nil)
        #expect(failure(deep(JSONReader.defaultMaxDepth + 1))?.reason == "nesting deeper than 200 levels")
        #expect(failure(String(repeating: "[", count: 100_000))?.reason == "nesting deeper than 200 levels")
    }

    @Test func trailingDataIsRejectedByFinish() throws {
        #expect(failure("{}  \n") == nil)
        #expect(failure("{} x") == JSONSyntaxError(line: 1, column: 4, reason: "unexpected text after the JSON value"))
        #expect(failure("1 2") == JSONSyntaxError(line: 1, column: 3, reason: "unexpected text after the JSON value"))
        #expect(failure("[]]") == JSONSyntaxError(line: 1, column: 3, reason: "unexpected text after the JSON value"))
    }

    /// Every error the reader throws, with the line and column it names.
    @Test(arguments: [
        ("", 1, 1, "unexpected end of input, expected a value"),
        ("[1,]", 1, 4, "unexpected character ']', expected a value"),
        ("+1", 1, 1, "unexpected character '+', expected a value"),
        (".5", 1, 1, "unexpected character '.', expected a value"),
        ("{\"a\" 1}", 1, 6, "expected ':' after key \"a\""),
        ("{\"a\":1 \"b\":2}", 1, 8, "expected ',' or '}' in object"),
        ("{\"a\":1,}", 1, 8, "expected a key in double quotes"),
        ("{1:2}", 1, 2, "expected a key in double quotes"),
        ("[1 2]", 1, 4, "expected ',' or ']' in array"),
        ("[1", 1, 3, "expected ',' or ']' in array"),
        ("tru", 1, 1, "invalid literal, expected 'true'"),
        ("fals", 1, 1, "invalid literal, expected 'false'"),
        ("nul", 1, 1, "invalid literal, expected 'null'"),
        ("01", 1, 1, "leading zeros are not allowed in numbers"),
        ("[-01]", 1, 2, "leading zeros are not allowed in numbers"),
        ("-", 1, 2, "expected a digit after '-'"),
        ("1.", 1, 3, "expected digits after '.'"),
        ("1.e3", 1, 3, "expected digits after '.'"),
        ("1e", 1, 3, "expected digits in exponent"),
        ("1e+", 1, 4, "expected digits in exponent"),
        ("\"abc", 1, 5, "unterminated string"),
        ("\"a\tb\"", 1, 3, "control character in string (use an escape)"),
        ("\"a\\q\"", 1, 4, "invalid escape: \\ followed by character 'q' (allowed: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"),
        ("\"\\", 1, 3, "unterminated escape"),
        ("\"\\u12G4\"", 1, 6, "bad hex digit in \\u escape (needs 4 hex digits)"),
        ("\"\\u12", 1, 6, "short \\u escape (needs 4 hex digits)"),
        ("{\n  \"a\": 1\n  \"b\": 2}", 3, 3, "expected ',' or '}' in object"),
        ("[\"é€\", x]", 1, 8, "unexpected character 'x', expected a value"),
    ])
    func errorsNameTheirPosition(text: String, line: Int, column: Int, reason: String) {
        #expect(failure(text) == JSONSyntaxError(line: line, column: column, reason: reason))
    }

    @Test func byteLevelErrors() {
        #expect(failure([0xC3]) == JSONSyntaxError(line: 1, column: 1, reason: "unexpected byte 0xC3, expected a value"))
        #expect(failure([0x5B, 0x00]) == JSONSyntaxError(line: 1, column: 2, reason: "unexpected byte 0x00, expected a value"))
        #expect(failure([0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D])
            == JSONSyntaxError(line: 1, column: 2, reason: "string is not valid UTF-8"))
        // A truncated 4-byte sequence (its repair would also be 3 bytes long) is caught.
        #expect(failure([0x22, 0xF0, 0x9F, 0x98, 0x22])?.reason == "string is not valid UTF-8")
        #expect(failure([0x22, 0x5C, 0x6E, 0xED, 0xA0, 0x80, 0x22])?.reason == "string is not valid UTF-8")
        #expect(failure("\"\\q\u{1}\"")?.reason.hasPrefix("invalid escape") == true)
        #expect(failure([0x22, 0x5C, 0x01, 0x22])?.reason.hasPrefix("invalid escape: \\ followed by byte 0x01") == true)
    }

    @Test func typedReadsNameWhatTheyExpected() {
        func first(_ text: String, _ read: (inout JSONReader) throws(JSONSyntaxError) -> Void) -> String? {
            var r = JSONReader(bytes: Array(text.utf8))
            do { try read(&r); return nil } catch { return error.description }
        }
        #expect(first("[]") { r throws(JSONSyntaxError) in _ = try r.beginObject() } == "line 1, column 1: expected an object")
        #expect(first("{}") { r throws(JSONSyntaxError) in _ = try r.beginArray() } == "line 1, column 1: expected an array")
        #expect(first(" 1") { r throws(JSONSyntaxError) in _ = try r.readString() } == "line 1, column 2: expected a string")
        #expect(first("x") { r throws(JSONSyntaxError) in _ = try r.readNumber() } == "line 1, column 1: expected a number")
        #expect(first("1") { r throws(JSONSyntaxError) in _ = try r.readBool() } == "line 1, column 1: expected true or false")
        #expect(first("0") { r throws(JSONSyntaxError) in try r.readNull() } == "line 1, column 1: expected null")
        #expect(JSONValueKind.bool.name == "a boolean" && JSONValueKind.object.name == "an object")
    }

    /// Mutated and random bytes: a value or a typed error, never a trap.
    @Test func randomBytesNeverTrap() {
        var rng = Xoshiro256StarStar(seed: 8259)
        let valid = Array(#"{"a": [1, -2.5e3, "\u00e9\uD83D\uDE00\n", true, null], "b": {"c": false}}"#.utf8)
        var accepted = 0, rejected = 0
        for _ in 0..<2_000 {
            var bytes = valid
            if rng.chance(0.8) {
                for _ in 0..<rng.int(in: 1...3) { bytes[rng.nextInt(below: bytes.count)] = UInt8(truncatingIfNeeded: rng.next()) }
                if rng.chance(0.3) { bytes = Array(bytes.prefix(rng.nextInt(below: bytes.count))) }
            } else {
                bytes = [UInt8](repeating: 0, count: rng.int(in: 0...48))
                rng.fill(&bytes)
            }
            if failure(bytes, maxDepth: 4) == nil { accepted += 1 } else { rejected += 1 }
        }
        #expect(accepted > 0 && rejected > 0)
    }
}
