/// Vectorised evaluation and text formatting for csss257 (unsafe pointers audited: every
/// access is below `length` values / `6 + 2·length` bytes of buffers sized by the caller).
///
/// Works on 16 values at a time as `SIMD16<UInt16>`. Horner steps stay below 2^16:
/// acc ≤ 256, x ≤ 255, coefficient ≤ 255, so acc·x + c ≤ 65,535. Reduction mod 257 uses
/// 256 ≡ −1: v = 256·hi + lo ≡ lo − hi, plus 257 when negative, giving 0…256.
/// A digit d (0…16) prints as `48 + d + 7·((d + 6) >> 4)`: `0`…`9`, `A`…`F`, and `G` for 16,
/// so 256 prints as `G0` with no special case.
enum CSSS257Kernel {
    typealias Lane = SIMD16<UInt16>

    @inline(__always)
    static func reduce(_ v: Lane) -> Lane {
        let r = (v & 0xFF) &- (v &>> 8)
        return r &+ ((r &>> 15) &* 257)
    }

    @inline(__always)
    static func digits(_ d: Lane) -> Lane {
        d &+ 48 &+ (((d &+ 6) &>> 4) &* 7)
    }

    /// Writes share x's 2·length value characters at `out` (after the 6-byte header).
    /// `coefficients` is degree-major ((k−1)·length values), `secret` holds length values.
    static func evaluate(x: Int, k: Int, secret: UnsafePointer<UInt16>, coefficients: UnsafePointer<UInt16>,
                         length: Int, into out: UnsafeMutablePointer<UInt8>) {
        let xs = Lane(repeating: UInt16(x))
        let width = Lane.scalarCount
        var i = 0
        while i + width <= length {
            var acc: Lane
            if k == 1 {
                acc = load(secret + i)
            } else {
                acc = load(coefficients + (k - 2) * length + i)
                var d = k - 2
                while d >= 1 {
                    acc = reduce(acc &* xs &+ load(coefficients + (d - 1) * length + i))
                    d -= 1
                }
                acc = reduce(acc &* xs &+ load(secret + i))
            }
            let text = digits(acc &>> 4) | (digits(acc & 15) &<< 8)
            UnsafeMutableRawPointer(out + 2 * i).storeBytes(of: text, as: Lane.self)
            i += width
        }
        while i < length {
            var acc: UInt32 = k == 1 ? UInt32(secret[i]) : UInt32(coefficients[(k - 2) * length + i])
            if k > 1 {
                for d in stride(from: k - 2, through: 1, by: -1) {
                    acc = (acc * UInt32(x) + UInt32(coefficients[(d - 1) * length + i])) % 257
                }
                acc = (acc * UInt32(x) + UInt32(secret[i])) % 257
            }
            let hi = UInt8(acc >> 4), lo = UInt8(acc & 15)
            out[2 * i] = hi + 48 + 7 * ((hi + 6) >> 4)
            out[2 * i + 1] = lo + 48 + 7 * ((lo + 6) >> 4)
            i += 1
        }
    }

    @inline(__always)
    static func load(_ p: UnsafePointer<UInt16>) -> Lane {
        UnsafeRawPointer(p).loadUnaligned(as: Lane.self)
    }
}
