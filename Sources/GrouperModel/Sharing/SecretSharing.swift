import SimKernel

/// Which secret-sharing scheme splits messages (docs/sharing.md).
public enum SharingSchemeKind: String, CaseIterable, Sendable {
    /// Shamir over GF(2^8), polynomial 0x11B, binary shares (x byte + L bytes).
    case gf256
    /// Byte-compatible with the c-SSS library: mod 257, text shares of 6 + 2L characters.
    case csss257
}

/// Work done by one split or join, for the device cost model.
public struct SharingWork: Equatable, Sendable {
    /// Field multiply-adds (GF(256) or mod-257), including coefficient evaluation.
    public var fieldMultiplyAdds: Int
    /// Random bytes drawn for coefficients.
    public var randomBytes: Int
    public var bytesIn: Int
    public var bytesOut: Int
    public init(fieldMultiplyAdds: Int = 0, randomBytes: Int = 0, bytesIn: Int = 0, bytesOut: Int = 0) {
        self.fieldMultiplyAdds = fieldMultiplyAdds; self.randomBytes = randomBytes
        self.bytesIn = bytesIn; self.bytesOut = bytesOut
    }
    public static func + (a: SharingWork, b: SharingWork) -> SharingWork {
        SharingWork(fieldMultiplyAdds: a.fieldMultiplyAdds + b.fieldMultiplyAdds,
                    randomBytes: a.randomBytes + b.randomBytes,
                    bytesIn: a.bytesIn + b.bytesIn, bytesOut: a.bytesOut + b.bytesOut)
    }
}

/// Typed failures of split and join; never a crash.
public enum SharingError: Error, Equatable, Sendable {
    case invalidParameters(k: Int, n: Int, reason: String)
    case emptySecret
    case notEnoughShares(needed: Int, got: Int)
    case duplicateX(Int)
    case zeroX
    case inconsistentShares(String)
    case malformedShare(index: Int, reason: String)
}

/// A Shamir secret-sharing scheme running on real bytes.
///
/// Shares are byte arrays (`csss257` shares are ASCII text). Coefficients come only
/// from the caller's seeded generator.
public protocol SecretSharingScheme: Sendable {
    var kind: SharingSchemeKind { get }
    /// Splits `secret` into `n` shares, share i (0-based) carrying x = i + 1.
    func split(_ secret: [UInt8], k: Int, n: Int, rng: inout Xoshiro256StarStar)
        throws(SharingError) -> (shares: [[UInt8]], work: SharingWork)
    /// Rebuilds the secret. `gf256` uses exactly k of the shares given; `csss257` uses all given.
    func join(_ shares: [[UInt8]], k: Int) throws(SharingError) -> (secret: [UInt8], work: SharingWork)
    /// Length in bytes of each share of an `length`-byte secret.
    func shareLength(secretLength length: Int) -> Int
}
