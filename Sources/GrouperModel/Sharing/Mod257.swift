/// Arithmetic mod 257.
enum Mod257 {
    static func power(_ a: UInt32, _ e: Int) -> UInt32 {
        var result: UInt32 = 1, base = a % 257, e = e
        while e > 0 {
            if e & 1 == 1 { result = result * base % 257 }
            base = base * base % 257
            e >>= 1
        }
        return result
    }

    /// Inverse of a non-zero residue (Fermat).
    static func inverse(_ a: UInt32) -> UInt32 { power(a, 255) }

    /// `w[j] = Π_{m≠j} x_m / (x_m − x_j) mod 257`; xs distinct, in 1…255.
    static func lagrangeWeightsAtZero(_ xs: [Int]) -> [UInt32] {
        xs.indices.map { j in
            var num: UInt32 = 1, den: UInt32 = 1
            for m in xs.indices where m != j {
                num = num * UInt32(xs[m]) % 257
                den = den * UInt32((xs[m] - xs[j] + 257) % 257) % 257
            }
            return num * inverse(den) % 257
        }
    }
}
