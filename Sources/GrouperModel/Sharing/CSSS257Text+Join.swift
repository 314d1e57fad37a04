/// The csss257 join on the text shares directly: headers checked first, then one pass
/// per share that decodes and accumulates `w_j · value` into 32-bit sums (≤ 255 · 256 · 256,
/// no overflow), reduced mod 257 at the end. O(m² + L·m).
extension CSSS257Text {
    /// Digit values: 0…15 for `0`-`9`/`A`-`F`, 16 for `G`, 0xFF otherwise.
    static let digitValue: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in "0123456789ABCDEFG".utf8.enumerated() { table[Int(c)] = UInt8(i) }
        return table
    }()

    /// x of every share after checking the header format, lengths and k of all of them.
    static func checkHeaders(_ shares: [[UInt8]], k: Int) throws(SharingError) -> [Int] {
        try SharingParameters.validateJoinK(k, shares: shares.count)
        if shares.count < k { throw .notEnoughShares(needed: k, got: shares.count) }
        var xs: [Int] = []
        xs.reserveCapacity(shares.count)
        for (i, s) in shares.enumerated() {
            let header = try parse(Array(s.prefix(8)), index: i)   // format of x, k, marker, first value
            if s.count % 2 != 0 { throw .malformedShare(index: i, reason: "a csss257 share has 6 + 2L characters, got \(s.count)") }
            if s.count != shares[0].count {
                throw .inconsistentShares("share #\(i) has \(s.count) characters but share #0 has \(shares[0].count)")
            }
            if header.k != k { throw .inconsistentShares("share #\(i) says k = \(header.k) but the join asked for k = \(k)") }
            xs.append(header.x)
        }
        try SharingParameters.validateXs(xs)
        return xs
    }

    /// Rebuilds the secret from all shares (headers already checked) with `weights` mod 257.
    static func combine(_ shares: [[UInt8]], weights: [UInt32]) throws(SharingError) -> [UInt8] {
        let length = (shares[0].count - 6) / 2
        var sums = [UInt32](repeating: 0, count: length)
        for (j, share) in shares.enumerated() {
            let ok = accumulate(share, weight: weights[j], into: &sums)
            if !ok { _ = try parse(share, index: j); throw .malformedShare(index: j, reason: "invalid value") }
        }
        var secret = [UInt8](repeating: 0, count: length)
        for i in 0..<length {
            let v = sums[i] % 257
            if v == 256 {
                throw .inconsistentShares("byte \(i) rebuilds to 256, which no byte can be (shares from different polynomials, or fewer than k)")
            }
            secret[i] = UInt8(v)
        }
        return secret
    }

    /// Adds `weight · value` for each value of `share`; false if any pair is not a value.
    private static func accumulate(_ share: [UInt8], weight: UInt32, into sums: inout [UInt32]) -> Bool {
        var bad: UInt32 = 0
        share.withUnsafeBufferPointer { text in
            digitValue.withUnsafeBufferPointer { digit in
                sums.withUnsafeMutableBufferPointer { out in
                    for i in 0..<out.count {
                        let hi = UInt32(digit[Int(text[6 + 2 * i])]), lo = UInt32(digit[Int(text[7 + 2 * i])])
                        let v = hi << 4 + lo
                        // Valid: hi ≤ 16, lo ≤ 15, and G only as G0 (v ≤ 256).
                        bad |= (hi > 16 ? 1 : 0) | (lo > 15 ? 1 : 0) | (v > 256 ? 1 : 0)
                        out[i] &+= weight &* v
                    }
                }
            }
        }
        return bad == 0
    }
}
