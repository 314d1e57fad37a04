import Testing
@testable import GrouperModel
import SimKernel

/// Two-sample chi-square statistic over equal-size histograms.
private func chiSquare(_ a: [Int], _ b: [Int]) -> Double {
    var stat = 0.0
    for (x, y) in zip(a, b) where x + y > 0 {
        let d = Double(x - y)
        stat += d * d / Double(x + y)
    }
    return stat
}

/// Histogram (256 bins) of a statistic of the shares at the given x values.
private func histogram(secret: UInt8, k: Int, n: Int, xs: [Int], splits: Int, seed: UInt64) throws -> [Int] {
    let scheme = GF256Sharing()
    var rng = Xoshiro256StarStar(seed: seed)
    var bins = [Int](repeating: 0, count: 256)
    let secretBytes = [UInt8](repeating: secret, count: 16)
    for _ in 0..<splits {
        let shares = try scheme.split(secretBytes, k: k, n: n, rng: &rng).shares
        for i in 1...16 {
            // One share: its byte. Two shares: high nibbles of both.
            let bin = xs.count == 1 ? Int(shares[xs[0] - 1][i])
                : Int(shares[xs[0] - 1][i] >> 4) << 4 | Int(shares[xs[1] - 1][i] >> 4)
            bins[bin] += 1
        }
    }
    return bins
}

/// k−1 interpolated shares (x > k−1, so not the raw random draws) look the same for two
/// different secrets; with k shares the same test sees the secret. 255 degrees of freedom:
/// mean 255, sd ≈ 22.6; the bound 400 is > 6 sd.
@Test func gf256KMinusOneSharesAreIndependentOfTheSecret() throws {
    let splits = 4000
    let a1 = try histogram(secret: 0x00, k: 2, n: 5, xs: [5], splits: splits, seed: 1)
    let b1 = try histogram(secret: 0xFF, k: 2, n: 5, xs: [5], splits: splits, seed: 2)
    #expect(chiSquare(a1, b1) < 400)
    let a2 = try histogram(secret: 0x00, k: 3, n: 6, xs: [5, 6], splits: splits, seed: 3)
    let b2 = try histogram(secret: 0xFF, k: 3, n: 6, xs: [5, 6], splits: splits, seed: 4)
    #expect(chiSquare(a2, b2) < 400)
    // Canary: k = 2 shares do determine the secret, and the statistic must explode.
    let a3 = try histogram(secret: 0x00, k: 2, n: 6, xs: [5, 6], splits: splits, seed: 5)
    let b3 = try histogram(secret: 0xFF, k: 2, n: 6, xs: [5, 6], splits: splits, seed: 6)
    #expect(chiSquare(a3, b3) > 1000)
}
