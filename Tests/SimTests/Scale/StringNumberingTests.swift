import Testing
import SimKernel
@testable import GrouperModel

/// `StringNumbering` (dense numbers for strings in order of first sight, without `Hasher`)
/// against the dictionary it replaces: random look-ups and first sightings of message ids,
/// node names, strings that share long prefixes or differ only in their last byte, the empty
/// string, non-ASCII strings and equal strings built separately (other storage), through
/// several growths of the table.
@Suite struct StringNumberingTests {
    /// Canonically equivalent pairs: `String` equality says equal, the bytes differ.
    static let equivalent = ["e\u{301}", "\u{E9}", "\u{212A}", "K", "\u{212B}", "\u{C5}", "A\u{30A}"]

    static func string(_ rng: inout Xoshiro256StarStar, ascii: Bool = false) -> String {
        if !ascii && rng.next() % 10 == 0 { return equivalent[Int(rng.next() % UInt64(equivalent.count))] }
        switch rng.next() % 6 {
        case 0: return MessageIDGenerator.make(using: &rng)                   // fresh message ids
        case 1: return "device-\(rng.next() % 40)"                            // small strings, few
        case 2: return String(repeating: "p", count: 40) + String(rng.next() % 300)   // long shared prefix
        case 3: return rng.next() % 8 == 0 || ascii ? "" : "é€😀-\(rng.next() % 20)"    // empty, non-ASCII
        case 4: return String(repeating: "ab", count: Int(rng.next() % 12)) + "\u{0}"   // lengths 1…23
        default: return ["obj", String(rng.next() % 500)].joined(separator: "-")      // built, not literal
        }
    }

    @Test func numbersAreTheDictionarysNumbers() {
        var rng = Xoshiro256StarStar(seed: 41)
        var table = StringNumbering(), reference: [String: Int32] = [:], order: [String] = []
        for step in 0..<40_000 {   // ASCII only (the table), then any string (the dictionary from the first non-ASCII)
            let s = Self.string(&rng, ascii: step < 30_000)
            if rng.next() % 3 == 0 {
                #expect(table.number(ifKnown: s) == reference[s], "step \(step): \(s.debugDescription)")
            } else {
                let want = reference[s] ?? Int32(reference.count)
                if reference[s] == nil { reference[s] = want; order.append(s) }
                #expect(table.number(of: s) == want, "step \(step): \(s.debugDescription)")
            }
        }
        #expect(table.count == reference.count && table.strings == order && table.count > 5_000)
        // Equal strings with other storage find the same number.
        for (s, n) in reference.prefix(200) { #expect(table.number(ifKnown: String(decoding: Array(s.utf8), as: UTF8.self)) == n) }
    }

    /// Before any non-ASCII string is numbered, one asked is found by `String` equality
    /// among the ASCII ones ("\u{212A}" is "K"); numbering one turns the table into a
    /// dictionary with the same numbers.
    @Test func nonASCIIStringsAreComparedAsStrings() {
        var table = StringNumbering()
        #expect(table.number(of: "K") == 0 && table.number(of: "x") == 1)
        #expect(table.number(ifKnown: "\u{212A}") == 0 && table.number(ifKnown: "\u{E9}") == nil)
        #expect(table.number(of: "\u{212A}") == 0 && table.number(of: "e\u{301}") == 2 && table.number(of: "\u{E9}") == 2)
        #expect(table.number(of: "x") == 1 && table.number(ifKnown: "K") == 0 && table.number(of: "y") == 3)
        #expect(table.strings == ["K", "x", "e\u{301}", "y"])
    }

    /// The hash reads every byte: strings that differ in one byte anywhere, or only in length
    /// (a trailing zero byte), hash apart.
    @Test func hashReadsEveryByte() {
        let base = Array("0123456789ABCDEF0123456789ABCDEF-xyz".utf8)
        let h = base.withUnsafeBytes { StringNumbering.hash($0) }
        for i in base.indices {
            var other = base
            other[i] ^= 1
            #expect(other.withUnsafeBytes { StringNumbering.hash($0) } != h, "byte \(i)")
        }
        #expect((base + [0]).withUnsafeBytes { StringNumbering.hash($0) } != h)
        #expect(StringNumbering.hash("abc") == Array("abc".utf8).withUnsafeBytes { StringNumbering.hash($0) })
    }

    /// The one-pass `asciiHash` against its plain definition (`hash` if no byte has its high
    /// bit set, else nil): every length up to 40, random ASCII bytes, and one byte ≥ 0x80 at
    /// each position in turn.
    @Test func asciiHashIsTheHashOfASCIIBytes() {
        var rng = Xoshiro256StarStar(seed: 7)
        func plain(_ b: [UInt8]) -> UInt64? {
            b.allSatisfy { $0 < 0x80 } ? b.withUnsafeBytes { StringNumbering.hash($0) } : nil
        }
        for n in 0...40 {
            for _ in 0..<20 {
                let ascii = (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next() % 128) }
                #expect(ascii.withUnsafeBytes { StringNumbering.asciiHash($0) } == plain(ascii), "length \(n)")
                for p in 0..<n {
                    var b = ascii
                    b[p] |= 0x80 | UInt8(truncatingIfNeeded: rng.next() % 128)
                    #expect(b.withUnsafeBytes { StringNumbering.asciiHash($0) } == nil, "length \(n), byte \(p)")
                }
            }
        }
        #expect(StringNumbering.asciiHash("0123456789ABCDEF0123456789ABCDEF-xyz") == StringNumbering.hash("0123456789ABCDEF0123456789ABCDEF-xyz"))
    }
}
