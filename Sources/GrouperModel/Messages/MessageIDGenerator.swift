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

    /// One id from `rng`: the 36 bytes written straight into the string's storage, each hex
    /// digit computed (`MessageIDTests` compares it with a nibble-by-nibble writer).
    public static func make(using rng: inout Xoshiro256StarStar) -> String {
        var hi = rng.next(), lo = rng.next()
        hi = (hi & ~0xF000) | 0x4000                                  // version 4
        lo = (lo & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000     // variant 10xx
        return String(unsafeUninitializedCapacity: 36) { buffer in
            let p = buffer.baseAddress!
            @inline(__always) func hex(_ word: UInt64, _ digits: Int, to start: Int) {
                var w = word
                var k = start + digits
                while k > start {
                    k -= 1
                    let v = UInt8(truncatingIfNeeded: w & 15)
                    p[k] = v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "A") - 10 + v
                    w >>= 4
                }
            }
            hex(hi >> 32, 8, to: 0); p[8] = UInt8(ascii: "-")
            hex(hi >> 16, 4, to: 9); p[13] = UInt8(ascii: "-")
            hex(hi, 4, to: 14); p[18] = UInt8(ascii: "-")
            hex(lo >> 48, 4, to: 19); p[23] = UInt8(ascii: "-")
            hex(lo, 12, to: 24)
            return 36
        }
    }
}
