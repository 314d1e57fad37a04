import Foundation

extension Distribution {
    /// The expected value, where it has a closed form here (nil otherwise, e.g. a
    /// truncated lognormal). Assumes valid parameters.
    public var mean: Double? {
        switch self {
        case .constant(let v): return v
        case let .uniform(lo, hi): return (lo + hi) / 2
        case .exponential(let m): return m
        case let .normal(m, _): return m
        case let .lognormal(mu, sigma): return Foundation.exp(mu + sigma * sigma / 2)
        case let .discrete(values, weights):
            let total = weights.reduce(0, +)
            return zip(values, weights).reduce(0) { $0 + $1.0 * $1.1 } / total
        case let .truncated(base, lo, hi):
            return Self.truncatedMean(base, lo ?? -.infinity, hi ?? .infinity)
        }
    }

    /// The variance, where it has a closed form here (nil for truncated distributions).
    public var variance: Double? {
        switch self {
        case .constant: return 0
        case let .uniform(lo, hi): return (hi - lo) * (hi - lo) / 12
        case .exponential(let m): return m * m
        case let .normal(_, sd): return sd * sd
        case let .lognormal(mu, sigma):
            let s2 = sigma * sigma
            return (Foundation.exp(s2) - 1) * Foundation.exp(2 * mu + s2)
        case let .discrete(values, weights):
            guard let m = mean else { return nil }
            let total = weights.reduce(0, +)
            return zip(values, weights).reduce(0) { $0 + $1.1 * ($1.0 - m) * ($1.0 - m) } / total
        case .truncated: return nil
        }
    }

    /// Cumulative distribution P(X ≤ x) for the untruncated kinds (nil for `truncated`).
    public func cdf(_ x: Double) -> Double? {
        switch self {
        case .constant(let v): return x >= v ? 1 : 0
        case let .uniform(lo, hi):
            if hi <= lo { return x >= lo ? 1 : 0 }
            return Swift.min(Swift.max((x - lo) / (hi - lo), 0), 1)
        case .exponential(let m): return x <= 0 ? 0 : -Foundation.expm1(-x / m)
        case let .normal(m, sd): return Self.normalCDF(x, mean: m, stdDev: sd)
        case let .lognormal(mu, sigma): return x <= 0 ? 0 : Self.normalCDF(Foundation.log(x), mean: mu, stdDev: sigma)
        case let .discrete(values, weights):
            let total = weights.reduce(0, +)
            return zip(values, weights).reduce(0) { $0 + ($1.0 <= x ? $1.1 : 0) } / total
        case .truncated: return nil
        }
    }

    static func normalCDF(_ x: Double, mean: Double, stdDev: Double) -> Double {
        if stdDev == 0 { return x >= mean ? 1 : 0 }
        return 0.5 * Foundation.erfc(-(x - mean) / (stdDev * 2.0.squareRoot()))
    }

    static func truncatedMean(_ base: Distribution, _ lo: Double, _ hi: Double) -> Double? {
        switch base {
        case .constant(let v): return v
        case let .uniform(a, b):
            let l = Swift.max(a, lo), u = Swift.min(b, hi)
            return (l + u) / 2
        case let .discrete(values, weights):
            let kept = zip(values, weights).filter { $0.0 >= lo && $0.0 <= hi }
            return Distribution.discrete(values: kept.map(\.0), weights: kept.map(\.1)).mean
        case .exponential(let m):
            let a = Swift.max(lo, 0)
            guard hi.isFinite else { return a + m }
            let ea = Foundation.exp(-a / m), eb = Foundation.exp(-hi / m)
            return (a * ea - hi * eb) / (ea - eb) + m
        case let .normal(m, sd) where sd > 0:
            let alpha = (lo - m) / sd, beta = (hi - m) / sd
            let phi = { (z: Double) in z.isFinite ? Foundation.exp(-z * z / 2) / (2 * Double.pi).squareRoot() : 0 }
            let mass = normalCDF(beta, mean: 0, stdDev: 1) - normalCDF(alpha, mean: 0, stdDev: 1)
            return m + sd * (phi(alpha) - phi(beta)) / mass
        default: return nil
        }
    }
}
