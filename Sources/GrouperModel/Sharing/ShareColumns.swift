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
    /// For the first of `targets` whose row differs from `Σ weights[t][j] · row(sources[j])`, the
    /// first position where it does; nil when all match.
    func firstMismatch(sources: [Int], targets: [Int], weights: [[Int]]) -> Int?
}

extension ShareColumns {
    func firstMismatch(sources: [Int], targets: [Int], weights: [[Int]]) -> Int? {
        for (t, target) in targets.enumerated() {
            if let p = firstMismatch(sources: sources, weights: weights[t], target: target) { return p }
        }
        return nil
    }
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
            predicted.withUnsafeBufferPointer { p in GF256Kernel.firstDifference(p.baseAddress!, row.baseAddress! + 1, length: length) }
        }
    }

    func combine(sources: [Int], weights: [Int]) -> [UInt8]? { weightedSum(sources: sources, weights: weights) }

    /// All predictions in one `GF256Kernel.sums` call (the split's interpolation kernel), then
    /// one comparison pass per target.
    func firstMismatch(sources: [Int], targets: [Int], weights: [[Int]]) -> Int? {
        let rows = sources.map { shares[$0] }
        let w = weights.flatMap { $0.map { UInt8(truncatingIfNeeded: $0) } }
        let length = length
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, targets.count * length)) { predicted in
            GF256Kernel.withPointers(to: rows, count: rows.count, offset: 1) { inputs in
                w.withUnsafeBufferPointer { wb in
                    GF256Kernel.sums(inputs, weights: wb, outputCount: targets.count, length: length, into: predicted.baseAddress!)
                }
            }
            for (t, target) in targets.enumerated() {
                let mismatch = shares[target].withUnsafeBufferPointer { row in
                    GF256Kernel.firstDifference(predicted.baseAddress! + t * length, row.baseAddress! + 1, length: length)
                }
                if let mismatch { return mismatch }
            }
            return nil
        }
    }

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

    /// Parses every share after `CSSS257Text.checkHeaders` (which gives `xs`): a table-driven
    /// pass per share; a share with a bad value is parsed again by `CSSS257Text.parse` for its error.
    init(_ shares: [[UInt8]], xs: [Int]) throws(SharingError) {
        var values: [[UInt16]] = []
        values.reserveCapacity(shares.count)
        for (i, s) in shares.enumerated() {
            guard let v = Self.values(of: s) else { values.append(try CSSS257Text.parse(s, index: i).values); continue }
            values.append(v)
        }
        self.values = values
        self.xs = xs
        length = values[0].count
    }

    func symbol(_ share: Int, _ position: Int) -> Int { Int(values[share][position]) }

    /// The values of a share whose header was checked, or nil if one is not `00`…`FF`/`G0`.
    static func values(of share: [UInt8]) -> [UInt16]? {
        let count = (share.count - 6) / 2
        var bad = false
        let out = [UInt16](unsafeUninitializedCapacity: count) { buf, initialized in
            share.withUnsafeBufferPointer { text in
                CSSS257Text.digitValue.withUnsafeBufferPointer { digit in
                    for i in 0..<count {
                        let hi = UInt16(digit[Int(text[6 + 2 * i])]), lo = UInt16(digit[Int(text[7 + 2 * i])])
                        let v = hi << 4 | lo
                        bad = bad || hi > 16 || lo > 15 || v > 256
                        buf[i] = v
                    }
                }
            }
            initialized = count
        }
        return bad ? nil : out
    }

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
