import Foundation

/// A probability distribution over `Double`: the kinds a scenario file can name
/// (`DistributionSpec` in Scenarios reads them and maps each to one of these).
///
/// Sampling draws only from the `Xoshiro256StarStar` it is handed, so a run's draws are
/// fixed by its seed. Every kind costs O(1) per draw. Parameters are checked by the
/// scenario reader; here they are a precondition.
public enum Distribution: Hashable, Sendable {
    /// Always `value`.
    case constant(Double)
    /// Uniform on [min, max) (min < max), or exactly `min` when min == max.
    case uniform(min: Double, max: Double)
    /// Exponential with the given mean (> 0): memoryless waiting times.
    case exponential(mean: Double)
    /// exp(N(mu, sigma²)): positive, right-skewed (latencies, sizes). sigma ≥ 0.
    case lognormal(mu: Double, sigma: Double)

    /// One draw.
    @inlinable public func sample(using rng: inout Xoshiro256StarStar) -> Double {
        switch self {
        case .constant(let v):
            return v
        case let .uniform(lo, hi):
            return lo + (hi - lo) * rng.nextDouble()
        case .exponential(let mean):
            return rng.nextExponential(mean: mean)
        case let .lognormal(mu, sigma):
            return Foundation.exp(mu + sigma * rng.nextGaussian())
        }
    }
}
