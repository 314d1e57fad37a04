import SimKernel

/// The c-SSS scheme the published Grouper client used (docs/sharing.md), byte-compatible.
///
/// Each secret byte s gets its own polynomial f(x) = s + c1·x + … + c(k−1)·x^(k−1) mod 257.
/// A share is ASCII text: 2 uppercase hex digits x, 2 hex digits k, the marker `AA`, then
/// 2 characters per byte: f(x) in uppercase hex, or `G0` for 256. So an L-byte secret
/// gives shares of exactly 6 + 2L characters. Joining interpolates over *all* shares given.
///
/// Coefficients mimic c-SSS: uniform in 1…255 (never 0, never 256). They are drawn
/// degree-major (all L coefficients of degree 1, then degree 2, …) from the bytes of
/// `rng.next()` (little-endian), skipping zero bytes. Because 0 and 256 are excluded,
/// k−1 shares leak a little (for k = 2 a share y at x rules out s = y and s = y + x).
public struct CSSS257Sharing: SecretSharingScheme {
    public init() {}

    public var kind: SharingSchemeKind { .csss257 }

    public func shareLength(secretLength length: Int) -> Int { 6 + 2 * length }

    public func split(_ secret: [UInt8], k: Int, n: Int, rng: inout Xoshiro256StarStar)
        throws(SharingError) -> (shares: [[UInt8]], work: SharingWork) {
        try SharingParameters.validateSplit(k: k, n: n, secretLength: secret.count)
        let (coefficients, drawn) = Self.drawCoefficients(count: (k - 1) * secret.count, rng: &rng)
        let shares = Self.shares(of: secret, k: k, n: n, coefficients: coefficients)
        let work = SharingWork(fieldMultiplyAdds: n * (k - 1) * secret.count, randomBytes: drawn,
                               bytesIn: secret.count, bytesOut: n * shareLength(secretLength: secret.count))
        return (shares, work)
    }

    /// Known-answer entry point: shares from explicit coefficients, `coefficients[d − 1][i]`
    /// being the degree-d coefficient of byte i (each in 0…255; c-SSS itself draws 1…255).
    public func split(_ secret: [UInt8], k: Int, n: Int, coefficients: [[UInt16]]) throws(SharingError) -> [[UInt8]] {
        try SharingParameters.validateSplit(k: k, n: n, secretLength: secret.count)
        guard coefficients.count == k - 1, coefficients.allSatisfy({ $0.count == secret.count }),
              coefficients.allSatisfy({ $0.allSatisfy { $0 <= 255 } }) else {
            throw .invalidParameters(k: k, n: n, reason: "need k−1 coefficient rows of \(secret.count) values in 0...255")
        }
        return Self.shares(of: secret, k: k, n: n, coefficients: coefficients.flatMap { $0 })
    }

    /// Draws `count` coefficients uniform in 1…255; returns them and the random bytes consumed.
    static func drawCoefficients(count: Int, rng: inout Xoshiro256StarStar) -> ([UInt16], Int) {
        var out = [UInt16](repeating: 0, count: count)
        var filled = 0, drawn = 0
        while filled < count {
            var word = rng.next()
            drawn += 8
            for _ in 0..<8 where filled < count {
                let b = UInt16(word & 0xFF)
                word >>= 8
                if b != 0 { out[filled] = b; filled += 1 }
            }
        }
        return (out, drawn)
    }

    /// Evaluates every byte's polynomial at x = 1…n and formats the text shares.
    /// `coefficients` is degree-major: (k−1)·L values, each in 0…255.
    static func shares(of secret: [UInt8], k: Int, n: Int, coefficients: [UInt16]) -> [[UInt8]] {
        let length = secret.count
        let wide = secret.map { UInt16($0) }
        var shares: [[UInt8]] = []
        shares.reserveCapacity(n)
        wide.withUnsafeBufferPointer { s in
            coefficients.withUnsafeBufferPointer { c in
                for x in 1...n {
                    shares.append([UInt8](unsafeUninitializedCapacity: 6 + 2 * length) { buf, initialized in
                        for (i, h) in CSSS257Text.header(x: x, k: k).enumerated() { buf[i] = h }
                        CSSS257Kernel.evaluate(x: x, k: k, secret: s.baseAddress!, coefficients: c.baseAddress ?? s.baseAddress!,
                                               length: length, into: buf.baseAddress! + 6)
                        initialized = 6 + 2 * length
                    })
                }
            }
        }
        return shares
    }

    /// Scalar reference for `shares(of:k:n:coefficients:)`.
    static func referenceShares(of secret: [UInt8], k: Int, n: Int, coefficients: [UInt16]) -> [[UInt8]] {
        let length = secret.count
        var shares: [[UInt8]] = []
        for x in 1...n {
            var text = CSSS257Text.header(x: x, k: k)
            for i in 0..<length {
                var acc: UInt32 = 0
                var d = k - 1
                while d >= 1 {
                    acc = (acc * UInt32(x) + UInt32(coefficients[(d - 1) * length + i])) % 257
                    d -= 1
                }
                acc = (acc * UInt32(x) + UInt32(secret[i])) % 257
                CSSS257Text.appendValue(UInt16(acc), to: &text)
            }
            shares.append(text)
        }
        return shares
    }

    public func join(_ shares: [[UInt8]], k: Int) throws(SharingError) -> (secret: [UInt8], work: SharingWork) {
        let xs = try CSSS257Text.checkHeaders(shares, k: k)
        let m = xs.count, length = (shares[0].count - 6) / 2
        let secret = try CSSS257Text.combine(shares, weights: Mod257.lagrangeWeightsAtZero(xs))
        // c-SSS recomputes the Lagrange basis for every byte: L·m² operations. The cost model
        // charges that (what the thesis's devices executed), not our O(m² + L·m).
        let work = SharingWork(fieldMultiplyAdds: length * m * m, randomBytes: 0,
                               bytesIn: shares.reduce(0) { $0 + $1.count }, bytesOut: length)
        return (secret, work)
    }
}
