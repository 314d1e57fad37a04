import Testing
@testable import GrouperModel
import SimKernel

/// The seam between the C vector kernel (Sources/GrouperModel/Sharing/Vector, AVX2 nibble tables) and the
/// Swift kernels: on random inputs both give the bytes of plain table multiplication, for
/// every length around the 32- and 16-byte blocks and for k up to 255.
@Suite("GF(2^8) vector kernel")
struct GF256VectorTests {
    static func expected(_ inputs: [[UInt8]], _ weights: [UInt8], outputs: Int, length: Int) -> [UInt8] {
        let k = inputs.count
        var out: [UInt8] = []
        for i in 0..<outputs { out += GF256Vector.weightedSum(inputs, weights: Array(weights[i * k..<(i + 1) * k]), length: length) }
        return out
    }

    /// `(vector, portable)` results of `sums` on the same inputs.
    static func both(_ inputs: [[UInt8]], _ weights: [UInt8], outputs: Int, length: Int) -> ([UInt8], [UInt8]) {
        GF256Kernel.withPointers(to: inputs, count: inputs.count, offset: 0) { p in
            weights.withUnsafeBufferPointer { w in
                let vector = [UInt8](unsafeUninitializedCapacity: max(1, outputs * length)) { buf, n in
                    GF256Kernel.vectorSums(p, weights: w, outputCount: outputs, length: length, into: buf.baseAddress!)
                    n = outputs * length
                }
                let portable = [UInt8](unsafeUninitializedCapacity: max(1, outputs * length)) { buf, n in
                    GF256Kernel.portableSums(p, weights: w, outputCount: outputs, length: length, into: buf.baseAddress!)
                    n = outputs * length
                }
                return (vector, portable)
            }
        }
    }

    @Test(.enabled(if: GF256Kernel.vectorLevel > 0, "the CPU has no AVX2"))
    func vectorSumsMatchTheSwiftKernelsAndTheTables() {
        var rng = Xoshiro256StarStar(seed: 32)
        var cases: [(k: Int, outputs: Int, length: Int)] = [(255, 2, 70), (2, 2, 656), (3, 3, 656), (20, 11, 656)]
        for length in 0...100 { cases.append((rng.int(in: 1...6), rng.int(in: 1...4), length)) }
        for _ in 0..<sharingPropertySeeds(default: 100) { cases.append((rng.int(in: 1...40), rng.int(in: 1...12), rng.int(in: 1...700))) }
        var failures: [String] = []
        for c in cases {
            var flat = [UInt8](repeating: 0, count: c.k * c.length), weights = [UInt8](repeating: 0, count: c.outputs * c.k)
            rng.fill(&flat); rng.fill(&weights)
            if c.k > 3 { weights[0] = 0; weights[1] = 1 }      // the zero and unit weights too
            let inputs = (0..<c.k).map { Array(flat[$0 * c.length..<($0 + 1) * c.length]) }
            let want = Self.expected(inputs, weights, outputs: c.outputs, length: c.length)
            let (vector, portable) = Self.both(inputs, weights, outputs: c.outputs, length: c.length)
            if vector != want || portable != want { failures.append("k=\(c.k) outputs=\(c.outputs) L=\(c.length)") }
            if failures.count >= 3 { break }
        }
        #expect(failures.isEmpty, "\(failures)")
    }
}
