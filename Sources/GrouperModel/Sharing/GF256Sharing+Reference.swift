import SimKernel

/// Plain, obviously-correct versions of the gf256 algorithms; tests compare the fast
/// paths with these on random inputs. Same RNG consumption as the fast split.
extension GF256Sharing {
    /// Same output as `split` (after validation), with table multiplications and O(k²) weights per share.
    static func referenceSplit(_ secret: [UInt8], k: Int, n: Int, rng: inout Xoshiro256StarStar) -> [[UInt8]] {
        var points: [UInt8] = [0]
        var values: [[UInt8]] = [secret]
        var shares: [[UInt8]] = []
        for x in 1..<k {
            var random = [UInt8](repeating: 0, count: secret.count)
            rng.fill(&random)
            points.append(UInt8(x)); values.append(random)
            shares.append([UInt8(x)] + random)
        }
        for x in k...n {
            let w = GF256Lagrange.weights(at: UInt8(x), points: points)
            shares.append([UInt8(x)] + GF256Vector.weightedSum(values, weights: w, length: secret.count))
        }
        return shares
    }

    /// Same output as `join` on valid input.
    static func referenceJoin(_ shares: [[UInt8]], k: Int) -> [UInt8] {
        let used = Array(shares.prefix(k))
        let w = GF256Lagrange.weights(at: 0, points: used.map { $0[0] })
        return GF256Vector.weightedSum(used.map { Array($0.dropFirst()) }, weights: w, length: used[0].count - 1)
    }
}

/// Vector operations over GF(2^8).
enum GF256Vector {
    /// `Σ_j weights[j] · inputs[j]`, each input at least `length` bytes. Reference version.
    static func weightedSum(_ inputs: [[UInt8]], weights: [UInt8], length: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: length)
        for (j, input) in inputs.enumerated() {
            let w = weights[j]
            if w == 0 { continue }
            for i in 0..<length { out[i] ^= GF256.multiply(w, input[i]) }
        }
        return out
    }
}
