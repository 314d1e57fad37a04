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

    /// One id from `rng`.
    public static func make(using rng: inout Xoshiro256StarStar) -> String {
        var hi = rng.next(), lo = rng.next()
        hi = (hi & ~0xF000) | 0x4000                                  // version 4
        lo = (lo & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000     // variant 10xx
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for (i, word) in [hi, lo].enumerated() {
            for nibble in 0..<16 {
                let pos = i * 16 + nibble
                if pos == 8 || pos == 12 || pos == 16 || pos == 20 { out.append(UInt8(ascii: "-")) }
                out.append(digits[Int((word >> UInt64(60 - 4 * nibble)) & 15)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
