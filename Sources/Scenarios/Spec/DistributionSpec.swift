import Foundation
import SimKernel

/// A probability distribution over non-negative reals (seconds or bytes).
///
/// JSON: a bare number or duration string means `constant`; otherwise
/// `{"dist": "constant"|"uniform"|"exponential"|"lognormal", …}`.
public enum DistributionSpec: Equatable, Sendable {
    case constant(Double)
    case uniform(min: Double, max: Double)
    case exponential(mean: Double)
    /// exp(N(ln median, sigma²)).
    case lognormal(median: Double, sigma: Double)

    /// The mean of the distribution.
    public var mean: Double {
        switch self {
        case .constant(let v): return v
        case .uniform(let a, let b): return (a + b) / 2
        case .exponential(let m): return m
        case .lognormal(let med, let sg): return med * exp(sg * sg / 2)
        }
    }

    /// One draw using only our own generator helpers (stable across toolchains).
    public func sample(using rng: inout Xoshiro256StarStar) -> Double {
        switch self {
        case .constant(let v): return v
        case .uniform(let a, let b): return a + (b - a) * rng.nextDouble()
        case .exponential(let m): return -m * log(1 - rng.nextDouble())
        case .lognormal(let med, let sg):
            // Box–Muller; 1 − u keeps the log argument in (0, 1].
            let u1 = 1 - rng.nextDouble(), u2 = rng.nextDouble()
            let z = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
            return med * exp(sg * z)
        }
    }
}
