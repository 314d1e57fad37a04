import Testing
@testable import GrouperModel
import SimKernel

/// Expected shares computed independently (by hand-checked arithmetic mod 257).
@Test func csss257KnownAnswerShares() throws {
    let scheme = CSSS257Sharing()
    let a = try scheme.split([0x48, 0x69], k: 3, n: 4, coefficients: [[1, 2], [3, 255]])
    #expect(a.map { String(decoding: $0, as: UTF8.self) } == ["0103AA4C69", "0203AA5665", "0303AA665D", "0403AA7C51"])
    // 0xFF + 1·1 = 256 prints as G0.
    let b = try scheme.split([0xFF, 0x00, 0x10], k: 2, n: 3, coefficients: [[1, 128, 7]])
    #expect(b.map { String(decoding: $0, as: UTF8.self) } == ["0102AAG08017", "0202AA00G01E", "0302AA017F25"])
    #expect(try scheme.join(b, k: 2).secret == [0xFF, 0x00, 0x10])
    #expect(try scheme.join(Array(a[1...2]) + [a[0]], k: 3).secret == [0x48, 0x69])
}

@Test func csss257VectorPathMatchesScalarReference() throws {
    var rng = Xoshiro256StarStar(seed: 33)
    for _ in 0..<sharingPropertySeeds(default: 100) {
        let n = rng.int(in: 1...40), k = rng.int(in: 1...n), length = rng.int(in: 1...100)
        var secret = [UInt8](repeating: 0, count: length)
        rng.fill(&secret)
        let (coefficients, _) = CSSS257Sharing.drawCoefficients(count: (k - 1) * length, rng: &rng)
        let fast = CSSS257Sharing.shares(of: secret, k: k, n: n, coefficients: coefficients)
        #expect(fast == CSSS257Sharing.referenceShares(of: secret, k: k, n: n, coefficients: coefficients))
        #expect(coefficients.allSatisfy { (1...255).contains($0) })
    }
}

@Test func csss257AnyKOfNRebuildsExhaustiveForSmallN() throws {
    let scheme = CSSS257Sharing()
    var rng = Xoshiro256StarStar(seed: 5)
    for n in 1...6 {
        for k in 1...n {
            var secret = [UInt8](repeating: 0, count: rng.int(in: 1...40))
            rng.fill(&secret)
            let shares = try scheme.split(secret, k: k, n: n, rng: &rng).shares
            #expect(shares.allSatisfy { $0.count == 6 + 2 * secret.count })
            for mask in 1..<(1 << n) where mask.nonzeroBitCount >= k {
                let subset = (0..<n).filter { mask & (1 << $0) != 0 }.map { shares[$0] }
                #expect(try scheme.join(subset, k: k).secret == secret)
            }
        }
    }
}

/// c-SSS draws coefficients in 1…255, so one share (k = 2) rules out exactly two secrets:
/// y = s (a = 0) and y = s − x (a = 256). This pins down the documented leak.
@Test func csss257SingleShareExcludesExactlyTwoValues() throws {
    let scheme = CSSS257Sharing()
    var rng = Xoshiro256StarStar(seed: 77)
    let s = 100, x = 3
    var seen = [Bool](repeating: false, count: 257)
    for _ in 0..<4000 {
        let share = try scheme.split([UInt8(s)], k: 2, n: x, rng: &rng).shares[x - 1]
        let parsed = try CSSS257Text.parse(share, index: 0)
        seen[Int(parsed.values[0])] = true
    }
    let missing = (0..<257).filter { !seen[$0] }
    #expect(missing == [s - x, s].sorted())
}
