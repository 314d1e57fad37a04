/// Many weighted sums of few inputs: per chunk, each input's 8 multiples v·2^t are computed
/// once (7 doublings per input), and every output XORs the multiples selected by its weights'
/// bits (≈ 4k XORs, no per-output doubling). Cheaper than the four-Russians Horner when k is
/// small and there are many outputs (e.g. (3,30)): see `prefersMultiples`.
extension GF256Kernel {
    /// `outputCount` weighted sums (weights row-major, `outputCount × k`): the vector kernel
    /// where the CPU has one, else `portableSums`.
    static func sums(_ inputs: UnsafeBufferPointer<UnsafePointer<UInt8>>, weights: UnsafeBufferPointer<UInt8>,
                     outputCount: Int, length: Int, into out: UnsafeMutablePointer<UInt8>) {
        if usesVector && inputs.count > 1 {
            vectorSums(inputs, weights: weights, outputCount: outputCount, length: length, into: out)
        } else {
            portableSums(inputs, weights: weights, outputCount: outputCount, length: length, into: out)
        }
    }

    /// `sums` in Swift with the cheapest of its kernels (any CPU).
    static func portableSums(_ inputs: UnsafeBufferPointer<UnsafePointer<UInt8>>, weights: UnsafeBufferPointer<UInt8>,
                             outputCount: Int, length: Int, into out: UnsafeMutablePointer<UInt8>) {
        let k = inputs.count
        if k >= 2 && outputCount >= 2 && prefersMultiples(k: k, outputs: outputCount) {
            multiSumByMultiples(inputs, weights: weights, outputCount: outputCount, length: length, into: out)
        } else if k >= 2 && outputCount >= 2 {
            multiSum(inputs, weights: weights, outputCount: outputCount, length: length, into: out)
        } else {
            for i in 0..<outputCount {
                portableWeightedSum(inputs, weights: UnsafeBufferPointer(rebasing: weights[i * k..<(i + 1) * k]),
                            length: length, into: out + i * length)
            }
        }
    }

    /// Estimated instruction counts per 128 bytes of the two split strategies; true when
    /// per-input multiples are cheaper than the per-output Horner over tables.
    static func prefersMultiples(k: Int, outputs: Int) -> Bool {
        let groups = (k + 3) / 4
        let horner = outputs * (8 * 64 + 8 * groups * 16) + groups * 15 * 24
        let multiples = 7 * k * 64 + outputs * 4 * k * 16
        return multiples < horner
    }

    /// Same result as `multiSum` (exactly: the same sums in GF(2^8)).
    static func multiSumByMultiples(_ inputs: UnsafeBufferPointer<UnsafePointer<UInt8>>, weights: UnsafeBufferPointer<UInt8>,
                                    outputCount: Int, length: Int, into out: UnsafeMutablePointer<UInt8>) {
        let k = inputs.count
        // selected[starts[i]..<starts[i+1]] = indices j·8 + t with bit t of weight (i, j) set.
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(1, outputCount * 8 * k)) { selected in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: outputCount + 1) { starts in
                var count = 0
                for i in 0..<outputCount {
                    starts[i] = count
                    for j in 0..<k {
                        let w = weights[i * k + j]
                        for t in 0..<8 where w >> t & 1 == 1 { selected[count] = Int32(j * 8 + t); count += 1 }
                    }
                }
                starts[outputCount] = count
                withUnsafeTemporaryAllocation(byteCount: k * 8 * MemoryLayout<Chunk>.size,
                                              alignment: MemoryLayout<Chunk>.alignment) { raw in
                    var offset = multiplePasses(Chunk.self, inputs, selected: selected.baseAddress!, starts: starts.baseAddress!,
                                                outputCount: outputCount, from: 0, length: length, scratch: raw, into: out)
                    offset = multiplePasses(Block16.self, inputs, selected: selected.baseAddress!, starts: starts.baseAddress!,
                                            outputCount: outputCount, from: offset, length: length, scratch: raw, into: out)
                    if offset < length {
                        tail(inputs, weights: weights, outputCount: outputCount, from: offset, length: length, into: out)
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func multiplePasses<V: GF256Block>(_: V.Type, _ inputs: UnsafeBufferPointer<UnsafePointer<UInt8>>,
                                                selected: UnsafeMutablePointer<Int32>, starts: UnsafeMutablePointer<Int>,
                                                outputCount: Int, from start: Int, length: Int,
                                                scratch raw: UnsafeMutableRawBufferPointer,
                                                into out: UnsafeMutablePointer<UInt8>) -> Int {
        let multiples = raw.bindMemory(to: V.self).baseAddress!
        let width = V.byteCount
        var offset = start
        while offset + width <= length {
            for j in 0..<inputs.count {
                var v = V.load(inputs[j] + offset)
                multiples[j * 8] = v
                for t in 1..<8 { v = v.doubled; multiples[j * 8 + t] = v }
            }
            for i in 0..<outputCount {
                var acc = V.zero
                for s in starts[i]..<starts[i + 1] { acc ^= multiples[Int(selected[s])] }
                acc.store(out + i * length + offset)
            }
            offset += width
        }
        return offset
    }
}
