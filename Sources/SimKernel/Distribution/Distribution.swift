import Foundation

/// A probability distribution over `Double`, as plain data for scenario files.
///
/// Sampling draws only from the `Xoshiro256StarStar` it is handed, so a run's draws
/// are fixed by its seed. The JSON form (one key naming the kind, an object of named
/// parameters) is described in docs/kernel.md and `Distribution+Codable.swift`.
/// Parameters are checked by `validate()`; decoding validates too.
///
/// Sampling cost: O(1) except `discrete` (O(values), a linear scan of the weights) and
/// `truncated` (expected 1 / P(base ∈ [min, max]) base draws; validation requires that
/// probability to be ≥ 1% where it can be computed).
public indirect enum Distribution: Hashable, Sendable {
    /// Always `value`.
    case constant(Double)
    /// Uniform on [min, max) (min < max), or exactly `min` when min == max.
    case uniform(min: Double, max: Double)
    /// Exponential with the given mean (> 0): memoryless waiting times.
    case exponential(mean: Double)
    /// Normal (Gaussian); stdDev ≥ 0.
    case normal(mean: Double, stdDev: Double)
    /// exp(N(mu, sigma²)): positive, right-skewed (latencies, sizes). sigma ≥ 0.
    /// See `lognormal(mean:stdDev:)` to give the moments of the result instead.
    case lognormal(mu: Double, sigma: Double)
    /// `values[i]` with probability `weights[i] / sum(weights)` (an empirical distribution).
    case discrete(values: [Double], weights: [Double])
    /// `base` conditioned on [min, max] (either bound may be nil = open), by resampling.
    case truncated(Distribution, min: Double?, max: Double?)

    /// The lognormal whose result has the given mean (> 0) and standard deviation (≥ 0):
    /// sigma² = ln(1 + stdDev²/mean²), mu = ln(mean) − sigma²/2.
    public static func lognormal(mean: Double, stdDev: Double) -> Distribution {
        let sigma2 = Foundation.log(1 + (stdDev * stdDev) / (mean * mean))
        return .lognormal(mu: Foundation.log(mean) - sigma2 / 2, sigma: sigma2.squareRoot())
    }

    /// Equally likely observed values (bootstrap-style empirical distribution).
    public static func empirical(_ values: [Double]) -> Distribution {
        .discrete(values: values, weights: Array(repeating: 1, count: values.count))
    }

    /// Base draws tried by `truncated` before falling back to clamping the last draw.
    /// Validation keeps the acceptance probability ≥ 1%, so the fallback has
    /// probability < 1e-43 per sample; it exists so a sample can never loop forever.
    public static let truncationAttempts = 10_000

    /// One draw. Precondition: `validate()` is empty (programmer error otherwise).
    @inlinable public func sample(using rng: inout Xoshiro256StarStar) -> Double {
        switch self {
        case .constant(let v):
            return v
        case let .uniform(lo, hi):
            return lo + (hi - lo) * rng.nextDouble()
        case .exponential(let mean):
            return rng.nextExponential(mean: mean)
        case let .normal(mean, sd):
            return mean + sd * rng.nextGaussian()
        case let .lognormal(mu, sigma):
            return Foundation.exp(mu + sigma * rng.nextGaussian())
        case let .discrete(values, weights):
            return Self.sampleDiscrete(values, weights, using: &rng)
        case let .truncated(base, lo, hi):
            return Self.sampleTruncated(base, lo, hi, using: &rng)
        }
    }

    @usableFromInline static func sampleDiscrete(_ values: [Double], _ weights: [Double],
                                                 using rng: inout Xoshiro256StarStar) -> Double {
        precondition(!values.isEmpty && values.count == weights.count, "invalid discrete distribution")
        var total = 0.0
        for w in weights { total += w }
        let target = rng.nextDouble() * total
        var cumulative = 0.0
        for i in values.indices {
            cumulative += weights[i]
            if target < cumulative { return values[i] }
        }
        // Rounding can leave target == total: the last value with positive weight.
        return values[weights.lastIndex { $0 > 0 } ?? values.count - 1]
    }

    @usableFromInline static func sampleTruncated(_ base: Distribution, _ lo: Double?, _ hi: Double?,
                                                  using rng: inout Xoshiro256StarStar) -> Double {
        let lower = lo ?? -.infinity, upper = hi ?? .infinity
        var x = 0.0
        for _ in 0..<truncationAttempts {
            x = base.sample(using: &rng)
            if x >= lower && x <= upper { return x }
        }
        return Swift.min(Swift.max(x, lower), upper)
    }
}

extension Distribution {
    /// One draw read as a number of `unit`s (default: seconds), rounded to the nearest
    /// nanosecond and clamped to ≥ 0, for delays and timeouts (`{"exponential": {"mean": 0.25}}`
    /// with unit seconds is a 250 ms mean). Scenario files should say which unit a field uses.
    @inlinable public func sampleDuration(using rng: inout Xoshiro256StarStar,
                                          unit: SimDuration = .seconds(1)) -> SimDuration {
        let nanos = (sample(using: &rng) * Double(unit.nanoseconds)).rounded()
        guard nanos > 0 else { return .zero }
        return SimDuration(nanoseconds: nanos >= 9.2e18 ? Int64.max : Int64(nanos))
    }
}
