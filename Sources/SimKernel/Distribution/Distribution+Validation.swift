/// Problems found in a distribution's parameters, each naming the field and what is allowed.
public struct DistributionError: Error, Equatable, Sendable, CustomStringConvertible {
    public let problems: [String]
    public var description: String { problems.joined(separator: "; ") }
}

extension Distribution {
    /// Every problem with the parameters, e.g. `exponential.mean must be a finite
    /// number > 0, got -1`; empty when the distribution can be sampled.
    public func validate() -> [String] { problems(at: kindName) }

    /// `self`, or a `DistributionError` listing every problem.
    public func validated() throws(DistributionError) -> Distribution {
        let p = validate()
        guard p.isEmpty else { throw DistributionError(problems: p) }
        return self
    }

    /// The JSON key of this kind (`"exponential"`, …).
    public var kindName: String {
        switch self {
        case .constant: "constant"
        case .uniform: "uniform"
        case .exponential: "exponential"
        case .normal: "normal"
        case .lognormal: "lognormal"
        case .discrete: "discrete"
        case .truncated: "truncated"
        }
    }

    func problems(at path: String) -> [String] {
        var out: [String] = []
        func finite(_ name: String, _ v: Double) {
            if !v.isFinite { out.append("\(path).\(name) must be a finite number, got \(v)") }
        }
        switch self {
        case .constant(let v): finite("value", v)
        case let .uniform(lo, hi):
            finite("min", lo); finite("max", hi)
            if lo.isFinite && hi.isFinite && lo > hi { out.append("\(path).min must be ≤ max, got min \(lo) > max \(hi)") }
        case .exponential(let m):
            if !(m.isFinite && m > 0) { out.append("\(path).mean must be a finite number > 0, got \(m)") }
        case let .normal(m, sd):
            finite("mean", m)
            if !(sd.isFinite && sd >= 0) { out.append("\(path).stdDev must be a finite number ≥ 0, got \(sd)") }
        case let .lognormal(mu, sigma):
            finite("mu", mu)
            if !(sigma.isFinite && sigma >= 0) { out.append("\(path).sigma must be a finite number ≥ 0, got \(sigma)") }
        case let .discrete(values, weights):
            out += Self.discreteProblems(values, weights, at: path)
        case let .truncated(base, lo, hi):
            out += base.problems(at: "\(path).base.\(base.kindName)")
            if out.isEmpty { out += Self.truncationProblems(base, lo, hi, at: path) }
        }
        return out
    }

    static func discreteProblems(_ values: [Double], _ weights: [Double], at path: String) -> [String] {
        var out: [String] = []
        if values.isEmpty { out.append("\(path).values must not be empty") }
        if values.count != weights.count {
            out.append("\(path).weights must have one entry per value (\(values.count)), got \(weights.count)")
        }
        if let i = values.firstIndex(where: { !$0.isFinite }) { out.append("\(path).values[\(i)] must be finite") }
        if let i = weights.firstIndex(where: { !($0.isFinite && $0 >= 0) }) {
            out.append("\(path).weights[\(i)] must be a finite number ≥ 0, got \(weights[i])")
        } else if !weights.isEmpty && !(weights.reduce(0, +) > 0) {
            out.append("\(path).weights must not all be 0")
        }
        return out
    }

    static func truncationProblems(_ base: Distribution, _ lo: Double?, _ hi: Double?, at path: String) -> [String] {
        if lo == nil && hi == nil { return ["\(path) needs min, max or both"] }
        if let lo, !lo.isFinite { return ["\(path).min must be a finite number, got \(lo)"] }
        if let hi, !hi.isFinite { return ["\(path).max must be a finite number, got \(hi)"] }
        if let lo, let hi, lo > hi { return ["\(path).min must be ≤ max, got min \(lo) > max \(hi)"] }
        guard let mass = acceptance(base, lo, hi) else { return [] }
        if mass < 0.01 {
            return ["\(path): the base distribution falls in [\(lo.map { "\($0)" } ?? "-inf"), \(hi.map { "\($0)" } ?? "inf")]"
                    + " with probability \(mass); at least 0.01 is required (narrow the base instead)"]
        }
        return []
    }

    /// P(base ∈ [lo, hi]) when computable.
    static func acceptance(_ base: Distribution, _ lo: Double?, _ hi: Double?) -> Double? {
        if case let .discrete(values, weights) = base {
            let total = weights.reduce(0, +)
            let kept = zip(values, weights).reduce(0) { $0 + ($1.0 >= (lo ?? -.infinity) && $1.0 <= (hi ?? .infinity) ? $1.1 : 0) }
            return kept / total
        }
        if case .constant(let v) = base { return v >= (lo ?? -.infinity) && v <= (hi ?? .infinity) ? 1 : 0 }
        guard let upper = base.cdf(hi ?? .infinity), let lower = base.cdf(lo ?? -.infinity) else { return nil }
        return upper - lower
    }
}
