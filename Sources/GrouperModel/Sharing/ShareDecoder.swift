/// Consistency checking and Reed–Solomon error correction over whole shares.
///
/// Every byte position is its own codeword, but a bad share is usually bad in many
/// positions, so the decoder finds error locations on a few columns and reuses them:
/// 1. check all shares against the polynomial through the first k (one weighted sum per
///    extra share over whole rows); consistent → done;
/// 2. otherwise run Berlekamp–Welch on the first mismatching column, add its error
///    locations to the bad set, and check the remaining shares the same way; repeat on the
///    next mismatching column until the rest are consistent (each pass adds a share);
/// 3. interpolate the secret from the first k good shares over whole rows.
/// If the bad set outgrows ⌊(m − k)/2⌋ (different positions wrong in different shares),
/// every column is decoded on its own. Step 2 is exact: a set of ≥ m − t shares lying on one
/// polynomial of degree < k fixes the unique codeword within distance t of each column.
enum ShareDecoder {
    struct Outcome: Equatable {
        var secret: [UInt8]?
        /// All shares lay on one polynomial of degree < k.
        var consistent: Bool
        /// Shares corrected around (sorted indices); empty unless `correct` found errors.
        var badShares: [Int] = []
        /// Field multiply-adds spent beyond a plain join.
        var multiplyAdds = 0
    }

    /// Secret if every share lies on the polynomial through the first k, else nil.
    static func check<C: ShareColumns>(_ c: C, k: Int) -> Outcome {
        let all = Array(c.xs.indices)
        let work = (all.count - k) * k * c.length
        if firstInconsistency(c, among: all, k: k) != nil { return Outcome(secret: nil, consistent: false, multiplyAdds: work) }
        return Outcome(secret: interpolate(c, from: all, k: k), consistent: true, multiplyAdds: work)
    }

    /// Secret corrected for up to ⌊(m − k)/2⌋ wrong shares, or nil beyond what can be corrected.
    static func correct<C: ShareColumns>(_ c: C, k: Int) -> Outcome {
        let all = Array(c.xs.indices)
        let t = (all.count - k) / 2
        var work = (all.count - k) * k * c.length
        guard var position = firstInconsistency(c, among: all, k: k) else {
            return Outcome(secret: interpolate(c, from: all, k: k), consistent: true, multiplyAdds: work)
        }
        var bad: [Int] = []
        while true {
            work += columnWork(m: all.count, k: k, t: t)
            guard let errors = decodeColumn(c, position, k: k, maxErrors: t)?.errors else {
                return Outcome(secret: nil, consistent: false, multiplyAdds: work)
            }
            bad = Array(Set(bad + errors)).sorted()
            if bad.count > t { return columnByColumn(c, k: k, t: t, work: work) }
            let good = all.filter { !bad.contains($0) }
            work += (good.count - k) * k * c.length
            guard let next = firstInconsistency(c, among: good, k: k) else {
                return Outcome(secret: interpolate(c, from: good, k: k), consistent: false, badShares: bad, multiplyAdds: work)
            }
            position = next
        }
    }

    /// Decodes every column separately (errors in more than t distinct shares overall).
    private static func columnByColumn<C: ShareColumns>(_ c: C, k: Int, t: Int, work: Int) -> Outcome {
        var secret = [UInt8](repeating: 0, count: c.length)
        var bad = Set<Int>()
        for p in 0..<c.length {
            guard let (f, errors) = decodeColumn(c, p, k: k, maxErrors: t), f[0] < 256 else {
                return Outcome(secret: nil, consistent: false, multiplyAdds: work + p * columnWork(m: c.xs.count, k: k, t: t))
            }
            secret[p] = UInt8(f[0])
            bad.formUnion(errors)
        }
        return Outcome(secret: secret, consistent: false, badShares: bad.sorted(),
                       multiplyAdds: work + c.length * columnWork(m: c.xs.count, k: k, t: t))
    }

    private static func columnWork(m: Int, k: Int, t: Int) -> Int { m * (k + 2 * t) * (k + 2 * t) }

    private static func decodeColumn<C: ShareColumns>(_ c: C, _ p: Int, k: Int, maxErrors t: Int)
        -> (coefficients: [Int], errors: [Int])? {
        BerlekampWelch<C.Field>.decode(xs: c.xs, ys: c.xs.indices.map { c.symbol($0, p) }, k: k, maxErrors: t)
    }

    /// First position where some share of `rows` beyond the first k leaves the polynomial
    /// through the first k, or nil when they all lie on it.
    static func firstInconsistency<C: ShareColumns>(_ c: C, among rows: [Int], k: Int) -> Int? {
        let base = Array(rows.prefix(k)), targets = Array(rows.dropFirst(k))
        if targets.isEmpty { return nil }
        let points = base.map { c.xs[$0] }
        let weights = targets.map { FieldPolynomial<C.Field>.lagrangeWeights(points: points, at: c.xs[$0]) }
        return c.firstMismatch(sources: base, targets: targets, weights: weights)
    }

    private static func interpolate<C: ShareColumns>(_ c: C, from rows: [Int], k: Int) -> [UInt8]? {
        let base = Array(rows.prefix(k))
        return c.combine(sources: base, weights: FieldPolynomial<C.Field>.lagrangeWeights(points: base.map { c.xs[$0] }, at: 0))
    }
}
