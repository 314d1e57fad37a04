import Testing
import Foundation
@testable import SimKernel

@Suite("Statistics")
struct StatisticsTests {
    @Test func tallyMatchesTwoPassFormulas() {
        let xs: [Double] = [2, 4, 4, 4, 5, 5, 7, 9]
        let t = Tally(xs)
        #expect(t.count == 8)
        #expect(t.mean == 5)
        #expect(abs(t.populationVariance - 4) < 1e-12)
        #expect(abs(t.variance - 32.0 / 7.0) < 1e-12)
        #expect(t.min == 2 && t.max == 9)
        #expect(abs(t.sum - 40) < 1e-12)
    }

    @Test func emptyTallyHasDocumentedValues() {
        let t = Tally()
        #expect(t.count == 0 && t.mean == 0 && t.variance == 0)
        #expect(t.min == .infinity && t.max == -.infinity)
        #expect(!t.confidenceInterval95.isDefined)
    }

    @Test func tallyIsStableWithLargeOffset() {
        // Naive sum-of-squares would lose everything here.
        let t = Tally([1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16])
        #expect(abs(t.variance - 30) < 1e-6)
    }

    @Test func mergeEqualsSequentialAdd() {
        var rng = Xoshiro256StarStar(seed: 3)
        let xs = (0..<1000).map { _ in rng.nextDouble() * 100 - 20 }
        let whole = Tally(xs)
        var left = Tally(xs[..<300]), right = Tally(xs[300...])
        left.merge(right)
        #expect(left.count == whole.count)
        #expect(abs(left.mean - whole.mean) < 1e-9)
        #expect(abs(left.variance - whole.variance) < 1e-9)
        #expect(left.min == whole.min && left.max == whole.max)
        right.merge(Tally())
        #expect(right.count == 700)
        #expect(Tally().merged(with: whole) == whole)
    }

    @Test func studentTTableAndAsymptotics() {
        // Reference values from scipy.stats.t.ppf(0.975, df).
        let reference: [(Int, Double)] = [(1, 12.706204736), (2, 4.302652730), (10, 2.228138852),
                                          (30, 2.042272456), (31, 2.039513446), (40, 2.021075390),
                                          (60, 2.000297822), (120, 1.979930405), (1000, 1.962339081)]
        for (df, t) in reference {
            #expect(abs(StudentT.quantile975(degreesOfFreedom: df) - t) < 1e-7, "df \(df)")
        }
        #expect(abs(StudentT.quantile975(degreesOfFreedom: Int.max) - 1.959963984540054) < 1e-12)
        // Monotone decreasing in df.
        var last = Double.infinity
        for df in 1...500 {
            let t = StudentT.quantile975(degreesOfFreedom: df)
            #expect(t < last); last = t
        }
    }

    @Test func confidenceIntervalKnownAnswer() {
        // mean 5, s^2 = 32/7, n = 8: half-width = t(0.975, 7) * s / sqrt(8).
        let ci = Tally([2, 4, 4, 4, 5, 5, 7, 9]).confidenceInterval95
        let expected = 2.364624252 * (32.0 / 7.0).squareRoot() / 8.0.squareRoot()
        #expect(ci.mean == 5)
        #expect(abs(ci.halfWidth - expected) < 1e-9)
        #expect(ci.contains(5) && !ci.contains(ci.upper + 1e-9))
        #expect(ci.count == 8 && ci.level == 0.95)
    }

    @Test func confidenceIntervalCoversTrueMeanAbout95Percent() {
        // 2000 experiments of 5 replications of U(0,1): coverage should be near 95%.
        var rng = Xoshiro256StarStar(seed: 11)
        var covered = 0
        for _ in 0..<2000 {
            let ci = ConfidenceInterval.studentT95((0..<5).map { _ in rng.nextDouble() })
            if ci.contains(0.5) { covered += 1 }
        }
        #expect(covered > 1860 && covered < 1940, "coverage \(covered)/2000")
    }

    @Test func timeWeightedAverage() {
        var q = TimeWeightedAverage(initialValue: 0, at: .zero)
        q.set(2, at: SimTime(nanoseconds: 1_000_000_000))   // 0 for 1 s
        q.add(2, at: SimTime(nanoseconds: 3_000_000_000))   // 2 for 2 s, then 4
        #expect(q.currentValue == 4)
        let end = SimTime(nanoseconds: 4_000_000_000)      // 4 for 1 s
        #expect(abs(q.area(upTo: end) - 8) < 1e-12)
        #expect(abs(q.average(upTo: end) - 2) < 1e-12)
        #expect(q.min == 0 && q.max == 4)
        #expect(TimeWeightedAverage(initialValue: 3).average(upTo: .zero) == 3)
    }
}
