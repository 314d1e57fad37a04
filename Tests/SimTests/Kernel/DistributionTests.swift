import Testing
import Foundation
@testable import SimKernel

@Suite("Distributions")
struct DistributionTests {
    static func moments(_ d: Distribution, n: Int = 200_000, seed: UInt64 = 42) -> Tally {
        var rng = Xoshiro256StarStar(seed: seed)
        var t = Tally()
        for _ in 0..<n { t.add(d.sample(using: &rng)) }
        return t
    }

    /// Each kind with its closed-form mean and variance.
    static let cases: [(Distribution, mean: Double, variance: Double)] = [
        (.constant(3.5), 3.5, 0),
        (.uniform(min: -2, max: 6), 2, 64.0 / 12),
        (.exponential(mean: 2.5), 2.5, 6.25),
        (.lognormal(mu: 0.5, sigma: 0.4), exp(0.5 + 0.08), (exp(0.16) - 1) * exp(1 + 0.16)),
    ]

    @Test func sampleMomentsMatch() {
        for (d, mean, variance) in Self.cases {
            let t = Self.moments(d)
            let sd = variance.squareRoot()
            // 200k draws: the sample mean is within 5 standard errors with overwhelming probability.
            #expect(abs(t.mean - mean) <= 5 * sd / 200_000.0.squareRoot() + 1e-12, "\(d): mean \(t.mean) vs \(mean)")
            #expect(abs(t.variance - variance) <= 0.03 * variance + 1e-12, "\(d): variance \(t.variance) vs \(variance)")
        }
    }

    @Test func samplingIsDeterministicPerSeed() {
        for (d, _, _) in Self.cases {
            var a = Xoshiro256StarStar(seed: 77), b = Xoshiro256StarStar(seed: 77)
            let xs = (0..<100).map { _ in d.sample(using: &a) }
            let ys = (0..<100).map { _ in d.sample(using: &b) }
            #expect(xs == ys)
        }
    }
}
