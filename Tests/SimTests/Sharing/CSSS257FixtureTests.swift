import Foundation
import Testing
@testable import GrouperModel
import SimKernel

/// One entry of the c-SSS vector file (shares written by the C library itself).
struct CSSSVector: Decodable {
    var k: Int
    var n: Int
    var secret_hex: String
    var secret_length: Int
    var shares: [String]

    var secret: [UInt8] {
        var out: [UInt8] = []
        var it = secret_hex.utf8.makeIterator()
        while let a = it.next(), let b = it.next() { out.append(UInt8(String(decoding: [a, b], as: UTF8.self), radix: 16)!) }
        return out
    }

    static func load() throws -> [CSSSVector] {
        let url = try #require(Bundle.module.url(forResource: "csss257-from-c-sss", withExtension: "json",
                                                 subdirectory: "Fixtures"))
        return try JSONDecoder().decode([CSSSVector].self, from: Data(contentsOf: url))
    }
}

@Test func csss257RebuildsEveryFixtureSecretFromAllShares() throws {
    let vectors = try CSSSVector.load()
    #expect(vectors.count == 7)
    let scheme = CSSS257Sharing()
    for v in vectors {
        let shares = v.shares.map { Array($0.utf8) }
        let (secret, _) = try scheme.join(shares, k: v.k)
        #expect(secret == v.secret)
        #expect(secret.count == v.secret_length)
    }
}

@Test func csss257RebuildsFixtureSecretsFromRandomKSubsets() throws {
    let scheme = CSSS257Sharing()
    var rng = Xoshiro256StarStar(seed: 257)
    for v in try CSSSVector.load() {
        for _ in 0..<20 {
            var idx = Array(v.shares.indices)
            rng.shuffle(&idx)
            let m = rng.int(in: v.k...v.n)
            let subset = idx.prefix(m).map { Array(v.shares[$0].utf8) }
            #expect(try scheme.join(subset, k: v.k).secret == v.secret)
        }
    }
}

@Test func csss257WritesSharesInTheFixtureFormat() throws {
    let scheme = CSSS257Sharing()
    var rng = Xoshiro256StarStar(seed: 9)
    for v in try CSSSVector.load() {
        let (shares, _) = try scheme.split(v.secret, k: v.k, n: v.n, rng: &rng)
        #expect(shares.count == v.shares.count)
        for (ours, theirs) in zip(shares, v.shares) {
            #expect(ours.count == theirs.utf8.count)
            #expect(ours.count == 6 + 2 * v.secret_length)
            // Same header (x, k, marker); the values differ because the coefficients do.
            #expect(Array(ours.prefix(6)) == Array(theirs.utf8.prefix(6)))
            #expect(ours.allSatisfy { Array("0123456789ABCDEFG".utf8).contains($0) })
        }
        #expect(try scheme.join(shares, k: v.k).secret == v.secret)
    }
}
