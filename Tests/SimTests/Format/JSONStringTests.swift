import Foundation
import Testing
import SimKernel
@testable import SimJSON

@Suite("JSON string escaping") struct JSONStringTests {
    @Test func escapesOnlyWhatJSONRequires() {
        #expect(JSONString.quoted("a\"b\\c") == #""a\"b\\c""#)
        #expect(JSONString.quoted("\n\r\t\u{01}\u{1f}") == #""\n\r\t\u0001\u001f""#)
        #expect(JSONString.quoted("/é€") == "\"/é€\"")   // slash and non-ASCII written as is
    }

    /// Whatever the string, Foundation's parser reads back exactly the original.
    @Test func roundTripsThroughFoundation() throws {
        var rng = Xoshiro256StarStar(seed: 11)
        for _ in 0..<500 {
            let scalars = (0..<rng.int(in: 0...20)).compactMap { _ in
                Unicode.Scalar(UInt32(rng.nextInt(below: 3) == 0 ? rng.nextInt(below: 0x20) : rng.int(in: 0x20...0x2FF)))
            }
            let s = String(String.UnicodeScalarView(scalars))
            let data = Data(("[" + JSONString.quoted(s) + "]").utf8)
            let back = try JSONSerialization.jsonObject(with: data) as? [String]
            #expect(back == [s])
        }
    }

    /// A string of up to 300 characters (every fourth round) or 40, a quarter of them quotes,
    /// backslashes, control bytes, `/` or non-ASCII, the rest printable ASCII.
    static func escapeHeavyString(round: Int, rng: inout Xoshiro256StarStar) -> String {
        let special: [Unicode.Scalar] = ["\"", "\\", "\n", "\r", "\t", "\u{00}", "\u{1F}", "\u{7F}", "/", "é", "😀"]
        let scalars = (0..<rng.int(in: 0...(round % 4 == 0 ? 300 : 40))).map { _ -> Unicode.Scalar in
            rng.nextInt(below: 4) == 0 ? special[rng.nextInt(below: special.count)]
                : Unicode.Scalar(UInt8(rng.int(in: 0x20...0x7E)))
        }
        return String(String.UnicodeScalarView(scalars))
    }

    /// The run-copying escaper writes exactly what the byte-by-byte one writes: strings of
    /// every length with escapes at the start, the end, side by side and nowhere, appended
    /// after bytes already in the buffer.
    @Test func runsAreCopiedExactlyAsByteByByte() {
        var rng = Xoshiro256StarStar(seed: 32)
        for round in 0..<3_000 {
            let s = Self.escapeHeavyString(round: round, rng: &rng)
            var fast: [UInt8] = Array("prefix".utf8), plain = fast
            JSONString.append(s, to: &fast)
            JSONString.appendByteByByte(s, to: &plain)
            #expect(fast == plain, "round \(round): \(s.debugDescription)")
        }
    }

    /// The pointer writer (`write`) writes exactly what the byte-by-byte escaper appends,
    /// within its bound of six bytes per byte plus the quotes and nothing past what it
    /// reports: the strings above, non-ASCII and escapes at every place.
    @Test func pointerWriteEqualsByteByByte() throws {
        var rng = Xoshiro256StarStar(seed: 33)
        for round in 0..<3_000 {
            let s = Self.escapeHeavyString(round: round, rng: &rng)
            var plain: [UInt8] = []
            JSONString.appendByteByByte(s, to: &plain)
            let bound = 6 * s.utf8.count + 2
            var written = [UInt8](repeating: 0xEE, count: bound + 8)
            let count = try written.withUnsafeMutableBufferPointer { b in
                try #require(JSONString.write(s, to: b.baseAddress!)) - b.baseAddress!
            }
            #expect(count == plain.count && count <= bound, "round \(round): \(s.debugDescription)")
            #expect(Array(written[..<count]) == plain && written[count...].allSatisfy { $0 == 0xEE }, "round \(round)")
        }
    }

    /// The eight-byte test misses no byte that needs an escape, at any place in the word, and
    /// raises no alarm for a word of bytes that need none (here: one byte among seven `a`s).
    @Test func wordTestFindsEveryEscapeAndOnlyThose() {
        for b in 0...255 {
            for place in 0..<8 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 8)
                bytes[place] = UInt8(b)
                let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                #expect(JSONString.mayNeedEscape(word) == JSONString.needsEscape(UInt8(b)), "byte \(b) at \(place)")
            }
        }
        #expect(JSONString.needsEscape(0x1F) && !JSONString.needsEscape(0x20) && !JSONString.needsEscape(0x7F))
    }
}
