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
        // One scratch buffer holds every share's data bytes, share x at (x − 1)·length: the
        // random shares x = 1…k−1 first, then the interpolated x = k…n. The kernel reads
        // and writes it in place; each share array is then one copy out of it (`shareArrays`).
        let shares = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: n * length) { scratch in
            let data = scratch.baseAddress!
            for j in 0..<(k - 1) { GF256Kernel.fill(data + j * length, count: length, rng: &rng) }
            secret.withUnsafeBufferPointer { s in
                Self.interpolate(secret: s.baseAddress!, randomShares: data, k: k, n: n, length: length,
                                 into: data + (k - 1) * length)
            }
            return Self.shareArrays(data, n: n, length: length)
        }
        let work = SharingWork(fieldMultiplyAdds: (n - k + 1) * k * length, randomBytes: (k - 1) * length,
                               bytesIn: length, bytesOut: n * (length + 1))
        return (shares, work)
    }

    /// The shares x = 1…n as arrays: x, then row x − 1 of `data` (`length` bytes per row).
    /// Each array is copied from a buffer (`Array(UnsafeBufferPointer)`, whose allocation the
    /// compiler specialises) rather than built by `Array(unsafeUninitializedCapacity:)`, whose
    /// unspecialised allocation looks up the array's type on every call: that lookup was about
    /// 500 instructions per share, more than the arithmetic of a (2, 3) split.
    static func shareArrays(_ data: UnsafePointer<UInt8>, n: Int, length: Int) -> [[UInt8]] {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length + 1) { row in
            var shares: [[UInt8]] = []
            shares.reserveCapacity(n)
            for x in 1...n {
                row[0] = UInt8(x)
                (row.baseAddress! + 1).update(from: data + (x - 1) * length, count: length)
                shares.append(Array(UnsafeBufferPointer(row)))
            }
            return shares
        }
    }

    /// Writes the values at x = k…n (row-major, (n−k+1)·length bytes) of the polynomials
    /// through (0, secret) and the k−1 random shares at x = 1…k−1 (`length` bytes each,
    /// contiguous).
    static func interpolate(secret: UnsafePointer<UInt8>, randomShares: UnsafePointer<UInt8>, k: Int, n: Int,
                            length: Int, into out: UnsafeMutablePointer<UInt8>) {
        let outputs = n - k + 1
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: outputs * k) { weights in
            GF256Lagrange.weightsOverLeadingPoints(count: k, at: k...n, into: weights.baseAddress!)
            withUnsafeTemporaryAllocation(of: UnsafePointer<UInt8>.self, capacity: k) { inputs in
                inputs[0] = secret
                for j in 1..<k { inputs[j] = randomShares + (j - 1) * length }
                GF256Kernel.sums(UnsafeBufferPointer(inputs), weights: UnsafeBufferPointer(weights), outputCount: outputs,
                                 length: length, into: out)
            }
        }
    }

    public func join(_ shares: [[UInt8]], k: Int) throws(SharingError) -> (secret: [UInt8], work: SharingWork) {
        try Self.validateJoin(shares, k: k)
        let length = shares[0].count - 1
        let secret = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: k) { weights in
            GF256Lagrange.weightsAtZero(shares: shares, count: k, into: weights.baseAddress!)
            return GF256Kernel.withPointers(to: shares, count: k, offset: 1) { inputs in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { buf in
                    GF256Kernel.weightedSum(inputs, weights: UnsafeBufferPointer(weights), length: length,
                                            into: buf.baseAddress!)
                    return Array(UnsafeBufferPointer(buf))   // see `shareArrays`
                }
            }
        }
        let work = SharingWork(fieldMultiplyAdds: k * length, randomBytes: 0,
                               bytesIn: k * (length + 1), bytesOut: length)
        return (secret, work)
    }

    /// Checks k, the count, lengths and x of every share given (not only the k used).
    static func validateJoin(_ shares: [[UInt8]], k: Int) throws(SharingError) {
        try SharingParameters.validateJoinK(k, shares: shares.count)
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
