import SimKernel

/// The one place with unsafe pointers for GF(2^8) vectors (audited: every access is
/// within `length` bytes of a buffer the caller sized to at least `length`).
///
/// `weightedSum` computes `Σ_j w_j · v_j` by Horner over the *bits* of the weights:
/// `acc = 2·acc ⊕ (⊕_{j : bit t of w_j} v_j)` for t = 7…0, on 128, 32 and 16 bytes at a
/// time (`GF256Block`). Cost per block: 7 doublings + popcount(w) XORs per input, no table
/// lookups.
enum GF256Kernel {
    /// `out[0..<length] = Σ_j weights[j] · inputs[j][0..<length]`: the vector kernel where the
    /// CPU has one (`GF256Kernel+Vector.swift`), else `portableWeightedSum`.
    static func weightedSum(_ inputs: UnsafeBufferPointer<UnsafePointer<UInt8>>, weights: UnsafeBufferPointer<UInt8>,
                            length: Int, into out: UnsafeMutablePointer<UInt8>) {
        // k = 1 (every share is the secret): a copy, without the block machinery.
        if inputs.count == 1 && weights[0] == 1 { out.update(from: inputs[0], count: length); return }
        if usesVector { vectorSums(inputs, weights: weights, outputCount: 1, length: length, into: out); return }
        portableWeightedSum(inputs, weights: weights, length: length, into: out)
    }

    /// `weightedSum` in Swift (any CPU).
    static func portableWeightedSum(_ inputs: UnsafeBufferPointer<UnsafePointer<UInt8>>, weights: UnsafeBufferPointer<UInt8>,
                                    length: Int, into out: UnsafeMutablePointer<UInt8>) {
        if inputs.count == 1 && weights[0] == 1 { out.update(from: inputs[0], count: length); return }
        withUnsafeTemporaryAllocation(of: UnsafePointer<UInt8>.self, capacity: 8 * max(inputs.count, 1)) { bitInputs in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 9) { starts in
                // Inputs grouped by weight bit: bitInputs[starts[t]..<starts[t+1]] have bit t set.
                var count = 0
                for t in 0..<8 {
                    starts[t] = count
                    for j in 0..<inputs.count where weights[j] >> t & 1 == 1 { bitInputs[count] = inputs[j]; count += 1 }
                }
                starts[8] = count
                var offset = 0
                offset = sumLanes(Block128.self, bitInputs, starts: starts, from: offset, length: length, into: out)
                offset = sumLanes(Block32.self, bitInputs, starts: starts, from: offset, length: length, into: out)
                offset = sumLanes(Block16.self, bitInputs, starts: starts, from: offset, length: length, into: out)
                for b in offset..<length {
                    var v: UInt8 = 0
                    for j in 0..<inputs.count { v ^= GF256.multiply(weights[j], inputs[j][b]) }
                    out[b] = v
                }
            }
        }
    }

    /// The SIMD part of `weightedSum` for whole chunks of `V` from `offset`; returns the
    /// offset after the last whole chunk.
    @inline(__always)
    private static func sumLanes<V: GF256Block>(_: V.Type, _ bitInputs: UnsafeMutableBufferPointer<UnsafePointer<UInt8>>,
                                                starts: UnsafeMutableBufferPointer<Int>, from start: Int, length: Int,
                                                into out: UnsafeMutablePointer<UInt8>) -> Int {
        let width = V.byteCount
        var offset = start
        while offset + width <= length {
            var acc = V.zero
            // Doubling zero is zero: start at the highest weight bit any input has (a weight
            // of 1, as every k = 1 join and split uses, is then a plain copy).
            var t = 7
            while t > 0 && starts[t] == starts[t + 1] { t -= 1 }
            let top = t
            while t >= 0 {
                if t < top { acc = acc.doubled }
                var i = starts[t]
                let end = starts[t + 1]
                while i < end {
                    acc ^= V.load(bitInputs[i] + offset)
                    i += 1
                }
                t -= 1
            }
            acc.store(out + offset)
            offset += width
        }
        return offset
    }

    /// Calls `body` with base pointers (plus `offset`) of `arrays`, each pinned for the call.
    /// Only the first `count` arrays are pinned and passed.
    static func withPointers<R>(to arrays: [[UInt8]], count: Int, offset: Int,
                                _ body: (UnsafeBufferPointer<UnsafePointer<UInt8>>) -> R) -> R {
        precondition(count <= arrays.count)
        return withUnsafeTemporaryAllocation(of: UnsafePointer<UInt8>.self, capacity: max(count, 1)) { ptrs in
            func pin(_ i: Int) -> R {
                if i == count { return body(UnsafeBufferPointer(rebasing: ptrs[0..<count])) }
                return arrays[i].withUnsafeBufferPointer { buf in
                    ptrs[i] = buf.baseAddress! + offset
                    return pin(i + 1)
                }
            }
            return pin(0)
        }
    }

    /// First index below `length` where `a` and `b` differ, or nil: 8 bytes at a time, then
    /// byte by byte from the first differing word.
    static func firstDifference(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, length: Int) -> Int? {
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        var i = 0
        while i + 8 <= length
            && ra.loadUnaligned(fromByteOffset: i, as: UInt64.self) == rb.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
            i += 8
        }
        while i < length {
            if a[i] != b[i] { return i }
            i += 1
        }
        return nil
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
