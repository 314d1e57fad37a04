import SimKernel

/// Shamir's scheme over GF(2^8) (polynomial 0x11B): binary shares, x = 1…n.
///
/// Share layout: byte 0 is x, then L bytes (the polynomials evaluated at x, one per
/// secret byte). Joining uses the first k shares given (after checking all of them).
///
/// Split draws the *shares* at x = 1…k−1 uniformly (`rng.fill`, (k−1)·L bytes, share 1
/// first) and interpolates the shares at x = k…n through those points and (0, secret).
/// For a uniformly random polynomial of degree < k with f(0) = secret, the values at
/// k−1 fixed non-zero points are uniform and independent (the Vandermonde map is a
/// bijection), so the output distribution equals that of drawing coefficients; the
/// interpolation needs (n−k+1)·k vector multiply-adds instead of n·(k−1).
public struct GF256Sharing: SecretSharingScheme {
    public init() {}

    public var kind: SharingSchemeKind { .gf256 }

    public func shareLength(secretLength length: Int) -> Int { length + 1 }

    public func split(_ secret: [UInt8], k: Int, n: Int, rng: inout Xoshiro256StarStar)
        throws(SharingError) -> (shares: [[UInt8]], work: SharingWork) {
        try SharingParameters.validateSplit(k: k, n: n, secretLength: secret.count)
        let length = secret.count
        var random = [UInt8](repeating: 0, count: (k - 1) * length)
        rng.fill(&random)
        var inputs: [[UInt8]] = [secret]
        for x in 1..<k { inputs.append(Array(random[(x - 1) * length..<x * length])) }
        let points = (0..<k).map { UInt8($0) }
        var shares: [[UInt8]] = []
        shares.reserveCapacity(n)
        for x in 1..<k { shares.append([UInt8(x)] + inputs[x]) }
        for x in k...n {
            let weights = GF256Lagrange.weights(at: UInt8(x), points: points)
            shares.append([UInt8(x)] + GF256Vector.weightedSum(inputs, weights: weights, length: length))
        }
        let work = SharingWork(fieldMultiplyAdds: (n - k + 1) * k * length, randomBytes: random.count,
                               bytesIn: length, bytesOut: n * (length + 1))
        return (shares, work)
    }

    public func join(_ shares: [[UInt8]], k: Int) throws(SharingError) -> (secret: [UInt8], work: SharingWork) {
        if k < 1 || k > SharingParameters.maxShares {
            throw .invalidParameters(k: k, n: shares.count, reason: "k must be in 1...255")
        }
        if shares.count < k { throw .notEnoughShares(needed: k, got: shares.count) }
        let shareLength = shares[0].count
        for (i, s) in shares.enumerated() {
            if s.count < 2 { throw .malformedShare(index: i, reason: "a gf256 share needs 1 byte x and at least 1 data byte, got \(s.count) bytes") }
            if s.count != shareLength {
                throw .inconsistentShares("share #\(i) has \(s.count) bytes but share #0 has \(shareLength)")
            }
        }
        try SharingParameters.validateXs(shares.map { Int($0[0]) })
        let used = Array(shares.prefix(k))
        let weights = GF256Lagrange.weights(at: 0, points: used.map { $0[0] })
        let secret = GF256Vector.weightedSum(used.map { Array($0.dropFirst()) }, weights: weights, length: shareLength - 1)
        let work = SharingWork(fieldMultiplyAdds: k * (shareLength - 1), randomBytes: 0,
                               bytesIn: k * shareLength, bytesOut: shareLength - 1)
        return (secret, work)
    }
}

/// Lagrange basis weights in GF(2^8).
enum GF256Lagrange {
    /// `w[j] = Π_{m≠j} (t − x_m) / (x_j − x_m)`, so `f(t) = Σ w[j]·f(x_j)` for deg f < count.
    /// Points must be distinct. O(count²) table operations.
    static func weights(at t: UInt8, points: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: points.count)
        for j in points.indices {
            var num: UInt8 = 1, den: UInt8 = 1
            for m in points.indices where m != j {
                num = GF256.multiply(num, t ^ points[m])
                den = GF256.multiply(den, points[j] ^ points[m])
            }
            result[j] = GF256.divide(num, den)
        }
        return result
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
