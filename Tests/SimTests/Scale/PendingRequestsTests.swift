import Testing
import SimKernel
@testable import GrouperModel

/// A device's open requests kept as an id-sorted array (issue #16) behave like the dictionary
/// they replace: the same purpose back for an open id, nil for a late or repeated outcome, and
/// the open ids in increasing order for a disconnect.
@Suite struct PendingRequestsTests {
    static func key(_ p: RequestPurpose) -> String {
        switch p {
        case .put(let job, let server, let count): "put \(job) \(server) \(count)"
        case .list(let r, let server): "list \(r) \(server)"
        case .get(let r, let server): "get \(r) \(server)"
        case .existence(let t, let server): "existence \(t) \(server)"
        case .notify: "notify"
        }
    }

    @Test func behavesLikeADictionaryOfOpenRequests() {
        var rng = Xoshiro256StarStar(seed: 1606)
        var pending = PendingRequests(), reference: [Int: String] = [:], nextID = 1
        for step in 0..<20_000 {
            if rng.next() % 2 == 0 {
                let purpose: RequestPurpose = [.list(roundID: step, server: 1), .get(roundID: step, server: 2),
                                               .put(jobID: step, server: 0, count: 3), .notify][Int(rng.next() % 4)]
                nextID += 1 + Int(rng.next() % 3)   // other devices take ids in between
                pending.insert(nextID, purpose)
                reference[nextID] = Self.key(purpose)
            } else {
                // Mostly open ids, sometimes one closed before or never opened.
                let id = rng.next() % 4 == 0 ? Int(rng.next() % UInt64(nextID + 2)) : (reference.keys.min() ?? 0)
                #expect(pending.remove(id).map(Self.key) == reference.removeValue(forKey: id))
            }
            #expect(pending.count == reference.count)
            if step % 500 == 0 { #expect(pending.sortedIDs == reference.keys.sorted()) }
        }
        #expect(pending.isEmpty == reference.isEmpty)
    }

    /// Bursts of opens (past the inline entries, into the overflow) closed in any order, oldest
    /// first, newest first or at random: the same answers as the dictionary.
    @Test func burstsClosedInAnyOrder() {
        var rng = Xoshiro256StarStar(seed: 3216)
        var pending = PendingRequests(), reference: [Int: String] = [:], nextID = 0
        for burst in 0..<2_000 {
            for _ in 0..<Int(rng.next() % 12) {
                nextID += 1 + Int(rng.next() % 2)
                let purpose: RequestPurpose = rng.next() % 2 == 0 ? .get(roundID: burst, server: nextID % 3)
                    : .existence(taskID: nextID, server: burst % 5)
                pending.insert(nextID, purpose)
                reference[nextID] = Self.key(purpose)
            }
            for _ in 0..<Int(rng.next() % 12) {
                let open = reference.keys.sorted()
                let id = switch rng.next() % 4 {
                case 0: open.first ?? 0
                case 1: open.last ?? 0
                case 2: open.isEmpty ? 0 : open[Int(rng.next() % UInt64(open.count))]
                default: Int(rng.next() % UInt64(nextID + 2))   // maybe closed before, or never opened
                }
                #expect(pending.remove(id).map(Self.key) == reference.removeValue(forKey: id))
                #expect(pending.count == reference.count)
            }
            #expect(pending.sortedIDs == reference.keys.sorted())
        }
    }
}
