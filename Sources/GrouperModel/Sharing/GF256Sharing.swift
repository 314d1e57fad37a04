import SimKernel

/// Shamir's scheme over GF(2^8) (polynomial 0x11B): binary shares, x = 1…n.
///
/// Share layout: byte 0 is x, then L bytes (the polynomials evaluated at x, one per
/// secret byte). Joining uses the first k shares given (after checking all of them).
///
/// Split draws the *shares* at x = 1…k−1 uniformly (share 1 first, each share's L bytes
/// as by `rng.fill` on an L-byte array: 8 bytes per draw, the rest of the last draw
/// unused) and interpolates the shares at x = k…n through those points and (0, secret).
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
        var shares: [[UInt8]] = []
        shares.reserveCapacity(n)
        for x in 1..<k {
            shares.append([UInt8](unsafeUninitializedCapacity: length + 1) { buf, initialized in
                buf[0] = UInt8(x)
                GF256Kernel.fill(buf.baseAddress! + 1, count: length, rng: &rng)
                initialized = length + 1
            })
        }
        let outputs = n - k + 1
        let logDen = GF256Lagrange.logDenominators(points: (0..<k).map { UInt8($0) })
        var weights = [UInt8](repeating: 0, count: outputs * k)
        for x in k...n {
            GF256Lagrange.weights(at: UInt8(x), pointCount: k, logDenominators: logDen, into: &weights, at: (x - k) * k)
        }
        let interpolated = GF256Kernel.withPointers(to: [[0] + secret] + shares, count: k, offset: 1) { inputs in
            [UInt8](unsafeUninitializedCapacity: outputs * length) { buf, initialized in
                weights.withUnsafeBufferPointer { w in
                    if k >= 2 && outputs >= 2 && GF256Kernel.prefersMultiples(k: k, outputs: outputs) {
                        GF256Kernel.multiSumByMultiples(inputs, weights: w, outputCount: outputs, length: length,
                                                        into: buf.baseAddress!)
                    } else if k >= 2 && outputs >= 2 {
                        GF256Kernel.multiSum(inputs, weights: w, outputCount: outputs, length: length, into: buf.baseAddress!)
                    } else {
                        for i in 0..<outputs {
                            GF256Kernel.weightedSum(inputs, weights: UnsafeBufferPointer(rebasing: w[i * k..<(i + 1) * k]),
                                                    length: length, into: buf.baseAddress! + i * length)
                        }
                    }
                }
                initialized = outputs * length
            }
        }
        for x in k...n {
            shares.append([UInt8](unsafeUninitializedCapacity: length + 1) { buf, initialized in
                buf[0] = UInt8(x)
                interpolated.withUnsafeBufferPointer { src in
                    (buf.baseAddress! + 1).update(from: src.baseAddress! + (x - k) * length, count: length)
                }
                initialized = length + 1
            })
        }
        let work = SharingWork(fieldMultiplyAdds: (n - k + 1) * k * length, randomBytes: (k - 1) * length,
                               bytesIn: length, bytesOut: n * (length + 1))
        return (shares, work)
    }

    public func join(_ shares: [[UInt8]], k: Int) throws(SharingError) -> (secret: [UInt8], work: SharingWork) {
        try Self.validateJoin(shares, k: k)
        let length = shares[0].count - 1
        let secret = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: k) { weights in
            GF256Lagrange.weightsAtZero(shares: shares, count: k, into: weights.baseAddress!)
            return GF256Kernel.withPointers(to: shares, count: k, offset: 1) { inputs in
                [UInt8](unsafeUninitializedCapacity: length) { buf, initialized in
                    GF256Kernel.weightedSum(inputs, weights: UnsafeBufferPointer(weights), length: length,
                                            into: buf.baseAddress!)
                    initialized = length
                }
            }
        }
        let work = SharingWork(fieldMultiplyAdds: k * length, randomBytes: 0,
                               bytesIn: k * (length + 1), bytesOut: length)
        return (secret, work)
    }

    /// Checks k, the count, lengths and x of every share given (not only the k used).
    static func validateJoin(_ shares: [[UInt8]], k: Int) throws(SharingError) {
        if k < 1 || k > SharingParameters.maxShares {
            throw .invalidParameters(k: k, n: shares.count, reason: "k must be in 1...255")
        }
        if shares.count < k { throw .notEnoughShares(needed: k, got: shares.count) }
        let shareLength = shares[0].count
        for (i, s) in shares.enumerated() {
            if s.count < 2 {
                throw .malformedShare(index: i, reason: "a gf256 share needs 1 byte x and at least 1 data byte, got \(s.count) bytes")
            }
            if s.count != shareLength {
                throw .inconsistentShares("share #\(i) has \(s.count) bytes but share #0 has \(shareLength)")
            }
        }
        var seen = SharingParameters.XSet()
        for s in shares { try seen.insert(Int(s[0])) }
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

    /// `log Π_{m≠j} (x_j − x_m)` mod 255 for each j; points distinct. O(count²) additions.
    static func logDenominators(points: [UInt8]) -> [Int] {
        points.indices.map { j in
            var sum = 0
            for m in points.indices where m != j { sum += GF256.log[Int(points[j] ^ points[m])] }
            return sum % 255
        }
    }

    /// Barycentric form of `weights(at:points:)` for points 0…count−1 and t ∉ points: O(count).
    static func weights(at t: UInt8, pointCount: Int, logDenominators: [Int], into out: inout [UInt8], at start: Int) {
        var logP = 0
        for m in 0..<pointCount { logP += GF256.log[Int(t ^ UInt8(m))] }
        for j in 0..<pointCount {
            let e = (logP - GF256.log[Int(t ^ UInt8(j))] - logDenominators[j]) % 255
            out[start + j] = GF256.exp[e < 0 ? e + 255 : e]
        }
    }

    /// Weights at 0 for the x bytes of the first `count` shares (distinct, non-zero), into
    /// `out`; log domain, O(count²) additions, no allocation.
    static func weightsAtZero(shares: [[UInt8]], count: Int, into out: UnsafeMutablePointer<UInt8>) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { xs in
            for j in 0..<count { xs[j] = shares[j][0] }
            GF256.log.withUnsafeBufferPointer { log in
                GF256.exp.withUnsafeBufferPointer { exp in
                    var logP = 0
                    for j in 0..<count { logP += log[Int(xs[j])] }
                    for j in 0..<count {
                        let xj = xs[j]
                        var logDen = 0
                        for m in 0..<count { logDen += log[Int(xj ^ xs[m])] }   // log[0] = 0 covers m = j
                        let e = (logP - log[Int(xj)] - logDen) % 255
                        out[j] = exp[e < 0 ? e + 255 : e]
                    }
                }
            }
        }
    }

    /// Weights at 0 for distinct non-zero points, in the log domain: O(count²) additions.
    static func weightsAtZero(points: [UInt8]) -> [UInt8] {
        let logDen = logDenominators(points: points)
        var logP = 0
        for x in points { logP += GF256.log[Int(x)] }
        return points.indices.map { j in
            let e = (logP - GF256.log[Int(points[j])] - logDen[j]) % 255
            return GF256.exp[e < 0 ? e + 255 : e]
        }
    }
}

