/// SplitMix64 (Steele, Lea, Flood 2014). Used only to expand seeds.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64
    @inlinable public init(seed: UInt64) { state = seed }
    @inlinable public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// xoshiro256** 1.0 (Blackman, Vigna 2018): the simulator's only source of randomness.
///
/// Seeded through SplitMix64 so any 64-bit seed (including 0) gives a valid state.
/// Value type: copying a generator forks the stream; pass it `inout`.
public struct Xoshiro256StarStar: RandomNumberGenerator, Sendable, Hashable {
    public var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

    @inlinable public init(seed: UInt64) {
        var sm = SplitMix64(seed: seed)
        s0 = sm.next(); s1 = sm.next(); s2 = sm.next(); s3 = sm.next()
    }

    /// Raw state; must not be all zero.
    @inlinable public init(state: (UInt64, UInt64, UInt64, UInt64)) {
        precondition(state != (0, 0, 0, 0), "xoshiro256** state must not be all zero")
        (s0, s1, s2, s3) = state
    }

    @inlinable @inline(__always)
    static func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 &- k)) }

    @inlinable @inline(__always)
    public mutating func next() -> UInt64 {
        let result = Self.rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = Self.rotl(s3, 45)
        return result
    }
}

extension Xoshiro256StarStar {
    /// Uniform integer in `0..<bound` without modulo bias (Lemire 2019).
    @inlinable public mutating func nextInt(below bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        let b = UInt64(bound)
        var m = next().multipliedFullWidth(by: b)
        if m.low < b {
            let threshold = (0 &- b) % b
            while m.low < threshold { m = next().multipliedFullWidth(by: b) }
        }
        return Int(m.high)
    }

    /// Uniform integer in a closed range, unbiased.
    @inlinable public mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(bitPattern: Int64(range.upperBound &- range.lowerBound))
        if span == UInt64.max { return Int(Int64(bitPattern: next())) }
        return range.lowerBound &+ nextInt(below: Int(span &+ 1))
    }

    /// Uniform double in [0, 1) with 53 random bits.
    @inlinable public mutating func nextDouble() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// True with probability `p` (clamped to [0, 1]).
    @inlinable public mutating func chance(_ p: Double) -> Bool {
        if p <= 0 { return false }
        if p >= 1 { return true }
        return nextDouble() < p
    }

    /// Fisher–Yates shuffle using our own unbiased ranges (stable across toolchains).
    @inlinable public mutating func shuffle<T>(_ array: inout [T]) {
        var i = array.count
        while i > 1 {
            let j = nextInt(below: i)
            i -= 1
            array.swapAt(i, j)
        }
    }

    /// Fills a byte array with random bytes, 8 at a time.
    @inlinable public mutating func fill(_ bytes: inout [UInt8]) {
        let count = bytes.count
        bytes.withUnsafeMutableBytes { raw in
            var i = 0
            while i + 8 <= count {
                raw.storeBytes(of: next().littleEndian, toByteOffset: i, as: UInt64.self)
                i += 8
            }
            if i < count {
                var v = next()
                while i < count { raw[i] = UInt8(truncatingIfNeeded: v); v >>= 8; i += 1 }
            }
        }
    }
}

/// Derives independent, named child streams from one root seed.
///
/// A child's seed depends only on (root seed, stable name), so adding a component
/// never shifts another component's draws. The name hash is FNV-1a 64 over UTF-8,
/// which is fixed forever (unlike `Hasher`, which is seeded per process).
public struct RandomStreams: Sendable, Hashable {
    public let rootSeed: UInt64
    public init(rootSeed: UInt64) { self.rootSeed = rootSeed }

    public func stream(named name: String) -> Xoshiro256StarStar {
        Xoshiro256StarStar(seed: childSeed(named: name))
    }

    public func childSeed(named name: String) -> UInt64 {
        var mix = SplitMix64(seed: rootSeed ^ StableHash.fnv1a64(name))
        _ = mix.next()
        return mix.next()
    }
}

/// Hashes that never change across processes, machines or toolchains.
public enum StableHash {
    /// A 64-bit value as 16 lowercase hex digits: the one hex form of fingerprints, digests and ids.
    public static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    public static func fnv1a64(_ s: String) -> UInt64 { fnv1a64(bytes: Array(s.utf8)) }
    public static func fnv1a64<C: Sequence>(bytes: C, seed: UInt64 = 0xCBF2_9CE4_8422_2325) -> UInt64
    where C.Element == UInt8 {
        var h = seed
        for b in bytes { h ^= UInt64(b); h = h &* 0x0000_0100_0000_01B3 }
        return h
    }
}
