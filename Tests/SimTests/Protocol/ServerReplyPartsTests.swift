import Testing
@testable import GrouperModel
import SimKernel

/// `ShareDownloads`, `ShareIDs` and `PushMemo` against the plain structures they stand for.
@Suite struct ServerReplyPartsTests {
    func download(_ i: Int) -> ShareDownload {
        ShareDownload(shareID: i, messageID: "m\(i % 3)", sender: "s\(i % 2)", share: [UInt8(i & 255)],
                      saveAt: SimTime(nanoseconds: Int64(i)), messageNumber: Int32(i % 3))
    }

    /// Built by `append` or from a sequence, it has the array's elements, order, count, and
    /// equality, for every length from 0 to 6 and every expected size given to `append`.
    @Test func shareDownloadsBehaveAsTheArray() {
        for n in 0...6 {
            let plain = (0..<n).map { download(100 + $0) }
            for expected in [0, 1, n, n + 3] {
                var built = ShareDownloads()
                for s in plain { built.append(s, expected: expected) }
                #expect(built.count == n)
                #expect(Array(built) == plain)
                #expect(built.map(\.shareID) == plain.map(\.shareID))
                #expect(built.first == plain.first)
                #expect(built == ShareDownloads(plain))
            }
            if n > 0 {
                var other = plain
                other[n - 1].share = [99]
                #expect(ShareDownloads(plain) != ShareDownloads(other), "a changed last share makes them differ")
                #expect(ShareDownloads(plain) != ShareDownloads(plain.dropLast()), "so does a shorter list")
            }
        }
        let literal: ShareDownloads = [download(1), download(2)]
        #expect(literal.map(\.shareID) == [1, 2])
        #expect(ShareDownloads().isEmpty && ShareDownloads() == [])
    }

    /// `drain` hands over the elements in order, each once, whether the reply is its shares'
    /// only holder or a copy of it lives on (which keeps its own elements).
    @Test func drainHandsOverTheElementsInOrder() {
        for n in 0...7 {
            let plain = (0..<n).map { download(200 + $0) }
            var drained: [ShareDownload] = []
            ShareDownloads(plain).drain { drained.append($0) }
            #expect(drained == plain, "\(n) shares, unique")
            let kept = ShareDownloads(plain)
            var again: [ShareDownload] = []
            let copy = kept
            copy.drain { again.append($0) }
            #expect(again == plain && Array(kept) == plain, "\(n) shares, shared")
        }
    }

    /// Built by `append`, from a sequence, as a run or cut by `keepFirst`, a get's ids are the
    /// array's: elements, order, count and equality, for runs, broken runs, repeats, descending
    /// ids and ids at the ends of `Int`.
    @Test func shareIDsBehaveAsTheArray() {
        var rng = Xoshiro256StarStar(seed: 32)
        var cases: [[Int]] = [[], [7], [1, 2, 3], [1, 2, 4], [3, 2, 1], [5, 5, 6], [1, 2, 3, 9, 10, 11],
                              [Int.max - 1, Int.max], [Int.max, Int.min], [Int.min, Int.min + 1], [-1, 0, 1]]
        for _ in 0..<300 {
            var ids: [Int] = []
            var next = Int(rng.next() % 50)
            for _ in 0..<rng.int(in: 0...8) {
                ids.append(next)
                next += rng.chance(0.7) ? 1 : Int(rng.next() % 5) - 2   // mostly consecutive
            }
            cases.append(ids)
        }
        for plain in cases {
            var built = ShareIDs()
            for id in plain { built.append(id) }
            #expect(Array(built) == plain && built.count == plain.count)
            #expect(built.indices.map { built[$0] } == plain)
            #expect(built == ShareIDs(plain) && ShareIDs(plain).elementsEqual(plain))
            for n in 0...plain.count {
                var cut = built
                cut.keepFirst(n)
                #expect(Array(cut) == Array(plain.prefix(n)))
                cut.append(1_000)
                #expect(Array(cut) == Array(plain.prefix(n)) + [1_000], "appending after a cut")
            }
            if let last = plain.last {
                var other = plain
                other[other.count - 1] = last &+ 1
                #expect(ShareIDs(plain) != ShareIDs(other), "a changed last id makes them differ")
                #expect(ShareIDs(plain) != ShareIDs(plain.dropLast()), "so does a shorter list")
            }
        }
        #expect(Array(ShareIDs(run: 4...7)) == [4, 5, 6, 7] && ShareIDs(run: 4...7) == [4, 5, 6, 7])
        #expect(ShareIDs() == [] && ShareIDs().isEmpty)
    }

    /// Whatever order notifications come in, and however their lists change, the memo's
    /// devices are the table's, in the lists' order.
    @Test func pushMemoAnswersAsTheTable() {
        let nodes = (0..<8).map { "node-\($0)-" + String(repeating: "x", count: 24) }
        let table = Dictionary(uniqueKeysWithValues: nodes.enumerated().map { ($1, $0 * 10) })
        var memo = PushMemo()
        var rng = Xoshiro256StarStar(seed: 7)
        for _ in 0..<500 {
            let requester = Int(rng.next() % 5)
            var list = nodes.filter { _ in rng.next() % 4 != 0 }
            if rng.next() % 5 == 0 { list.append("unknown-node") }   // not in the table: skipped
            let expected = list.compactMap { table[$0] }
            #expect(memo.devices(of: list, from: requester, table) == expected)
            #expect(memo.devices(of: list, from: requester, table) == expected, "again, from the memo")
        }
        #expect(memo.devices(of: [nodes[1]], from: PushMemo.maxRequesters, table) == [10], "beyond the memo: looked up")
    }
}
