/// Lagrange basis weights in GF(2^8).
enum GF256Lagrange {
    /// `w[j] = Π_{m≠j} (t − x_m) / (x_j − x_m)`, so `f(t) = Σ w[j]·f(x_j)` for deg f < count.
    /// Points must be distinct. O(count²) table operations.
    static func weights(at t: UInt8, points: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: points.count)
        for j in points.indices {
            var num: UInt8 = 1, den: UInt8 = 1
            for m in points.indices where m != j {
                num = GF256.multiply(num, t ^ points[m])
                den = GF256.multiply(den, points[j] ^ points[m])
            }
            result[j] = GF256.divide(num, den)
        }
        return result
    }

    /// `log Π_{m≠j} (x_j − x_m)` mod 255 for each j; points distinct. O(count²) additions.
    static func logDenominators(points: [UInt8]) -> [Int] {
        points.indices.map { j in
            var sum = 0
            for m in points.indices where m != j { sum += GF256.log[Int(points[j] ^ points[m])] }
            return sum % 255
        }
    }

    /// Barycentric weights for the points 0…count−1 at each t of `targets` (all ≥ count),
    /// row-major into `out` (`targets.count × count`): the same values as
    /// `weights(at:points:)`, in O(count²) table additions for the denominators plus
    /// O(count) per target, without allocating.
    static func weightsOverLeadingPoints(count: Int, at targets: ClosedRange<Int>, into out: UnsafeMutablePointer<UInt8>) {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: count) { logDen in
            GF256.log.withUnsafeBufferPointer { log in
                GF256.exp.withUnsafeBufferPointer { exp in
                    for j in 0..<count {
                        var sum = 0
                        for m in 0..<count { sum += log[j ^ m] }       // log[0] = 0 covers m = j
                        logDen[j] = sum % 255
                    }
                    var row = out
                    for t in targets {
                        var logP = 0
                        for m in 0..<count { logP += log[t ^ m] }
                        for j in 0..<count {
                            let e = (logP - log[t ^ j] - logDen[j]) % 255
                            row[j] = exp[e < 0 ? e + 255 : e]
                        }
                        row += count
                    }
                }
            }
        }
    }

    /// Weights at 0 for the x bytes of the first `count` shares (distinct, non-zero), into
    /// `out`; log domain, O(count²) additions, no allocation.
    static func weightsAtZero(shares: [[UInt8]], count: Int, into out: UnsafeMutablePointer<UInt8>) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { xs in
            for j in 0..<count { xs[j] = shares[j][0] }
            GF256.log.withUnsafeBufferPointer { log in
                GF256.exp.withUnsafeBufferPointer { exp in
                    var logP = 0
                    for j in 0..<count { logP += log[Int(xs[j])] }
                    for j in 0..<count {
                        let xj = xs[j]
                        var logDen = 0
                        for m in 0..<count { logDen += log[Int(xj ^ xs[m])] }   // log[0] = 0 covers m = j
                        let e = (logP - log[Int(xj)] - logDen) % 255
                        out[j] = exp[e < 0 ? e + 255 : e]
                    }
                }
            }
        }
    }

    /// Weights at 0 for distinct non-zero points, in the log domain: O(count²) additions.
    static func weightsAtZero(points: [UInt8]) -> [UInt8] {
        let logDen = logDenominators(points: points)
        var logP = 0
        for x in points { logP += GF256.log[Int(x)] }
        return points.indices.map { j in
            let e = (logP - GF256.log[Int(points[j])] - logDen[j]) % 255
            return GF256.exp[e < 0 ? e + 255 : e]
        }
    }
}

