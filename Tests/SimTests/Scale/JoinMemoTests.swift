import Testing
import SimKernel
@testable import GrouperModel

/// The run's shared memo of joins (issue #16): whatever shares it is given — subsets, other
/// orders, altered or malformed shares, messages that share a slot — it returns exactly what
/// the scheme's `join` returns or throws, and it joins again whenever the shares differ.
@Suite struct JoinMemoTests {
    typealias Outcome = Result<[UInt8], SharingError>

    static func outcome(_ body: () throws(SharingError) -> (secret: [UInt8], work: SharingWork)) -> (Outcome, SharingWork?) {
        do {
            let (s, w) = try body()
            return (.success(s), w)
        } catch {
            return (.failure(error), nil)
        }
    }

    /// Random share sets of a few messages: subsets in either order, shares with one byte
    /// shifted, shares cut short, repeated x, too few shares.
    static func shareSet(_ all: [[UInt8]], kind: SharingSchemeKind, _ rng: inout Xoshiro256StarStar) -> [[UInt8]] {
        var picked = all.filter { _ in rng.next() % 3 != 0 }
        if rng.next() % 2 == 0 { picked.reverse() }
        switch rng.next() % 8 {
        case 0 where !picked.isEmpty:
            let j = Int(rng.next() % UInt64(picked.count))
            picked[j] = kind.altered(picked[j], symbol: Int(rng.next() % 4), delta: Int(rng.next() % 255) + 1)
        case 1 where !picked.isEmpty: picked[0].removeLast()
        case 2 where !picked.isEmpty: picked.append(picked[0])
        default: break
        }
        return picked
    }

    @Test(arguments: SharingSchemeKind.allCases)
    func memoReturnsWhatTheJoinReturns(_ kind: SharingSchemeKind) throws {
        let scheme = kind.makeScheme(), memo = JoinMemo()
        var rng = Xoshiro256StarStar(seed: 1616)
        let secrets: [[UInt8]] = (0..<3).map { m in (0..<(20 + m)).map { _ in UInt8(truncatingIfNeeded: rng.next()) } }
        let shares = try secrets.map { try scheme.split($0, k: 2, n: 4, rng: &rng).shares }
        // Message 0 and message slotCount share direct-mapped slots more often than not.
        let numbers: [Int32] = [0, Int32(JoinMemo.slotCount), 7]
        for _ in 0..<3000 {
            let m = Int(rng.next() % 3), k = 2 + Int(rng.next() % 2)
            let given = Self.shareSet(shares[m], kind: kind, &rng)
            let expected = Self.outcome { () throws(SharingError) in try scheme.join(given, k: k) }
            let got = Self.outcome { () throws(SharingError) in try memo.join(given, k: k, number: numbers[m], scheme: scheme) }
            #expect(got.0 == expected.0)
            #expect(got.1 == expected.1)
        }
        #expect(memo.hits > 100, "equal share sets were joined once")
        #expect(memo.misses > 100)
    }

    @Test func byteEqualityComparesContentNotStorage() {
        let a: [UInt8] = [1, 2, 3], b = a
        var c = a
        c[2] = 4
        #expect(ByteArrays.equal(a, b))
        #expect(ByteArrays.equal(a, Array([1, 2, 3])))
        #expect(!ByteArrays.equal(a, c))
        #expect(!ByteArrays.equal(a, [1, 2]))
        #expect(ByteArrays.equal([], []))
    }
}
