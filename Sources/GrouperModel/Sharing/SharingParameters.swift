/// Checks shared by both schemes; every failure is a typed `SharingError`. The (k, n) rule
/// itself is `ShareThreshold`'s.
enum SharingParameters {

    /// Validates (k, n) and the secret length for a split.
    static func validateSplit(k: Int, n: Int, secretLength: Int) throws(SharingError) {
        try validateThreshold(k: k, n: n)
        if secretLength == 0 { throw .emptySecret }
    }

    /// 1 ≤ k ≤ n ≤ 255 (`ShareThreshold.sharingViolations`).
    static func validateThreshold(k: Int, n: Int) throws(SharingError) {
        if let v = ShareThreshold.sharingViolations(k: k, n: n).first { throw .invalidParameters(k: k, n: n, reason: v.message) }
    }

    /// A join's k: 1 ≤ k ≤ 255 (the shares given need not number n).
    static func validateJoinK(_ k: Int, shares: Int) throws(SharingError) {
        if let v = ShareThreshold.sharingViolations(k: k, n: ShareThreshold.maxShares).first {
            throw .invalidParameters(k: k, n: shares, reason: v.message)
        }
    }

    /// Rejects x = 0 and repeated x among `xs`, in order.
    static func validateXs(_ xs: [Int]) throws(SharingError) {
        var seen = XSet()
        for x in xs { try seen.insert(x) }
    }

    /// Set of x-coordinates 0…255 as a 256-bit bitmap (no allocation).
    struct XSet {
        var bits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

        /// Adds x (in 0…255), throwing for 0 or a repeat.
        mutating func insert(_ x: Int) throws(SharingError) {
            if x == 0 { throw .zeroX }
            let mask: UInt64 = 1 << UInt64(x & 63)
            let hit: Bool
            switch x >> 6 {
            case 0: hit = bits.0 & mask != 0; bits.0 |= mask
            case 1: hit = bits.1 & mask != 0; bits.1 |= mask
            case 2: hit = bits.2 & mask != 0; bits.2 |= mask
            default: hit = bits.3 & mask != 0; bits.3 |= mask
            }
            if hit { throw .duplicateX(x) }
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
