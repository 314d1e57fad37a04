import Testing
import SimKernel
@testable import GrouperModel

/// `PartialTable` (a device's partial messages by id number) against a plain dictionary:
/// random inserts, in-place additions, removals by index and by number, lookups of absent
/// numbers, growth and compaction, over keys that collide in the index (multiples of a power
/// of two, negatives, dense runs).
@Suite struct PartialTableTests {
    static func key(_ rng: inout Xoshiro256StarStar) -> Int32 {
        switch rng.next() % 4 {
        case 0: return Int32(rng.next() % 64)                    // dense, like a run's numbers
        case 1: return Int32(truncatingIfNeeded: (rng.next() % 64) << 16)   // same low bits
        case 2: return -Int32(rng.next() % 8) - 1
        default: return Int32(truncatingIfNeeded: rng.next())
        }
    }

    static func check(_ t: PartialTable, _ reference: [Int32: PartialMessage], _ probe: Int32) {
        #expect(t.count == reference.count)
        #expect(Set(t.numbers) == Set(reference.keys) && t.numbers.count == reference.count)
        for (n, p) in reference {
            guard let i = t.index(of: n) else { Issue.record("number \(n) lost"); return }
            #expect(t.numbers[i] == n && t.values[i].count == p.count)
            #expect(t.values[i].shareIDs == p.shareIDs)
        }
        #expect((t.index(of: probe) != nil) == (reference[probe] != nil))
    }

    @Test func behavesLikeADictionary() {
        var rng = Xoshiro256StarStar(seed: 1663)
        var t = PartialTable(), reference: [Int32: PartialMessage] = [:]
        for step in 0..<40_000 {
            let n = Self.key(&rng), op = rng.next() % 8
            if op < 4 {   // a share arrives: the collect path
                let share = ShareDownload(shareID: step, messageID: "m\(n)", sender: "s", share: [UInt8(step & 0xFF)], saveAt: .zero, messageNumber: n)
                let server = Int(rng.next() % 3)
                let i = t.index(of: n) ?? t.insert(n, PartialMessage(servers: 3))
                t[at: i].add(share, server: server)
                reference[n, default: PartialMessage(servers: 3)].add(share, server: server)
            } else if op < 6, !reference.isEmpty {   // taken out by index (rebuilt)
                let i = Int(rng.next() % UInt64(t.count)), number = t.numbers[i]
                let p = t.remove(at: i)
                #expect(p.shareIDs == reference.removeValue(forKey: number)?.shareIDs)   // share ids are unique: the very partial
            } else if op == 6 {   // dropped by number, present or not
                t.remove(n)
                reference[n] = nil
            } else if step % 50 == 0 {
                t = t.compacted()
            }
            if step % 97 == 0 || reference.count < 3 { Self.check(t, reference, Self.key(&rng)) }
        }
        Self.check(t, reference, 7)
        while t.count > 0 { t.remove(at: 0) }   // emptied from the front: every move of the last
        #expect(t.index(of: 7) == nil && t.numbers.isEmpty)
    }

    /// Tables that stay small, as a device's between rounds: most lookups, inserts and removals
    /// cross the boundary between the inline numbers and the index (four, then more, then fewer).
    @Test func smallTablesAcrossTheInlineNumbers() {
        var rng = Xoshiro256StarStar(seed: 4242)
        var t = PartialTable(), reference: [Int32: PartialMessage] = [:]
        for step in 0..<30_000 {
            let n = Int32(rng.next() % 12) + (step % 3 == 0 ? 16 : 0)   // few numbers, some sharing home slots
            let grow = reference.count < 3 || (reference.count < 9 && rng.next() % 2 == 0)
            if grow {
                let share = ShareDownload(shareID: step, messageID: "m\(n)", sender: "s", share: [1], saveAt: .zero, messageNumber: n)
                let server = Int(rng.next() % 3)
                let i = t.index(of: n) ?? t.insert(n, PartialMessage(servers: 3))
                t[at: i].add(share, server: server)
                reference[n, default: PartialMessage(servers: 3)].add(share, server: server)
            } else if rng.next() % 3 == 0 {
                t.remove(n)
                reference[n] = nil
            } else if t.count > 0 {
                let i = Int(rng.next() % UInt64(t.count)), number = t.numbers[i]
                #expect(t.remove(at: i).shareIDs == reference.removeValue(forKey: number)?.shareIDs)
            }
            if step % 1000 == 999 { t = t.compacted() }
            Self.check(t, reference, Int32(rng.next() % 30))
        }
    }
}
