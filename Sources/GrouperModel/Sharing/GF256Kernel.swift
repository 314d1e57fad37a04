import SimKernel

/// The one place with unsafe pointers for GF(2^8) vectors (audited: every access is
/// within `length` bytes of a buffer the caller sized to at least `length`).
///
/// `weightedSum` computes `Σ_j w_j · v_j` by Horner over the *bits* of the weights:
/// `acc = 2·acc ⊕ (⊕_{j : bit t of w_j} v_j)` for t = 7…0, on 32 bytes at a time as
/// `SIMD4<UInt64>` (SWAR: `xtime` on 8 packed bytes is shift, mask and a 0x1B fix-up).
/// Cost per 32 bytes: 8 xtimes + popcount(w) XORs per input, no table lookups.
enum GF256Kernel {
    typealias Lane = SIMD4<UInt64>
    static let laneBytes = 32

    @inline(__always)
    static func xtime(_ v: Lane) -> Lane {
        let high = v & Lane(repeating: 0x8080_8080_8080_8080)
        let mask = (high &- (high &>> 7)) | high               // 0xFF in bytes whose top bit was set
        return ((v & Lane(repeating: 0x7F7F_7F7F_7F7F_7F7F)) &<< 1) ^ (mask & Lane(repeating: 0x1B1B_1B1B_1B1B_1B1B))
    }

    /// `out[0..<length] = Σ_j weights[j] · inputs[j][0..<length]`.
    static func weightedSum(_ inputs: UnsafeBufferPointer<UnsafePointer<UInt8>>, weights: UnsafeBufferPointer<UInt8>,
                            length: Int, into out: UnsafeMutablePointer<UInt8>) {
        withUnsafeTemporaryAllocation(of: UnsafePointer<UInt8>.self, capacity: 8 * max(inputs.count, 1)) { bitInputs in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 9) { starts in
                // Inputs grouped by weight bit: bitInputs[starts[t]..<starts[t+1]] have bit t set.
                var count = 0
                for t in 0..<8 {
                    starts[t] = count
                    for j in 0..<inputs.count where weights[j] >> t & 1 == 1 { bitInputs[count] = inputs[j]; count += 1 }
                }
                starts[8] = count
                sumLanes(bitInputs, starts: starts, length: length, into: out)
                for b in length / laneBytes * laneBytes..<length {
                    var v: UInt8 = 0
                    for j in 0..<inputs.count { v ^= GF256.multiply(weights[j], inputs[j][b]) }
                    out[b] = v
                }
            }
        }
    }

    /// The SIMD part of `weightedSum`: whole 32-byte lanes only.
    @inline(__always)
    private static func sumLanes(_ bitInputs: UnsafeMutableBufferPointer<UnsafePointer<UInt8>>,
                                 starts: UnsafeMutableBufferPointer<Int>, length: Int, into out: UnsafeMutablePointer<UInt8>) {
        let full = length / laneBytes * laneBytes
        var offset = 0
        while offset < full {
            var acc = Lane()
            var t = 7
            while t >= 0 {
                acc = xtime(acc)
                var i = starts[t]
                let end = starts[t + 1]
                while i < end {
                    acc ^= UnsafeRawPointer(bitInputs[i] + offset).loadUnaligned(as: Lane.self)
                    i += 1
                }
                t -= 1
            }
            UnsafeMutableRawPointer(out + offset).storeBytes(of: acc, as: Lane.self)
            offset += laneBytes
        }
    }

    /// Calls `body` with base pointers of all `arrays` (each pinned for the call), plus `offset`.
    static func withPointers<R>(to arrays: [[UInt8]], offset: Int,
                                _ body: (UnsafeBufferPointer<UnsafePointer<UInt8>>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UnsafePointer<UInt8>.self, capacity: max(arrays.count, 1)) { ptrs in
            func pin(_ i: Int) -> R {
                if i == arrays.count { return body(UnsafeBufferPointer(rebasing: ptrs[0..<arrays.count])) }
                return arrays[i].withUnsafeBufferPointer { buf in
                    ptrs[i] = buf.baseAddress! + offset
                    return pin(i + 1)
                }
            }
            return pin(0)
        }
    }

    /// Same bytes as `rng.fill` on a `count`-byte array: 8 little-endian bytes per `next()`,
    /// the unused bytes of the last word discarded.
    static func fill(_ p: UnsafeMutablePointer<UInt8>, count: Int, rng: inout Xoshiro256StarStar) {
        let raw = UnsafeMutableRawPointer(p)
        var i = 0
        while i + 8 <= count {
            raw.storeBytes(of: rng.next().littleEndian, toByteOffset: i, as: UInt64.self)
            i += 8
        }
        if i < count {
            var v = rng.next()
            while i < count { p[i] = UInt8(truncatingIfNeeded: v); v >>= 8; i += 1 }
        }
    }
}
