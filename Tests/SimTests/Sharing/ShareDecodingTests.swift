import Testing
@testable import GrouperModel
import SimKernel

/// Reference decoder: try every k-subset of the points, keep the polynomial that passes
/// through all but ≤ t of them (unique when t ≤ (m − k)/2). Returns f(0) and the points off it.
private func bruteForceColumn<F: DecodingField>(_: F.Type, xs: [Int], ys: [Int], k: Int, t: Int) -> (value: Int, errors: [Int])? {
    for subset in kSubsets(of: xs.count, k) {
        let points = subset.map { xs[$0] }
        let values = xs.map { x in
            zip(FieldPolynomial<F>.lagrangeWeights(points: points, at: x), subset).reduce(0) { F.add($0, F.multiply($1.0, ys[$1.1])) }
        }
        let errors = xs.indices.filter { values[$0] != ys[$0] }
        if errors.count <= t {
            let w0 = FieldPolynomial<F>.lagrangeWeights(points: points, at: 0)
            return (zip(w0, subset).reduce(0) { F.add($0, F.multiply($1.0, ys[$1.1])) }, errors)
        }
    }
    return nil
}

/// All k-element subsets of 0..<m in lexicographic order.
private func kSubsets(of m: Int, _ k: Int) -> [[Int]] {
    if k == 0 { return [[]] }
    if m < k { return [] }
    return kSubsets(of: m - 1, k) + kSubsets(of: m - 1, k - 1).map { $0 + [m - 1] }
}

private func distinctXs(_ m: Int, rng: inout Xoshiro256StarStar) -> [Int] {
    var xs: [Int] = []
    while xs.count < m {
        let x = Int(rng.next() % 255) + 1
        if !xs.contains(x) { xs.append(x) }
    }
    return xs
}

/// Berlekamp–Welch against brute force on random columns with 0…t+2 errors.
private func columnCases<F: DecodingField>(_: F.Type, modulus: Int, seed: UInt64) {
    var rng = Xoshiro256StarStar(seed: seed)
    for _ in 0..<sharingPropertySeeds(default: 300) {
        let k = Int(rng.next() % 4) + 1
        let m = k + Int(rng.next() % 6)
        let t = (m - k) / 2
        let xs = distinctXs(m, rng: &rng)
        let f = (0..<k).map { _ in Int(rng.next() % UInt64(modulus)) }
        var ys = xs.map { FieldPolynomial<F>.evaluate(f, at: $0) }
        let wrong = Int(rng.next() % UInt64(min(m, t + 2) + 1))
        var hit: [Int] = []
        while hit.count < wrong {
            let i = Int(rng.next() % UInt64(m))
            if hit.contains(i) { continue }
            hit.append(i)
            ys[i] = F.add(ys[i], Int(rng.next() % UInt64(modulus - 1)) + 1)
        }
        let decoded = BerlekampWelch<F>.decode(xs: xs, ys: ys, k: k, maxErrors: t)
        let reference = bruteForceColumn(F.self, xs: xs, ys: ys, k: k, t: t)
        #expect(decoded?.coefficients[0] == reference?.value, "k=\(k) m=\(m) errors=\(wrong)")
        #expect(decoded?.errors == reference?.errors, "k=\(k) m=\(m) errors=\(wrong)")
        if wrong <= t {
            #expect(decoded?.coefficients == f)
            #expect(decoded?.errors == hit.sorted())
        }
    }
}

@Test func berlekampWelchMatchesBruteForceGF256() { columnCases(GF256Field.self, modulus: 256, seed: 11) }
@Test func berlekampWelchMatchesBruteForceMod257() { columnCases(Mod257Field.self, modulus: 257, seed: 12) }

@Test func fieldPolynomialDivision() {
    // (x + 2)(x + 3) = x² + 5x + 6 mod 257: dividing by x + 3 leaves x + 2, remainder 0.
    let (q, r) = FieldPolynomial<Mod257Field>.divide([6, 5, 1], byMonic: [3, 1])
    #expect(q == [2, 1] && r == [0])
    let (q2, r2) = FieldPolynomial<Mod257Field>.divide([7, 5, 1], byMonic: [3, 1])
    #expect(q2 == [2, 1] && r2 == [1])
}

