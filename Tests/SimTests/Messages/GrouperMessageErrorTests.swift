import Testing
@testable import GrouperModel
import SimKernel
import SimJSON

private func decodeError(_ text: String) -> MessageDecodingError? {
    do { _ = try GrouperMessage.decode(Array(text.utf8)); return nil } catch { return error }
}

/// The encoding of `sampleMessage()` with one line replaced or removed.
private func edited(_ key: String, to line: String?) -> String {
    let text = String(decoding: sampleMessage().encoded(), as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let i = lines.firstIndex { $0.hasPrefix("  \"\(key)\" :") }!
    if let line { lines[i] = "  \"\(key)\" : \(line)" + (lines[i].hasSuffix(",") ? "," : "") } else { lines.remove(at: i) }
    if !lines[lines.count - 2].hasSuffix(",") {} else { lines[lines.count - 2].removeLast() }
    return lines.joined(separator: "\n")
}

@Test func encodingIsSortedPrettyAndStable() {
    let text = String(decoding: sampleMessage().encoded(), as: UTF8.self)
    let keys = text.split(separator: "\n").dropFirst().dropLast().map { $0.split(separator: "\"")[1] }.map(String.init)
    #expect(keys == GrouperMessage.wireKeys)
    #expect(keys == keys.sorted())
    #expect(text.hasPrefix("{\n  \"content\" : \"{\\\"id\\\":\\\"X\\\"}\",\n"))
    #expect(text.hasSuffix("  \"type\" : \"update\"\n}"))
    #expect(sampleMessage().encoded() == sampleMessage().encoded())
}

@Test(arguments: GrouperMessage.wireKeys)
func decodeNamesEachMissingField(key: String) {
    #expect(decodeError(edited(key, to: nil)) == .missingField(key))
}

@Test func decodeNamesMistypedFields() {
    #expect(decodeError(edited("sequence", to: "\"3\"")) == .wrongType(field: "sequence", expected: "an integer"))
    #expect(decodeError(edited("send_time", to: "1.5")) == .wrongType(field: "send_time", expected: "an integer"))
    #expect(decodeError(edited("content", to: "42")) == .wrongType(field: "content", expected: "a string"))
    #expect(decodeError(edited("sender_id", to: "null")) == .wrongType(field: "sender_id", expected: "a string"))
    #expect(decodeError(edited("email", to: "[1, {\"a\": true}]")) == .wrongType(field: "email", expected: "a string"))
    guard case .invalidValue(field: "type", _)? = decodeError(edited("type", to: "\"ping\"")) else {
        Issue.record("unknown type accepted"); return
    }
    guard case .invalidValue(field: "sequence", _)? = decodeError(edited("sequence", to: "-1")) else {
        Issue.record("negative sequence accepted"); return
    }
}

@Test func decodeRejectsBrokenJSON() {
    for text in ["", "[]", "{", "{\"type\" \"update\"}", "{} x", "{\"a\":1,\"a\":2}", "{\"a\":\"\\q\"}",
                 "{\"a\":\"\\ud800\"}", "{\"a\":01e}", "{\"a\":\"tab\there\"}", String(repeating: "[", count: 100)] {
        guard case .invalidJSON? = decodeError(text) else { Issue.record("accepted \(text.debugDescription)"); continue }
    }
    #expect(decodeError("{\"a\": " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}") != nil)
    // Unknown keys and any layout are fine.
    let compact = "{\"type\":\"confirm\",\"content\":\"5\",\"sequence\":0,\"object\":\"\",\"object_id\":\"\",\"receiver_id\":\"*\","
        + "\"sender_id\":\"A\",\"email\":\"e\",\"name\":\"n\",\"send_time\":7,\"message_id\":\"M\",\"extra\":[1,2]}"
    #expect(decodeError(compact) == nil)
}

/// Random and mutated bytes: a typed error or a message, never a crash.
@Test func messageDecoderSurvivesRandomBytes() {
    var rng = Xoshiro256StarStar(seed: 99)
    let valid = sampleMessage(.update, content: "{\"a\":\"b\\\\c\"}").encoded()
    var failures = 0
    for _ in 0..<sharingPropertySeeds(default: 5000) {
        var bytes: [UInt8]
        if rng.chance(0.7) {
            bytes = valid
            for _ in 0..<rng.int(in: 1...4) { bytes[rng.nextInt(below: bytes.count)] = UInt8(truncatingIfNeeded: rng.next()) }
            if rng.chance(0.3) { bytes = Array(bytes.prefix(rng.nextInt(below: bytes.count))) }
        } else {
            bytes = [UInt8](repeating: 0, count: rng.int(in: 0...64))
            rng.fill(&bytes)
        }
        do { _ = try GrouperMessage.decode(bytes) } catch { failures += 1 }
    }
    #expect(failures > 0)
}

/// The codec's reader is SimKernel's `JSONReader`: syntax errors carry its line and column.
@Test func decodeSyntaxErrorsNameTheirPosition() {
    #expect(decodeError("{\"a\":1,\"a\":2}") == .invalidJSON("line 1, column 8: duplicate key \"a\""))
    #expect(decodeError("[]") == .invalidJSON("line 1, column 1: expected a JSON object, got an array"))
    #expect(decodeError("{}\n x") == .invalidJSON("line 2, column 2: unexpected text after the JSON value"))
    #expect(decodeError("") == .invalidJSON("line 1, column 1: unexpected end of input, expected a value"))
    #expect(decodeError("{\"a\": " + String(repeating: "[", count: 32) + String(repeating: "]", count: 32) + "}")
        == .invalidJSON("line 1, column 38: nesting deeper than 32 levels"))
    #expect(decodeError(edited("sequence", to: "03")) == .invalidJSON("line 11, column 16: leading zeros are not allowed in numbers"))
    #expect(decodeError(edited("send_time", to: "9223372036854775808")) == .wrongType(field: "send_time", expected: "an integer"))
    #expect(decodeError(edited("sender_id", to: "\"\\uDE00\"")) == .invalidJSON("line 10, column 18: lone low surrogate \\uDE00"))
    #expect(decodeError(edited("sender_id", to: "{\"x\": [true]}")) == .wrongType(field: "sender_id", expected: "a string"))
    #expect(decodeError("{\"a\":1,\"a\":2}")?.description == "not a Grouper message: line 1, column 8: duplicate key \"a\"")
}
