/// Shares seen as a matrix for decoding: row i is share i (x = `xs[i]`), column p holds the
/// p-th symbol of every share, and each column is a Reed–Solomon codeword of its own.
///
/// The bulk operations (`firstMismatch`, `combine`) run over whole rows so each scheme can
/// use its fast kernel; `symbol` serves the few columns that need Berlekamp–Welch.
protocol ShareColumns {
    associatedtype Field: DecodingField
    var xs: [Int] { get }
    /// Symbols per share (the secret's length in bytes).
    var length: Int { get }
    func symbol(_ share: Int, _ position: Int) -> Int
    /// First position where row `target` differs from `Σ weights[j] · row(sources[j])`, or nil.
    func firstMismatch(sources: [Int], weights: [Int], target: Int) -> Int?
    /// `Σ weights[j] · row(sources[j])` as bytes, or nil when a value is not a byte (256 mod 257).
    func combine(sources: [Int], weights: [Int]) -> [UInt8]?
}

/// `gf256` shares: byte 0 is x, then one GF(2^8) symbol per secret byte.
struct GF256Columns: ShareColumns {
    typealias Field = GF256Field
    let shares: [[UInt8]]
    let xs: [Int]
    let length: Int

    /// `shares` must have passed `GF256Sharing.validateJoin`.
    init(_ shares: [[UInt8]]) {
        self.shares = shares
        xs = shares.map { Int($0[0]) }
        length = shares[0].count - 1
    }

    func symbol(_ share: Int, _ position: Int) -> Int { Int(shares[share][position + 1]) }

    func firstMismatch(sources: [Int], weights: [Int], target: Int) -> Int? {
        let predicted = weightedSum(sources: sources, weights: weights)
        return shares[target].withUnsafeBufferPointer { row in
            predicted.withUnsafeBufferPointer { p in
                for i in 0..<length where p[i] != row[i + 1] { return i }
                return nil
            }
        }
    }

    func combine(sources: [Int], weights: [Int]) -> [UInt8]? { weightedSum(sources: sources, weights: weights) }

    private func weightedSum(sources: [Int], weights: [Int]) -> [UInt8] {
        let rows = sources.map { shares[$0] }
        let w = weights.map { UInt8(truncatingIfNeeded: $0) }
        let length = length
        return GF256Kernel.withPointers(to: rows, count: rows.count, offset: 1) { inputs in
            w.withUnsafeBufferPointer { wb in
                [UInt8](unsafeUninitializedCapacity: length) { buf, initialized in
                    GF256Kernel.weightedSum(inputs, weights: wb, length: length, into: buf.baseAddress!)
                    initialized = length
                }
            }
        }
    }
}

/// `csss257` text shares, parsed to values 0…256 (one polynomial mod 257 per byte).
struct CSSS257Columns: ShareColumns {
    typealias Field = Mod257Field
    let values: [[UInt16]]
    let xs: [Int]
    let length: Int

    /// Parses every share after `CSSS257Text.checkHeaders` (which gives `xs`).
    init(_ shares: [[UInt8]], xs: [Int]) throws(SharingError) {
        var values: [[UInt16]] = []
        values.reserveCapacity(shares.count)
        for (i, s) in shares.enumerated() { values.append(try CSSS257Text.parse(s, index: i).values) }
        self.values = values
        self.xs = xs
        length = values[0].count
    }

    func symbol(_ share: Int, _ position: Int) -> Int { Int(values[share][position]) }

    func firstMismatch(sources: [Int], weights: [Int], target: Int) -> Int? {
        let sums = weightedSums(sources: sources, weights: weights)
        let row = values[target]
        for i in 0..<length where sums[i] % 257 != UInt32(row[i]) { return i }
        return nil
    }

    func combine(sources: [Int], weights: [Int]) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: length)
        for (i, s) in weightedSums(sources: sources, weights: weights).enumerated() {
            let v = s % 257
            if v == 256 { return nil }
            out[i] = UInt8(v)
        }
        return out
    }

    /// Unreduced sums: each term ≤ 256·256 and at most 255 terms, so they fit in 32 bits.
    private func weightedSums(sources: [Int], weights: [Int]) -> [UInt32] {
        var sums = [UInt32](repeating: 0, count: length)
        sums.withUnsafeMutableBufferPointer { out in
            for (j, src) in sources.enumerated() {
                let w = UInt32(weights[j])
                values[src].withUnsafeBufferPointer { row in
                    for i in 0..<out.count { out[i] &+= w &* UInt32(row[i]) }
                }
            }
        }
        return sums
    }
}
