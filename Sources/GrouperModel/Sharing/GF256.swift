/// Arithmetic in GF(2^8) modulo the AES polynomial x^8 + x^4 + x^3 + x + 1 (0x11B).
///
/// Addition is XOR. Multiplication and inversion use log/exp tables over the
/// generator 0x03; the tables are immutable and built once per process.
public enum GF256 {
    /// The reduction polynomial (with the x^8 term).
    public static let polynomial: Int = 0x11B

    /// `exp[i] = 3^i`, doubled to 510 entries so `exp[log a + log b]` needs no modulo.
    @usableFromInline static let exp: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 512)
        var v: Int = 1
        for i in 0..<255 {
            table[i] = UInt8(v); table[i + 255] = UInt8(v)
            // v *= 3  ==  v ^ xtime(v)
            var t = v << 1
            if t & 0x100 != 0 { t ^= polynomial }
            v ^= t
        }
        return table
    }()

    /// `log[a]` for a ≠ 0; `log[0]` is 0 (joins rely on that to skip m = j without a branch).
    @usableFromInline static let log: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        for i in 0..<255 { table[Int(exp[i])] = i }
        return table
    }()

    /// Product in GF(2^8).
    @inlinable public static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        if a == 0 || b == 0 { return 0 }
        return exp[log[Int(a)] + log[Int(b)]]
    }

    /// Multiplicative inverse; `a` must be non-zero (programmer error otherwise).
    @inlinable public static func inverse(_ a: UInt8) -> UInt8 {
        precondition(a != 0, "0 has no inverse in GF(256)")
        return exp[255 - log[Int(a)]]
    }

    /// `a / b`; `b` must be non-zero.
    @inlinable public static func divide(_ a: UInt8, _ b: UInt8) -> UInt8 {
        precondition(b != 0, "division by 0 in GF(256)")
        if a == 0 { return 0 }
        return exp[log[Int(a)] + 255 - log[Int(b)]]
    }

    /// Bit-by-bit multiplication (Russian peasant), independent of the tables:
    /// the reference the tables are tested against.
    public static func multiplySlow(_ a: UInt8, _ b: UInt8) -> UInt8 {
        var a = a, b = b, p: UInt8 = 0
        while b != 0 {
            if b & 1 != 0 { p ^= a }
            let carry = a & 0x80 != 0
            a <<= 1
            if carry { a ^= 0x1B }
            b >>= 1
        }
        return p
    }
}
