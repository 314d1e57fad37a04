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

    static let cases: [Distribution] = [
        .constant(3.5),
        .uniform(min: -2, max: 6),
        .exponential(mean: 2.5),
        .normal(mean: 10, stdDev: 3),
        .lognormal(mu: 0.5, sigma: 0.4),
        .lognormal(mean: 20, stdDev: 5),
        .discrete(values: [1, 2, 10], weights: [0.5, 0.3, 0.2]),
        .empirical([4, 8, 15, 16, 23, 42]),
    ]

    @Test(arguments: cases)
    func sampleMomentsMatch(_ d: Distribution) throws {
        #expect(d.validate().isEmpty)
        let mean = try #require(d.mean), variance = try #require(d.variance)
        let t = Self.moments(d)
        let sd = variance.squareRoot()
        // 200k draws: the sample mean is within 5 standard errors with overwhelming probability.
        #expect(abs(t.mean - mean) <= 5 * sd / 200_000.0.squareRoot() + 1e-12, "\(d): mean \(t.mean) vs \(mean)")
        #expect(abs(t.variance - variance) <= 0.03 * variance + 1e-12, "\(d): variance \(t.variance) vs \(variance)")
    }

    @Test func lognormalFromMomentsHasThoseMoments() throws {
        let d = Distribution.lognormal(mean: 20, stdDev: 5)
        #expect(abs(try #require(d.mean) - 20) < 1e-9)
        #expect(abs(try #require(d.variance) - 25) < 1e-9)
    }

    @Test func truncatedStaysInsideAndMatchesMean() throws {
        let d = Distribution.truncated(.normal(mean: 1, stdDev: 2), min: 0, max: 4)
        #expect(d.validate().isEmpty)
        var rng = Xoshiro256StarStar(seed: 9)
        var t = Tally()
        for _ in 0..<100_000 { let x = d.sample(using: &rng); #expect(x >= 0 && x <= 4); t.add(x) }
        #expect(abs(t.mean - (try #require(d.mean))) < 0.02)
        let e = Distribution.truncated(.exponential(mean: 1), min: 0.5, max: nil)
        #expect(abs(Self.moments(e).mean - 1.5) < 0.02)
        #expect(abs(try #require(e.mean) - 1.5) < 1e-12)
    }

    @Test func samplingIsDeterministicPerSeed() {
        for d in Self.cases {
            var a = Xoshiro256StarStar(seed: 77), b = Xoshiro256StarStar(seed: 77)
            let xs = (0..<100).map { _ in d.sample(using: &a) }
            let ys = (0..<100).map { _ in d.sample(using: &b) }
            #expect(xs == ys)
        }
    }

    @Test func validationNamesFieldAndAllowedRange() {
        #expect(Distribution.exponential(mean: -1).validate() == ["exponential.mean must be a finite number > 0, got -1.0"])
        #expect(Distribution.uniform(min: 3, max: 1).validate() == ["uniform.min must be ≤ max, got min 3.0 > max 1.0"])
        #expect(Distribution.normal(mean: 0, stdDev: -1).validate().first?.contains("normal.stdDev") == true)
        #expect(Distribution.discrete(values: [1, 2], weights: [1]).validate().first?.contains("one entry per value") == true)
        #expect(Distribution.discrete(values: [1], weights: [0]).validate() == ["discrete.weights must not all be 0"])
        #expect(Distribution.truncated(.exponential(mean: 0), min: 1, max: nil).validate()
                == ["truncated.base.exponential.mean must be a finite number > 0, got 0.0"])
        #expect(Distribution.truncated(.exponential(mean: 1), min: nil, max: nil).validate() == ["truncated needs min, max or both"])
        let far = Distribution.truncated(.normal(mean: 0, stdDev: 1), min: 10, max: nil).validate()
        #expect(far.count == 1 && far[0].contains("at least 0.01"))
        #expect(throws: DistributionError.self) { try Distribution.uniform(min: 1, max: 0).validated() }
    }

    static func decode(_ json: String) throws -> Distribution {
        try JSONDecoder().decode(Distribution.self, from: Data(json.utf8))
    }

    static func decodingMessage(_ json: String) -> String {
        do { _ = try decode(json); return "decoded" } catch let DecodingError.dataCorrupted(c) {
            return c.debugDescription
        } catch let DecodingError.keyNotFound(_, c) {
            return c.debugDescription
        } catch { return "\(error)" }
    }

    @Test func jsonRoundTrip() throws {
        let all = Self.cases + [.truncated(.normal(mean: 1, stdDev: 1), min: 0, max: 5),
                                .truncated(.exponential(mean: 1), min: nil, max: 3)]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for d in all {
            let data = try encoder.encode(d)
            #expect(try JSONDecoder().decode(Distribution.self, from: data) == d)
        }
        #expect(String(decoding: try encoder.encode(Distribution.exponential(mean: 2.5)), as: UTF8.self)
                == #"{"exponential":{"mean":2.5}}"#)
    }

    @Test func jsonDocumentedForms() throws {
        #expect(try Self.decode(#"{"exponential": {"mean": 2.5}}"#) == .exponential(mean: 2.5))
        #expect(try Self.decode(#"{"discrete": {"values": [1, 2]}}"#) == .discrete(values: [1, 2], weights: [1, 1]))
        #expect(try Self.decode(#"{"lognormal": {"mean": 20, "stdDev": 5}}"#) == .lognormal(mean: 20, stdDev: 5))
        #expect(try Self.decode(#"{"truncated": {"base": {"constant": {"value": 1}}, "min": 0}}"#)
                == .truncated(.constant(1), min: 0, max: nil))
    }

    @Test func jsonErrorsSayWhatIsAllowed() {
        #expect(Self.decodingMessage(#"{"expo": {"mean": 1}}"#).contains("one of: constant, uniform, exponential"))
        #expect(Self.decodingMessage(#"{"exponential": {"rate": 1}}"#) == "exponential: unknown parameter 'rate'; allowed: mean")
        #expect(Self.decodingMessage(#"{"normal": {"mean": 1}}"#).contains("normal: missing parameter 'stdDev'"))
        #expect(Self.decodingMessage(#"{"exponential": {"mean": -2}}"#) == "exponential.mean must be a finite number > 0, got -2.0")
        #expect(Self.decodingMessage(#"{"exponential": 2.5}"#).contains("parameters must be an object"))
        #expect(Self.decodingMessage(#"3"#).contains("must be an object with one key"))
        #expect(Self.decodingMessage(#"{"constant": {"value": 1}, "uniform": {"min": 0, "max": 1}}"#).contains("got constant, uniform"))
        #expect(Self.decodingMessage(#"{"lognormal": {"mu": 0, "stdDev": 1}}"#).contains("not both"))
    }
}

@Suite("Distribution durations")
struct DistributionDurationTests {
    @Test func sampleDurationScalesRoundsAndClamps() {
        var rng = Xoshiro256StarStar(seed: 1)
        #expect(Distribution.constant(0.25).sampleDuration(using: &rng) == .milliseconds(250))
        #expect(Distribution.constant(3).sampleDuration(using: &rng, unit: .milliseconds(1)) == .milliseconds(3))
        #expect(Distribution.constant(-1).sampleDuration(using: &rng) == .zero)
        #expect(Distribution.constant(1e300).sampleDuration(using: &rng).nanoseconds == Int64.max)
        var t = Tally()
        for _ in 0..<50_000 { t.add(Distribution.exponential(mean: 0.5).sampleDuration(using: &rng).seconds) }
        #expect(abs(t.mean - 0.5) < 0.02)
    }
}
