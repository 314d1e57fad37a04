/// Checks shared by both schemes; every failure is a typed `SharingError`.
enum SharingParameters {
    /// Largest n: x-coordinates are one byte and x = 0 is the secret.
    static let maxShares = 255

    /// Validates (k, n) and the secret length for a split.
    static func validateSplit(k: Int, n: Int, secretLength: Int) throws(SharingError) {
        try validateThreshold(k: k, n: n)
        if secretLength == 0 { throw .emptySecret }
    }

    /// 1 ≤ k ≤ n ≤ 255.
    static func validateThreshold(k: Int, n: Int) throws(SharingError) {
        if k < 1 { throw .invalidParameters(k: k, n: n, reason: "k must be at least 1") }
        if n > maxShares {
            throw .invalidParameters(k: k, n: n, reason: "n must be at most \(maxShares) (x is one byte, 1...255)")
        }
        if k > n { throw .invalidParameters(k: k, n: n, reason: "k must not exceed n (need 1 ≤ k ≤ n ≤ 255)") }
    }

    /// Rejects x = 0 and repeated x among `xs`, in order.
    static func validateXs(_ xs: [Int]) throws(SharingError) {
        var seen = [Bool](repeating: false, count: 256)
        for x in xs {
            if x == 0 { throw .zeroX }
            if seen[x] { throw .duplicateX(x) }
            seen[x] = true
        }
    }
}

extension SharingError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .invalidParameters(k, n, reason): return "invalid sharing parameters k=\(k), n=\(n): \(reason)"
        case .emptySecret: return "cannot share an empty secret (need at least 1 byte)"
        case let .notEnoughShares(needed, got): return "need at least \(needed) shares to join, got \(got)"
        case let .duplicateX(x): return "two shares carry the same x = \(x); each share needs a distinct x in 1...255"
        case .zeroX: return "a share carries x = 0, which would be the secret itself; x must be in 1...255"
        case let .inconsistentShares(why): return "shares do not belong together: \(why)"
        case let .malformedShare(index, reason): return "share #\(index) is malformed: \(reason)"
        }
    }
}

extension SharingSchemeKind {
    /// The scheme implementing this kind.
    public func makeScheme() -> any SecretSharingScheme {
        switch self {
        case .gf256: return GF256Sharing()
        case .csss257: return CSSS257Sharing()
        }
    }
}
