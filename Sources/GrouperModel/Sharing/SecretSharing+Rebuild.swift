/// How a receiver turns collected shares into a message (docs/adversaries.md).
public enum RebuildPolicy: String, CaseIterable, Sendable {
    /// Join the shares as they come (the thesis's receiver): one bad share gives garbage.
    case firstK = "first-k"
    /// Accept only when every share (at least k + 1) lies on one polynomial of degree k − 1.
    case check
    /// Reed–Solomon decoding: accept after correcting up to ⌊(m − k)/2⌋ bad shares of m.
    case correct

    /// Fewest shares a rebuild waits for: `check` and `correct` need one beyond k to see anything.
    public func minimumShares(k: Int) -> Int { self == .firstK ? k : k + 1 }
}

/// What a rebuild under a policy produced.
public struct Rebuild: Equatable, Sendable {
    /// The secret, or nil when the shares disagree (`check`) or are beyond correction (`correct`).
    public var secret: [UInt8]?
    /// Every share given lay on one polynomial (always true for `first-k`, which does not look).
    public var consistent: Bool
    /// Indices of the shares `correct` decoded around (sorted); empty otherwise.
    public var badShares: [Int]
    public var work: SharingWork
}

extension SecretSharingScheme {
    /// Rebuilds under `policy`. `first-k` is exactly `join`. `check` and `correct` use every
    /// share given (at least `policy.minimumShares(k:)`, else `notEnoughShares`); malformed
    /// shares still throw.
    public func rebuild(_ shares: [[UInt8]], k: Int, policy: RebuildPolicy) throws(SharingError) -> Rebuild {
        if policy == .firstK {
            let (secret, work) = try join(shares, k: k)
            return Rebuild(secret: secret, consistent: true, badShares: [], work: work)
        }
        let needed = policy.minimumShares(k: k)
        let outcome: ShareDecoder.Outcome
        switch kind {
        case .gf256:
            try GF256Sharing.validateJoin(shares, k: k)
            if shares.count < needed { throw .notEnoughShares(needed: needed, got: shares.count) }
            outcome = Self.decode(GF256Columns(shares), k: k, policy: policy)
        case .csss257:
            let xs = try CSSS257Text.checkHeaders(shares, k: k)
            if shares.count < needed { throw .notEnoughShares(needed: needed, got: shares.count) }
            outcome = Self.decode(try CSSS257Columns(shares, xs: xs), k: k, policy: policy)
        }
        let length = shareLength(secretLength: 1) - shareLength(secretLength: 0)
        let secretLength = (shares[0].count - shareLength(secretLength: 0)) / length
        let work = SharingWork(fieldMultiplyAdds: k * secretLength + outcome.multiplyAdds, randomBytes: 0,
                               bytesIn: shares.reduce(0) { $0 + $1.count }, bytesOut: outcome.secret?.count ?? 0)
        return Rebuild(secret: outcome.secret, consistent: outcome.consistent, badShares: outcome.badShares, work: work)
    }

    private static func decode<C: ShareColumns>(_ c: C, k: Int, policy: RebuildPolicy) -> ShareDecoder.Outcome {
        policy == .check ? ShareDecoder.check(c, k: k) : ShareDecoder.correct(c, k: k)
    }
}

extension SharingSchemeKind {
    /// `share` with symbol `position` (0-based secret byte) shifted by `delta` (1…255): XOR
    /// for `gf256`, `+ delta mod 257` for `csss257` (still well-formed text). The result is
    /// always a different, valid share; how tampering servers and tests corrupt shares.
    public func altered(_ share: [UInt8], symbol position: Int, delta: Int) -> [UInt8] {
        altered(share, symbols: position..<(position + 1), delta: delta)
    }

    /// `share` with every symbol in `positions` shifted by `delta` (1…255).
    public func altered(_ share: [UInt8], symbols positions: Range<Int>, delta: Int) -> [UInt8] {
        precondition((1...255).contains(delta), "delta must be in 1...255")
        var out = share
        for position in positions {
            switch self {
            case .gf256:
                out[1 + position] ^= UInt8(delta)
            case .csss257:
                let at = 6 + 2 * position
                let v = (Int(CSSS257Text.digitValue[Int(out[at])]) << 4 | Int(CSSS257Text.digitValue[Int(out[at + 1])])) % 257
                var text: [UInt8] = []
                CSSS257Text.appendValue(UInt16((v + delta) % 257), to: &text)
                out[at] = text[0]; out[at + 1] = text[1]
            }
        }
        return out
    }

    /// Number of symbols (secret bytes) in a well-formed share of this kind.
    public func symbolCount(ofShare share: [UInt8]) -> Int {
        self == .gf256 ? share.count - 1 : (share.count - 6) / 2
    }
}
