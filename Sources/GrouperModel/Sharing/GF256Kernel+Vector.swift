import GF256Vector

/// The seam between the Swift kernels and the vector ones in C (Sources/GrouperModel/Sharing/Vector): AVX2
/// nibble tables, `vpshufb` looking up `c·(v & 15)` and `c·(v >> 4)` for 32 bytes at once,
/// about 7 instructions per 32 bytes and input against about 36 per 16 bytes for a Swift
/// multiplication by doublings. The C target checks the CPU once at run time; elsewhere
/// (no AVX2, other architectures) `sums` and `weightedSum` run the Swift kernels. Both give
/// the same bytes (`GF256VectorTests` compares them on random inputs).
extension GF256Kernel {
    /// The vector level the CPU offers (0: none, 2: AVX2).
    static let vectorLevel = Int(gf256_vector_level())

    /// Whether `sums` and `weightedSum` use the vector kernel.
    static var usesVector: Bool { vectorLevel > 0 }

    /// `sums` on the vector kernel; only when `vectorLevel > 0`.
    static func vectorSums(_ inputs: UnsafeBufferPointer<UnsafePointer<UInt8>>, weights: UnsafeBufferPointer<UInt8>,
                           outputCount: Int, length: Int, into out: UnsafeMutablePointer<UInt8>) {
        precondition(vectorLevel > 0 && inputs.count <= 255 && weights.count >= outputCount * inputs.count)
        let raw = UnsafeRawPointer(inputs.baseAddress!).assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
        gf256_vector_sums(raw, Int32(inputs.count), weights.baseAddress!, Int32(outputCount), length, out)
    }
}