private func split(_ kind: SharingSchemeKind, _ secret: [UInt8], k: Int, n: Int, seed: UInt64) throws -> [[UInt8]] {
    var rng = Xoshiro256StarStar(seed: seed)
    return try kind.makeScheme().split(secret, k: k, n: n, rng: &rng).shares
}

/// Every set of ≤ 2 wholly bad shares among 7 (k = 3): `correct` recovers and names them,
/// `check` refuses, and with 3 bad shares `correct` never claims the right bad set.
@Test(arguments: SharingSchemeKind.allCases)
func correctRecoversEveryBadPairOfSeven(kind: SharingSchemeKind) throws {
    let secret = Array("a message of some length, 40 bytes long.".utf8)
    let shares = try split(kind, secret, k: 3, n: 7, seed: 3)
    let scheme = kind.makeScheme()
    var rng = Xoshiro256StarStar(seed: 4)
    for bad in kSubsets(of: 7, 0) + kSubsets(of: 7, 1) + kSubsets(of: 7, 2) {
        var given = shares
        for i in bad {
            for p in secret.indices { given[i] = kind.altered(given[i], symbol: p, delta: Int(rng.next() % 255) + 1) }
        }
        let corrected = try scheme.rebuild(given, k: 3, policy: .correct)
        #expect(corrected.secret == secret, "bad \(bad)")
        #expect(corrected.badShares == bad)
        #expect(corrected.consistent == bad.isEmpty)
        let checked = try scheme.rebuild(given, k: 3, policy: .check)
        #expect(checked.secret == (bad.isEmpty ? secret : nil))
    }
}

/// The bound explore's safety oracle relies on. Among k + 1 shares (k = 7) one altered share
/// is always seen, whatever its delta; two altered shares on one symbol pass `check` for the
/// one delta pair that makes them another codeword, and the rebuild then yields another secret.
@Test(arguments: SharingSchemeKind.allCases)
func checkSeesOneAlteredShareAndTwoCanLineUp(kind: SharingSchemeKind) throws {
    let secret: [UInt8] = [0x47, 0x72, 0x6F, 0x75]
    let shares = Array(try split(kind, secret, k: 7, n: 9, seed: 13).prefix(8))
    let scheme = kind.makeScheme()
    for i in shares.indices {
        for delta in 1...255 {
            var given = shares
            given[i] = kind.altered(given[i], symbol: 1, delta: delta)
            #expect(try scheme.rebuild(given, k: 7, policy: .check).secret == nil, "share \(i) delta \(delta)")
        }
    }
    var linedUp = 0
    for i in shares.indices {
        for j in shares.indices where j > i {
            var accepted: [[UInt8]] = []
            for delta in 1...255 {
                var given = shares
                given[i] = kind.altered(given[i], symbol: 1, delta: 1)
                given[j] = kind.altered(given[j], symbol: 1, delta: delta)
                if let s = try scheme.rebuild(given, k: 7, policy: .check).secret { accepted.append(s) }
            }
            #expect(accepted.count <= 1, "shares \(i), \(j)")
            #expect(accepted.allSatisfy { $0 != secret && $0[0] == secret[0] && $0[2...] == secret[2...] })
            linedUp += accepted.count
        }
    }
    // gf256 lines up every pair; csss257 misses a pair when the matching delta is 256.
    #expect(linedUp >= (kind == .gf256 ? 28 : 24), "\(linedUp) of 28 pairs line up")
}

/// One wrong symbol at every position of every share: located and corrected.
@Test(arguments: SharingSchemeKind.allCases)
func correctLocatesAnErrorAtEveryPosition(kind: SharingSchemeKind) throws {
    let secret: [UInt8] = Array(0..<37).map { UInt8($0 * 7 % 256) }
    let shares = try split(kind, secret, k: 2, n: 5, seed: 5)
    let scheme = kind.makeScheme()
    for i in shares.indices {
        for p in secret.indices {
            var given = shares
            given[i] = kind.altered(given[i], symbol: p, delta: p % 255 + 1)
            let r = try scheme.rebuild(given, k: 2, policy: .correct)
            #expect(r.secret == secret && r.badShares == [i], "share \(i) position \(p)")
            #expect(try scheme.rebuild(given, k: 2, policy: .check).secret == nil)
        }
    }
}

