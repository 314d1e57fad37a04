import Testing
@testable import GrouperModel
import SimKernel

@Test func gf256KnownProducts() {
    #expect(GF256.multiply(0x53, 0xCA) == 0x01)
    #expect(GF256.multiply(0x57, 0x83) == 0xC1)
    #expect(GF256.multiply(0x57, 0x13) == 0xFE)
    #expect(GF256.inverse(0x53) == 0xCA)
    #expect(GF256.inverse(0x01) == 0x01)
    for a in 0...255 {
        for b in 0...255 { #expect(GF256.multiply(UInt8(a), UInt8(b)) == GF256.multiplySlow(UInt8(a), UInt8(b))) }
        if a != 0 { #expect(GF256.multiply(UInt8(a), GF256.inverse(UInt8(a))) == 1) }
    }
}

@Test func gf256AnyKOfNRebuildsSmallExhaustive() throws {
    let scheme = GF256Sharing()
    var rng = Xoshiro256StarStar(seed: 42)
    for n in 1...6 {
        for k in 1...n {
            var secret = [UInt8](repeating: 0, count: 1 + rng.nextInt(below: 40))
            rng.fill(&secret)
            let (shares, _) = try scheme.split(secret, k: k, n: n, rng: &rng)
            #expect(shares.count == n)
            #expect(shares.allSatisfy { $0.count == secret.count + 1 })
            for mask in 0..<(1 << n) where mask.nonzeroBitCount == k {
                let subset = (0..<n).filter { mask & (1 << $0) != 0 }.map { shares[$0] }
                #expect(try scheme.join(subset, k: k).secret == secret)
            }
        }
    }
}

@Test func gf256FastPathsMatchTheReference() throws {
    let scheme = GF256Sharing()
    var rng = Xoshiro256StarStar(seed: 7)
    let seeds = sharingPropertySeeds(default: 200)
    for _ in 0..<seeds {
        let n = rng.int(in: 1...40), k = rng.int(in: 1...n)
        var secret = [UInt8](repeating: 0, count: rng.int(in: 1...300))
        rng.fill(&secret)
        var a = rng, b = rng
        let fast = try scheme.split(secret, k: k, n: n, rng: &a).shares
        let reference = GF256Sharing.referenceSplit(secret, k: k, n: n, rng: &b)
        #expect(fast == reference, "k=\(k) n=\(n) L=\(secret.count)")
        #expect(a == b)
        rng = a
        var picked = fast
        rng.shuffle(&picked)
        #expect(try scheme.join(picked, k: k).secret == secret)
        #expect(GF256Sharing.referenceJoin(picked, k: k) == secret)
    }
}

@Test func gf256LargeNSampledSubsetsRebuild() throws {
    let scheme = GF256Sharing()
    var rng = Xoshiro256StarStar(seed: 255)
    for (k, n) in [(20, 30), (27, 30), (128, 255), (255, 255)] {
        var secret = [UInt8](repeating: 0, count: 100)
        rng.fill(&secret)
        let shares = try scheme.split(secret, k: k, n: n, rng: &rng).shares
        for _ in 0..<10 {
            var s = shares
            rng.shuffle(&s)
            #expect(try scheme.join(Array(s.prefix(k)), k: k).secret == secret)
        }
    }
}

/// Both multi-output kernels and the per-output kernel against table multiplication.
@Test func gf256KernelsAgreeOnRandomInputs() {
    var rng = Xoshiro256StarStar(seed: 1234)
    for _ in 0..<sharingPropertySeeds(default: 100) {
        let k = rng.int(in: 1...24), outputs = rng.int(in: 1...12), length = rng.int(in: 1...400)
        var flat = [UInt8](repeating: 0, count: k * length), weights = [UInt8](repeating: 0, count: outputs * k)
        rng.fill(&flat); rng.fill(&weights)
        let inputs = (0..<k).map { Array(flat[$0 * length..<($0 + 1) * length]) }
        var expected: [UInt8] = []
        for i in 0..<outputs {
            expected += GF256Vector.weightedSum(inputs, weights: Array(weights[i * k..<(i + 1) * k]), length: length)
        }
        let results = GF256Kernel.withPointers(to: inputs, count: k, offset: 0) { p in
            weights.withUnsafeBufferPointer { w in
                [0, 1, 2].map { method in
                    [UInt8](unsafeUninitializedCapacity: outputs * length) { buf, n in
                        switch method {
                        case 0: GF256Kernel.multiSum(p, weights: w, outputCount: outputs, length: length, into: buf.baseAddress!)
                        case 1: GF256Kernel.multiSumByMultiples(p, weights: w, outputCount: outputs, length: length, into: buf.baseAddress!)
                        default:
                            for i in 0..<outputs {
                                GF256Kernel.weightedSum(p, weights: UnsafeBufferPointer(rebasing: w[i * k..<(i + 1) * k]),
                                                        length: length, into: buf.baseAddress! + i * length)
                            }
                        }
                        n = outputs * length
                    }
                }
            }
        }
        for (method, r) in results.enumerated() { #expect(r == expected, "method \(method) k=\(k) outputs=\(outputs) L=\(length)") }
    }
}

/// Every block width doubles every byte value as the field does, whatever its lane.
@Test func gf256BlocksDoubleEveryByteInEveryLane() {
    func check<V: GF256Block>(_: V.Type) {
        let width = V.byteCount
        var input = [UInt8](repeating: 0, count: 256 + width), output = input
        for i in input.indices { input[i] = UInt8(truncatingIfNeeded: i &* 37 &+ 11) }
        input.withUnsafeBufferPointer { src in
            output.withUnsafeMutableBufferPointer { dst in
                var offset = 0
                while offset + width <= src.count {
                    let v = V.load(src.baseAddress! + offset)
                    (v.doubled ^ v).store(dst.baseAddress! + offset)   // 3·b, exercising ^ too
                    offset += width
                }
            }
        }
        let covered = (256 + width) / width * width
        for i in 0..<covered { #expect(output[i] == GF256.multiply(3, input[i]), "width \(width) byte \(i)") }
        #expect(Set(input[0..<256]).count == 256)
    }
    check(GF256Kernel.Block16.self)
    check(GF256Kernel.Block32.self)
    check(GF256Kernel.Block64.self)
    check(GF256Kernel.Block128.self)
}

/// The split's barycentric weights equal the textbook Lagrange weights.
@Test func gf256LeadingPointWeightsMatchLagrange() {
    for (k, n) in [(1, 1), (1, 5), (2, 3), (3, 30), (20, 30), (27, 30), (128, 255), (255, 255)] {
        var fast = [UInt8](repeating: 0, count: (n - k + 1) * k)
        fast.withUnsafeMutableBufferPointer { GF256Lagrange.weightsOverLeadingPoints(count: k, at: k...n, into: $0.baseAddress!) }
        let points = (0..<k).map { UInt8($0) }
        let slow = (k...n).flatMap { GF256Lagrange.weights(at: UInt8($0), points: points) }
        #expect(fast == slow, "k=\(k) n=\(n)")
    }
}
