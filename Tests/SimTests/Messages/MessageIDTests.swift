import Testing
import SimKernel
@testable import GrouperModel

/// `MessageIDGenerator.make` (hex digits written into the string's storage) against the
/// nibble-by-nibble writer it replaces, on the same draws, and the generator's state after.
@Suite struct MessageIDTests {
    /// The plain writer: each of the 32 nibbles from the top, a dash before nibbles 8, 12,
    /// 16 and 20, digits from a table.
    static func plainMake(using rng: inout Xoshiro256StarStar) -> String {
        var hi = rng.next(), lo = rng.next()
        hi = (hi & ~0xF000) | 0x4000
        lo = (lo & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for (i, word) in [hi, lo].enumerated() {
            for nibble in 0..<16 {
                let pos = i * 16 + nibble
                if pos == 8 || pos == 12 || pos == 16 || pos == 20 { out.append(UInt8(ascii: "-")) }
                out.append(digits[Int((word >> UInt64(60 - 4 * nibble)) & 15)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test func idsAreThePlainWritersIDs() {
        for seed: UInt64 in [0, 1, 7, 2017, 0xDEAD_BEEF] {
            var a = Xoshiro256StarStar(seed: seed), b = a
            for _ in 0..<5_000 {
                let fast = MessageIDGenerator.make(using: &a), plain = Self.plainMake(using: &b)
                #expect(fast == plain)
                #expect(Array(fast.utf8) == Array(plain.utf8))
                if fast != plain { return }
            }
            #expect(a.next() == b.next())
        }
    }
}
