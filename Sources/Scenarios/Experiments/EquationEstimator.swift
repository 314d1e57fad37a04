import SimKernel

/// A steady-state estimate: mean and 95% CI half-width from batch means, optionally
/// regression-adjusted with control variates of known mean (docs/equations.md).
public struct SteadyStateEstimate: Equatable, Sendable {
    public var mean: Double
    public var ci95HalfWidth: Double
    /// Batches the estimate used (each a run of consecutive TTL windows of one replication).
    public var batches: Int
    /// Control variates the regression used (0: plain batch means).
    public var controlsUsed: Int

    /// Whether the CI half-width is ≤ `relative` × |mean| (an exact 0 ± 0 counts).
    func isPrecise(relative: Double) -> Bool {
        ci95HalfWidth.isFinite && ci95HalfWidth <= relative * abs(mean) + 1e-12
    }
}

/// Batch means with control variates: y_i = a + βᵀ(c_i − c̄) + e_i by least squares over
/// the batches, estimate ȳ − βᵀ(c̄ − μ), variance s_e²·(1/n + (c̄ − μ)ᵀ S⁻¹ (c̄ − μ)),
/// Student t with n − 1 − k degrees of freedom. Controls without spread are dropped; with
/// none left (or too few batches) it is the plain batch-means interval.
enum SteadyStateEstimator {
    static func estimate(_ ys: [Double], controls: [[Double]], means: [Double]?) -> SteadyStateEstimate {
        let n = ys.count
        let ybar = ys.reduce(0, +) / Double(max(n, 1))
        if let means, n >= 10 {
            for subset in [[0, 1, 2, 3], [1, 2, 3], [0, 2, 3], [2, 3], [3], [0, 1, 2], [1, 2], [2], [1], [0]] where subset.allSatisfy({ $0 < means.count }) {
                if let e = regression(ys, controls, means, subset, ybar) { return e }
            }
        }
        let ss = ys.reduce(0) { $0 + ($1 - ybar) * ($1 - ybar) }
        let hw = n > 1 ? StudentT.quantile975(degreesOfFreedom: n - 1) * (ss / Double(n - 1) / Double(n)).squareRoot() : .nan
        return SteadyStateEstimate(mean: ybar, ci95HalfWidth: ss == 0 ? 0 : hw, batches: n, controlsUsed: 0)
    }

    static func regression(_ ys: [Double], _ cs: [[Double]], _ mu: [Double], _ subset: [Int], _ ybar: Double)
        -> SteadyStateEstimate? {
        let n = ys.count, k = subset.count
        let x = cs.map { c in subset.map { c[$0] } }
        let xbar = (0..<k).map { j in x.reduce(0) { $0 + $1[j] } / Double(n) }
        var s = Array(repeating: Array(repeating: 0.0, count: k), count: k), sy = Array(repeating: 0.0, count: k)
        for i in 0..<n {
            for a in 0..<k {
                sy[a] += (x[i][a] - xbar[a]) * (ys[i] - ybar)
                for b in 0..<k { s[a][b] += (x[i][a] - xbar[a]) * (x[i][b] - xbar[b]) }
            }
        }
        guard let inv = invert(s) else { return nil }
        let beta = (0..<k).map { a in (0..<k).reduce(0) { $0 + inv[a][$1] * sy[$1] } }
        let d = (0..<k).map { xbar[$0] - mu[subset[$0]] }
        let mean = ybar - (0..<k).reduce(0) { $0 + beta[$1] * d[$1] }
        var sse = 0.0
        for i in 0..<n {
            let fit = ybar + (0..<k).reduce(0) { $0 + beta[$1] * (x[i][$1] - xbar[$1]) }
            sse += (ys[i] - fit) * (ys[i] - fit)
        }
        let quad = (0..<k).reduce(0.0) { acc, a in acc + d[a] * (0..<k).reduce(0) { $0 + inv[a][$1] * d[$1] } }
        let variance = sse / Double(n - 1 - k) * (1 / Double(n) + quad)
        let hw = StudentT.quantile975(degreesOfFreedom: n - 1 - k) * variance.squareRoot()
        return SteadyStateEstimate(mean: mean, ci95HalfWidth: sse == 0 ? 0 : hw, batches: n, controlsUsed: k)
    }

    /// Inverse of a small symmetric positive definite matrix by Gauss–Jordan; nil when
    /// (nearly) singular.
    static func invert(_ m: [[Double]]) -> [[Double]]? {
        let k = m.count
        var a = m.enumerated().map { i, row in row + (0..<k).map { $0 == i ? 1.0 : 0.0 } }
        for col in 0..<k {
            let pivot = a[col][col]
            guard pivot > 1e-9 * max(m[col][col], 1e-300), m[col][col] > 1e-12 else { return nil }
            a[col] = a[col].map { $0 / pivot }
            for r in 0..<k where r != col {
                let f = a[r][col]
                a[r] = zip(a[r], a[col]).map { $0 - f * $1 }
            }
        }
        return a.map { Array($0[k...]) }
    }
}
