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

    /// The kernel distribution that draws the values.
    /// The largest value the distribution is bounded by, or its mean when unbounded
    /// (exponential, lognormal): what validation can hold against a limit.
    public var largestBound: Double {
        switch self {
        case .constant(let v): return v
        case .uniform(_, let b): return b
        case .exponential, .lognormal: return mean
        }
    }

    /// A gap no longer than most draws: the mean, or the median when that is smaller (a
    /// lognormal with a large sigma has a huge mean but mostly tiny draws). Event-count
    /// estimates divide by it.
    public var typicalGap: Double {
        switch self {
        case .lognormal(let med, _): return Swift.min(med, mean)
        default: return mean
        }
    }

    public var kernel: Distribution {
        switch self {
        case .constant(let v): return .constant(v)
        case .uniform(let a, let b): return .uniform(min: a, max: b)
        case .exponential(let m): return .exponential(mean: m)
        case .lognormal(let med, let sg): return .lognormal(mu: log(med), sigma: sg)
        }
    }

    /// One draw from the run's generator (SimKernel's `Distribution`).
    public func sample(using rng: inout Xoshiro256StarStar) -> Double {
        kernel.sample(using: &rng)
    }
}
