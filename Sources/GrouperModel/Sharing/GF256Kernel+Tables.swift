/// Many weighted sums of the same inputs (the split's outputs), sharing work through
/// "four Russians" tables: inputs go in groups of 4, and for each chunk every group's 16
/// XOR combinations are built once; then each output is a Horner over the weight bits
/// that XORs one table entry per group per bit: 8·⌈k/4⌉ XORs instead of ≈ 4k, plus
/// 15·⌈k/4⌉ XORs per chunk shared by all outputs. Worth it from k ≥ 4 and 2+ outputs.
extension GF256Kernel {
    typealias Chunk = Block128

    /// `out[i·length ..< (i+1)·length] = Σ_j weights[i·k + j] · inputs[j]` for i < outputCount.
    static func multiSum(_ inputs: UnsafeBufferPointer<UnsafePointer<UInt8>>, weights: UnsafeBufferPointer<UInt8>,
                         outputCount: Int, length: Int, into out: UnsafeMutablePointer<UInt8>) {
        let k = inputs.count, groups = (k + 3) / 4
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: outputCount * 8 * groups) { entries in
            // entries[(i·8 + t)·groups + g] = table index of output i's bit-t pattern in group g.
            for i in 0..<outputCount {
                for g in 0..<groups {
                    // The group's (up to) 4 weights packed little-endian; bit t of each byte gathered
                    // into a nibble by the multiply (bytes 0-3 land on bits 24-27).
                    var packed: UInt32 = 0
                    for b in 0..<min(4, k - 4 * g) { packed |= UInt32(weights[i * k + 4 * g + b]) << UInt32(8 * b) }
                    for t in 0..<8 {
                        let bits = (packed >> UInt32(t)) & 0x0101_0101
                        let pattern = Int((bits &* 0x0102_0408) >> 24 & 0xF)
                        entries[(i * 8 + t) * groups + g] = Int32(g * 16 + pattern)
                    }
                }
            }
            withUnsafeTemporaryAllocation(byteCount: groups * 16 * MemoryLayout<Chunk>.size,
                                          alignment: MemoryLayout<Chunk>.alignment) { raw in
                var offset = passes(Chunk.self, inputs, entries: entries.baseAddress!, outputCount: outputCount,
                                    from: 0, length: length, table: raw, into: out)
                offset = passes(Block16.self, inputs, entries: entries.baseAddress!, outputCount: outputCount,
                                from: offset, length: length, table: raw, into: out)
                if offset < length { tail(inputs, weights: weights, outputCount: outputCount, from: offset, length: length, into: out) }
            }
        }
    }

    /// Whole chunks of `V` from `start`; returns the offset after the last one.
    @inline(__always)
    private static func passes<V: GF256Block>(_: V.Type, _ inputs: UnsafeBufferPointer<UnsafePointer<UInt8>>,
                                        entries: UnsafeMutablePointer<Int32>, outputCount: Int, from start: Int,
                                        length: Int, table raw: UnsafeMutableRawBufferPointer,
                                        into out: UnsafeMutablePointer<UInt8>) -> Int {
        let groups = (inputs.count + 3) / 4
        let table = raw.bindMemory(to: V.self).baseAddress!
        let width = V.byteCount
        var offset = start
        while offset + width <= length {
            buildTables(inputs, groups: groups, offset: offset, table: table)
            for i in 0..<outputCount {
                let acc = hornerOverTables(entries + i * 8 * groups, groups: groups, table: table)
                acc.store(out + i * length + offset)
            }
            offset += width
        }
        return offset
    }

    @inline(__always)
    private static func buildTables<V: GF256Block>(_ inputs: UnsafeBufferPointer<UnsafePointer<UInt8>>, groups: Int, offset: Int,
                                                   table: UnsafeMutablePointer<V>) {
        let k = inputs.count
        for g in 0..<groups {
            let base = table + g * 16
            base[0] = V.zero
            let members = min(4, k - 4 * g)
            for p in 1..<(1 << members) {
                let low = p.trailingZeroBitCount
                base[p] = base[p & (p - 1)] ^ V.load(inputs[4 * g + low] + offset)
            }
        }
    }

    @inline(__always)
    private static func hornerOverTables<V: GF256Block>(_ entries: UnsafeMutablePointer<Int32>, groups: Int,
                                                        table: UnsafeMutablePointer<V>) -> V {
        var acc = V.zero
        let top = entries + 7 * groups
        for g in 0..<groups { acc ^= table[Int(top[g])] }
        var t = 6
        while t >= 0 {
            acc = acc.doubled                          // 7 doublings: the first would act on zero
            let row = entries + t * groups
            for g in 0..<groups { acc ^= table[Int(row[g])] }
            t -= 1
        }
        return acc
    }

    /// The bytes after the last whole chunk, one weighted sum per output.
    static func tail(_ inputs: UnsafeBufferPointer<UnsafePointer<UInt8>>, weights: UnsafeBufferPointer<UInt8>,
                             outputCount: Int, from offset: Int, length: Int, into out: UnsafeMutablePointer<UInt8>) {
        let k = inputs.count
        withUnsafeTemporaryAllocation(of: UnsafePointer<UInt8>.self, capacity: k) { shifted in
            for j in 0..<k { shifted[j] = inputs[j] + offset }
            for i in 0..<outputCount {
                portableWeightedSum(UnsafeBufferPointer(shifted), weights: UnsafeBufferPointer(rebasing: weights[i * k..<(i + 1) * k]),
                            length: length - offset, into: out + i * length + offset)
            }
        }
    }
}
