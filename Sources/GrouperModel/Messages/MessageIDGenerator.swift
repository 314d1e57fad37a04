import SimKernel

/// UUID-looking message ids drawn from a seeded generator (never `UUID()`).
///
/// Format: uppercase `8-4-4-4-12` hex, version nibble 4 and RFC 4122 variant (8, 9, A or
/// B), like the ids of thesis Fig 4.5. Each id consumes exactly two `next()` draws.
public struct MessageIDGenerator: Sendable {
    public var rng: Xoshiro256StarStar

    public init(rng: Xoshiro256StarStar) { self.rng = rng }

    public init(seed: UInt64) { self.rng = Xoshiro256StarStar(seed: seed) }

    public mutating func next() -> String { Self.make(using: &rng) }

    /// One id from `rng`: the 32 nibbles of two draws, most significant first, written eight
    /// at a time straight into the string's storage (a sender makes one per update).
    /// `MessageIDTests` compares it with the nibble-by-nibble writer.
    public static func make(using rng: inout Xoshiro256StarStar) -> String {
        var hi = rng.next(), lo = rng.next()
        hi = (hi & ~0xF000) | 0x4000                                  // version 4
        lo = (lo & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000     // variant 10xx
        let d0 = hexDigits(UInt32(truncatingIfNeeded: hi >> 32)), d1 = hexDigits(UInt32(truncatingIfNeeded: hi))
        let d2 = hexDigits(UInt32(truncatingIfNeeded: lo >> 32)), d3 = hexDigits(UInt32(truncatingIfNeeded: lo))
        return String(unsafeUninitializedCapacity: 36) { out in
            let raw = UnsafeMutableRawBufferPointer(out)
            let dash = UInt8(ascii: "-")
            // 8-4-4-4-12: d0 | d1's first and last four | d2's first and last four, d3.
            raw.storeBytes(of: d0.littleEndian, toByteOffset: 0, as: UInt64.self)
            raw[8] = dash
            raw.storeBytes(of: UInt32(truncatingIfNeeded: d1).littleEndian, toByteOffset: 9, as: UInt32.self)
            raw[13] = dash
            raw.storeBytes(of: UInt32(truncatingIfNeeded: d1 >> 32).littleEndian, toByteOffset: 14, as: UInt32.self)
            raw[18] = dash
            raw.storeBytes(of: UInt32(truncatingIfNeeded: d2).littleEndian, toByteOffset: 19, as: UInt32.self)
            raw[23] = dash
            raw.storeBytes(of: UInt32(truncatingIfNeeded: d2 >> 32).littleEndian, toByteOffset: 24, as: UInt32.self)
            raw.storeBytes(of: d3.littleEndian, toByteOffset: 28, as: UInt64.self)
            return 36
        }
    }

    /// The eight uppercase hex digits of `x`, most significant first, as ASCII bytes in a
    /// word whose lowest byte is the first digit: each nibble is spread into its own byte,
    /// then `0`–`9` and `A`–`F` are added to all eight at once.
    @inline(__always) static func hexDigits(_ x: UInt32) -> UInt64 {
        var v = UInt64(x.byteSwapped)                       // byte i: digits 2i and 2i + 1
        v = (v | v << 16) & 0x0000_FFFF_0000_FFFF
        v = (v | v << 8) & 0x00FF_00FF_00FF_00FF            // 16-bit lane i: digits 2i, 2i + 1
        v = (v >> 4) & 0x000F_000F_000F_000F | (v & 0x000F_000F_000F_000F) << 8   // byte k: digit k
        let letters = ((v &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101   // 1 where digit > 9
        return v &+ 0x3030_3030_3030_3030 &+ letters &* 7
    }
}
