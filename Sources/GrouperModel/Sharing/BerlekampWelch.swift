/// Berlekamp–Welch decoding of one Reed–Solomon symbol column: m points (x_i, y_i) that
/// should lie on a polynomial f of degree < k, up to `maxErrors` of them wrong.
///
/// Unknowns: an error locator E(x) = x^e + e_(e−1)·x^(e−1) + … + e_0 (monic, e = maxErrors)
/// and Q(x) = f·E of degree < k + e. Each point gives one linear equation
/// `Q(x_i) − y_i·(E(x_i) − x_i^e) = y_i·x_i^e`; with 2e + k ≤ m a solution exists whenever at
/// most e points are wrong, and every solution has Q / E = f. When fewer than e points
/// are wrong the system has free variables, set to 0 (any solution gives the same f).
/// Cost O(m·(k + 2e)²) field operations: meant for a few columns, not every byte.
enum BerlekampWelch<F: DecodingField> {
    /// f's coefficients (lowest first, k of them) and the indices of points off f (sorted),
    /// or nil when no polynomial of degree < k passes through all but ≤ maxErrors points.
    static func decode(xs: [Int], ys: [Int], k: Int, maxErrors e: Int) -> (coefficients: [Int], errors: [Int])? {
        let m = xs.count
        precondition(ys.count == m && k >= 1 && e >= 0 && k + 2 * e <= m, "need m ≥ k + 2e points")
        guard let solution = solve(system(xs: xs, ys: ys, k: k, e: e), unknowns: k + 2 * e) else { return nil }
        let q = Array(solution.prefix(k + e))
        let locator = Array(solution.suffix(e)) + [1]
        let (f, remainder) = FieldPolynomial<F>.divide(q, byMonic: locator)
        guard remainder.allSatisfy({ $0 == 0 }) else { return nil }
        var coefficients = f + [Int](repeating: 0, count: max(0, k - f.count))
        coefficients = Array(coefficients.prefix(k))
        let errors = (0..<m).filter { FieldPolynomial<F>.evaluate(coefficients, at: xs[$0]) != ys[$0] }
        return errors.count <= e ? (coefficients, errors) : nil
    }

    /// The augmented matrix, one row per point: q_0…q_(k+e−1), e_0…e_(e−1) | rhs.
    private static func system(xs: [Int], ys: [Int], k: Int, e: Int) -> [[Int]] {
        xs.indices.map { i in
            var row = [Int](repeating: 0, count: k + 2 * e + 1)
            var power = 1
            for j in 0..<(k + e) {
                row[j] = power
                if j < e { row[k + e + j] = F.subtract(0, F.multiply(ys[i], power)) }
                power = F.multiply(power, xs[i])
            }
            var xe = 1
            for _ in 0..<e { xe = F.multiply(xe, xs[i]) }
            row[k + 2 * e] = F.multiply(ys[i], xe)
            return row
        }
    }

    /// Gauss–Jordan elimination; nil when inconsistent, free variables 0 otherwise.
    private static func solve(_ matrix: [[Int]], unknowns n: Int) -> [Int]? {
        var a = matrix
        var pivotColumns: [Int] = []
        var r = 0
        for c in 0..<n where r < a.count {
            guard let p = (r..<a.count).first(where: { a[$0][c] != 0 }) else { continue }
            a.swapAt(r, p)
            let inv = F.inverse(a[r][c])
            for j in c...n { a[r][j] = F.multiply(a[r][j], inv) }
            for i in a.indices where i != r && a[i][c] != 0 {
                let factor = a[i][c]
                for j in c...n { a[i][j] = F.subtract(a[i][j], F.multiply(factor, a[r][j])) }
            }
            pivotColumns.append(c)
            r += 1
        }
        // A row 0 = rhs ≠ 0 below the pivots means no solution.
        if a[r...].contains(where: { $0[n] != 0 }) { return nil }
        var x = [Int](repeating: 0, count: n)
        for (row, c) in pivotColumns.enumerated() { x[c] = a[row][n] }
        return x
    }
}
