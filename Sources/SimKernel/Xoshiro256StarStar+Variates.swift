import Foundation

extension Xoshiro256StarStar {
    /// Uniform double in (0, 1]: never 0, so `log` of it is finite.
    @inlinable @inline(__always) public mutating func nextOpenDouble() -> Double {
        Double((next() >> 11) &+ 1) * 0x1.0p-53
    }

    /// Exponential variate with the given mean (inverse CDF, one draw).
    @inlinable @inline(__always) public mutating func nextExponential(mean: Double) -> Double {
        -mean * Foundation.log(nextOpenDouble())
    }

    /// Standard normal variate (Marsaglia polar method; the second value is discarded so
    /// that the generator's state is the only state). Uses only `log` and `sqrt`.
    /// Expected draws per call: 4/π · 2 ≈ 2.55.
    @inlinable public mutating func nextGaussian() -> Double {
        while true {
            let x = 2 * nextDouble() - 1
            let y = 2 * nextDouble() - 1
            let s = x * x + y * y
            if s > 0 && s < 1 {
                return x * (-2 * Foundation.log(s) / s).squareRoot()
            }
        }
    }
}
