import Testing
@testable import GrouperModel
import SimKernel

private func splitError(_ scheme: any SecretSharingScheme, _ secret: [UInt8], k: Int, n: Int) -> SharingError? {
    var rng = Xoshiro256StarStar(seed: 1)
    do { _ = try scheme.split(secret, k: k, n: n, rng: &rng); return nil } catch { return error }
}

private func joinError(_ scheme: any SecretSharingScheme, _ shares: [[UInt8]], k: Int) -> SharingError? {
    do { _ = try scheme.join(shares, k: k); return nil } catch { return error }
}

@Test(arguments: SharingSchemeKind.allCases)
func splitRejectsBadParameters(kind: SharingSchemeKind) {
    let scheme = kind.makeScheme()
    #expect(scheme.kind == kind)
    guard case .invalidParameters(0, 3, _)? = splitError(scheme, [1], k: 0, n: 3) else { Issue.record("k=0"); return }
    guard case .invalidParameters(4, 3, _)? = splitError(scheme, [1], k: 4, n: 3) else { Issue.record("k>n"); return }
    guard case .invalidParameters(2, 256, _)? = splitError(scheme, [1], k: 2, n: 256) else { Issue.record("n=256"); return }
    #expect(splitError(scheme, [], k: 2, n: 3) == .emptySecret)
    #expect(splitError(scheme, [1], k: 255, n: 255) == nil)
    #expect(splitError(scheme, [1], k: 1, n: 1) == nil)
}

@Test(arguments: SharingSchemeKind.allCases)
func joinRejectsBadShareSets(kind: SharingSchemeKind) throws {
    let scheme = kind.makeScheme()
    var rng = Xoshiro256StarStar(seed: 2)
    let shares = try scheme.split([1, 2, 3, 4], k: 3, n: 5, rng: &rng).shares
    let longer = try scheme.split([1, 2, 3, 4, 5], k: 3, n: 5, rng: &rng).shares
    #expect(joinError(scheme, Array(shares.prefix(2)), k: 3) == .notEnoughShares(needed: 3, got: 2))
    #expect(joinError(scheme, [shares[0], shares[1], shares[0]], k: 3) == .duplicateX(1))
    guard case .inconsistentShares? = joinError(scheme, [shares[0], shares[1], longer[2]], k: 3) else {
        Issue.record("lengths"); return
    }
    var zero = shares[2]
    if kind == .gf256 { zero[0] = 0 } else { zero[0] = UInt8(ascii: "0"); zero[1] = UInt8(ascii: "0") }
    #expect(joinError(scheme, [shares[0], shares[1], zero], k: 3) == .zeroX)
    guard case .invalidParameters? = joinError(scheme, shares, k: 0) else { Issue.record("k=0"); return }
    guard case .malformedShare(index: 1, _)? = joinError(scheme, [shares[0], [7], shares[2]], k: 3) else {
        Issue.record("short share"); return
    }
}

@Test func csss257RejectsMalformedText() throws {
    let scheme = CSSS257Sharing()
    let good = try scheme.split([9, 8], k: 2, n: 3, coefficients: [[1, 1]])
    func bad(_ text: String) -> SharingError? { joinError(scheme, [good[0], Array(text.utf8)], k: 2) }
    let cases = ["0202AB1234",   // marker
                 "0202aa1234",   // lowercase marker
                 "0202AA12x4",   // not hex
                 "0202AAG1",     // G only as G0
                 "0202AA123",    // odd length
                 "0202AA",       // no values
                 "0Z02AA1234"]   // x not hex
    for c in cases {
        guard case .malformedShare(index: 1, _)? = bad(c) else { Issue.record("accepted \(c)"); continue }
    }
    // Threshold field disagreeing with the join's k.
    guard case .inconsistentShares? = bad("0203AA1234") else { Issue.record("k mismatch"); return }
    // A byte rebuilding to 256 is reported, not truncated.
    // 2·128 − 0 = 256 at x = 0.
    guard case .inconsistentShares? = joinError(scheme, [Array("0102AA80".utf8), Array("0202AA00".utf8)], k: 2) else {
        Issue.record("256 accepted"); return
    }
}

/// Random bytes and mutated shares into both joins: a typed error or a result, never a crash.
@Test func shareDecodersSurviveRandomBytes() throws {
    var rng = Xoshiro256StarStar(seed: 404)
    var outcomes = [0, 0]
    for kind in SharingSchemeKind.allCases {
        let scheme = kind.makeScheme()
        let valid = try scheme.split(Array("fuzz me".utf8), k: 2, n: 4, rng: &rng).shares
        for _ in 0..<sharingPropertySeeds(default: 3000) {
            var shares: [[UInt8]] = []
            for i in 0..<rng.int(in: 0...4) {
                var s: [UInt8]
                if rng.chance(0.5) {
                    s = valid[i % valid.count]
                    for _ in 0..<rng.int(in: 0...3) where !s.isEmpty { s[rng.nextInt(below: s.count)] = UInt8(truncatingIfNeeded: rng.next()) }
                    if rng.chance(0.2) { s = Array(s.prefix(rng.int(in: 0...s.count))) }
                } else {
                    s = [UInt8](repeating: 0, count: rng.int(in: 0...20))
                    rng.fill(&s)
                }
                shares.append(s)
            }
            if joinError(scheme, shares, k: rng.int(in: -1...3)) == nil { outcomes[0] += 1 } else { outcomes[1] += 1 }
        }
    }
    #expect(outcomes[1] > 0)
}
