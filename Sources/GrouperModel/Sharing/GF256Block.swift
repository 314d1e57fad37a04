/// A run of bytes that the GF(2^8) kernels add (XOR) and double (multiply by x mod 0x11B)
/// lane by lane.
///
/// The base is `SIMD16<Int8>`: on x86-64 (SSE2, the default target) doubling compiles to
/// `pcmpgtb` (sign mask), `paddb` (shift left), `pand 0x1B`, `pxor`: four instructions
/// per 16 bytes, against seven for the shift-and-mask form on `UInt64` lanes. Wider
/// blocks are pairs of narrower ones (`GF256Pair`), so every size keeps that code; the
/// wide generic `SIMD64<Int8>` does not (its lane-wise shift is not vectorised).
protocol GF256Block {
    static var zero: Self { get }
    static func ^ (a: Self, b: Self) -> Self
    /// Every byte multiplied by x in GF(2^8).
    var doubled: Self { get }
    static func load(_ p: UnsafePointer<UInt8>) -> Self
    func store(_ p: UnsafeMutablePointer<UInt8>)
}

extension GF256Block {
    static var byteCount: Int { MemoryLayout<Self>.size }

    @inline(__always)
    static func ^= (a: inout Self, b: Self) { a = a ^ b }
}

extension SIMD16: GF256Block where Scalar == Int8 {
    @inline(__always)
    var doubled: SIMD16<Int8> {
        // v &>> 7 is 0xFF where the top bit is set (the byte overflows), else 0.
        (self &+ self) ^ ((self &>> 7) & SIMD16<Int8>(repeating: 0x1B))
    }

    @inline(__always)
    static func load(_ p: UnsafePointer<UInt8>) -> SIMD16<Int8> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD16<Int8>.self)
    }

    @inline(__always)
    func store(_ p: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(p).storeBytes(of: self, as: SIMD16<Int8>.self)
    }
}

/// Two blocks side by side: low bytes first.
struct GF256Pair<Half: GF256Block>: GF256Block {
    var low: Half, high: Half

    @inline(__always)
    init(low: Half, high: Half) { self.low = low; self.high = high }

    static var zero: GF256Pair { GF256Pair(low: .zero, high: .zero) }

    @inline(__always)
    static func ^ (a: GF256Pair, b: GF256Pair) -> GF256Pair {
        GF256Pair(low: a.low ^ b.low, high: a.high ^ b.high)
    }

    @inline(__always)
    var doubled: GF256Pair { GF256Pair(low: low.doubled, high: high.doubled) }

    @inline(__always)
    static func load(_ p: UnsafePointer<UInt8>) -> GF256Pair {
        GF256Pair(low: .load(p), high: .load(p + MemoryLayout<Half>.size))
    }

    @inline(__always)
    func store(_ p: UnsafeMutablePointer<UInt8>) {
        low.store(p)
        high.store(p + MemoryLayout<Half>.size)
    }
}

extension GF256Kernel {
    typealias Block16 = SIMD16<Int8>
    typealias Block32 = GF256Pair<Block16>
    typealias Block64 = GF256Pair<Block32>
    typealias Block128 = GF256Pair<Block64>
}