/// Whole-message decoding against column-by-column brute force, with errors scattered over
/// shares and positions (often more bad shares than t, each column within its bound or not).
@Test(arguments: SharingSchemeKind.allCases)
func correctMatchesColumnBruteForce(kind: SharingSchemeKind) throws {
    var rng = Xoshiro256StarStar(seed: 6)
    let scheme = kind.makeScheme()
    for _ in 0..<sharingPropertySeeds(default: 120) {
        let k = Int(rng.next() % 3) + 1, n = k + 1 + Int(rng.next() % 5)
        let length = Int(rng.next() % 6) + 1
        let secret = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        var shares = try split(kind, secret, k: k, n: n, seed: rng.next())
        let errors = Int(rng.next() % UInt64(n + 1))
        for _ in 0..<errors {
            let i = Int(rng.next() % UInt64(n)), p = Int(rng.next() % UInt64(length))
            shares[i] = kind.altered(shares[i], symbol: p, delta: Int(rng.next() % 255) + 1)
        }
        let r = try scheme.rebuild(shares, k: k, policy: .correct)
        let t = (n - k) / 2
        var expected: [UInt8]? = []
        var union = Set<Int>()
        for p in 0..<length {
            let ys = shares.indices.map { symbolValue(kind, shares[$0], p) }
            let xs = Array(1...n)
            let column = kind == .gf256 ? bruteForceColumn(GF256Field.self, xs: xs, ys: ys, k: k, t: t)
                                        : bruteForceColumn(Mod257Field.self, xs: xs, ys: ys, k: k, t: t)
            guard let column, column.value < 256 else { expected = nil; break }
            expected?.append(UInt8(column.value))
            union.formUnion(column.errors)
        }
        #expect(r.secret == expected, "k=\(k) n=\(n) errors=\(errors)")
        if expected != nil { #expect(r.badShares == union.sorted()) }
        let checked = try scheme.rebuild(shares, k: k, policy: .check)
        #expect(checked.consistent == (r.secret != nil && r.badShares.isEmpty))
    }
}

private func symbolValue(_ kind: SharingSchemeKind, _ share: [UInt8], _ p: Int) -> Int {
    switch kind {
    case .gf256: return Int(share[1 + p])
    case .csss257:
        let hi = Int(CSSS257Text.digitValue[Int(share[6 + 2 * p])]), lo = Int(CSSS257Text.digitValue[Int(share[7 + 2 * p])])
        return hi << 4 | lo
    }
}

@Test(arguments: SharingSchemeKind.allCases)
func rebuildPoliciesNeedSharesBeyondK(kind: SharingSchemeKind) throws {
    let shares = try split(kind, [1, 2, 3], k: 3, n: 5, seed: 7)
    let scheme = kind.makeScheme()
    #expect(try scheme.rebuild(Array(shares.prefix(3)), k: 3, policy: .firstK).secret == [1, 2, 3])
    for policy in [RebuildPolicy.check, .correct] {
        #expect(throws: SharingError.notEnoughShares(needed: 4, got: 3)) {
            try scheme.rebuild(Array(shares.prefix(3)), k: 3, policy: policy)
        }
        #expect(try scheme.rebuild(Array(shares.prefix(4)), k: 3, policy: policy).secret == [1, 2, 3])
    }
    // With 4 shares and 1 bad, `correct` (t = 0) detects but cannot correct.
    var given = Array(shares.prefix(4))
    given[1] = kind.altered(given[1], symbol: 0, delta: 9)
    let r = try scheme.rebuild(given, k: 3, policy: .correct)
    #expect(r.secret == nil && !r.consistent)
    // first-k on the same shares: gf256 joins the first 3 (garbage); csss257 joins all (garbage or a 256).
    let joined = try? scheme.rebuild(given, k: 3, policy: .firstK).secret
    #expect(joined != [1, 2, 3])
}
