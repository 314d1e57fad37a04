/// The field operations Reed–Solomon decoding needs, on elements stored as `Int`.
///
/// Two fields: GF(2^8) for `gf256` shares and integers mod 257 for `csss257`. The
/// decoder is generic over this protocol so both schemes share one Berlekamp–Welch and
/// one Lagrange implementation; the bulk per-byte work stays in the schemes' own kernels.
protocol DecodingField {
    static func add(_ a: Int, _ b: Int) -> Int
    static func subtract(_ a: Int, _ b: Int) -> Int
    static func multiply(_ a: Int, _ b: Int) -> Int
    /// Inverse of a non-zero element (programmer error for 0).
    static func inverse(_ a: Int) -> Int
}

/// GF(2^8) with the AES polynomial 0x11B: addition and subtraction are XOR.
enum GF256Field: DecodingField {
    @inline(__always) static func add(_ a: Int, _ b: Int) -> Int { a ^ b }
    @inline(__always) static func subtract(_ a: Int, _ b: Int) -> Int { a ^ b }
    @inline(__always) static func multiply(_ a: Int, _ b: Int) -> Int {
        Int(GF256.multiply(UInt8(truncatingIfNeeded: a), UInt8(truncatingIfNeeded: b)))
    }
    static func inverse(_ a: Int) -> Int { Int(GF256.inverse(UInt8(truncatingIfNeeded: a))) }
}

/// Integers mod 257 (elements 0…256).
enum Mod257Field: DecodingField {
    @inline(__always) static func add(_ a: Int, _ b: Int) -> Int { (a + b) % 257 }
    @inline(__always) static func subtract(_ a: Int, _ b: Int) -> Int { (a - b + 257) % 257 }
    @inline(__always) static func multiply(_ a: Int, _ b: Int) -> Int { a * b % 257 }
    static func inverse(_ a: Int) -> Int {
        precondition(a % 257 != 0, "0 has no inverse mod 257")
        return Int(Mod257.inverse(UInt32(a)))
    }
}

/// Polynomial helpers over a `DecodingField`; coefficient arrays are lowest degree first.
enum FieldPolynomial<F: DecodingField> {
    /// `w[j] = Π_{m≠j} (t − x_m) / (x_j − x_m)`, so `f(t) = Σ w[j]·f(x_j)` for deg f < points.count.
    /// Points must be distinct. O(count²) multiplications and count inversions.
    static func lagrangeWeights(points xs: [Int], at t: Int) -> [Int] {
        xs.indices.map { j in
            var num = 1, den = 1
            for m in xs.indices where m != j {
                num = F.multiply(num, F.subtract(t, xs[m]))
                den = F.multiply(den, F.subtract(xs[j], xs[m]))
            }
            return F.multiply(num, F.inverse(den))
        }
    }

    /// Horner evaluation of `coefficients` at x.
    static func evaluate(_ coefficients: [Int], at x: Int) -> Int {
        var acc = 0
        for c in coefficients.reversed() { acc = F.add(F.multiply(acc, x), c) }
        return acc
    }

    /// Quotient and remainder of `dividend / divisor`; the divisor must be monic.
    static func divide(_ dividend: [Int], byMonic divisor: [Int]) -> (quotient: [Int], remainder: [Int]) {
        let d = divisor.count - 1
        precondition(d >= 0 && divisor[d] == 1, "divisor must be monic")
        var rem = dividend
        if rem.count <= d { return ([], rem) }
        var quotient = [Int](repeating: 0, count: rem.count - d)
        for i in stride(from: rem.count - 1, through: d, by: -1) {
            let q = rem[i]
            quotient[i - d] = q
            if q == 0 { continue }
            for j in 0...d { rem[i - d + j] = F.subtract(rem[i - d + j], F.multiply(q, divisor[j])) }
        }
        return (quotient, Array(rem.prefix(d)))
    }
}
