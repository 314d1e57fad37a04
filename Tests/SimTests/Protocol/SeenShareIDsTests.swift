import Testing
@testable import GrouperModel
import SimKernel

/// `SeenShareIDs` answers exactly as a plain set of every downloaded id would, on the lists a
/// server can produce: ids ever-increasing, visibility fixed at store time, deletions anywhere.
@Test func seenShareIDsMatchAPlainSetOnServerLikeLists() {
    var rng = Xoshiro256StarStar(seed: 77)
    for _ in 0..<200 {
        var stored: [(id: Int, visible: Bool)] = []
        var nextID = 1
        var fast = SeenShareIDs(), reference = Set<Int>()
        for _ in 0..<60 {
            for _ in 0..<rng.int(in: 0...6) { stored.append((nextID, rng.chance(0.7))); nextID += 1 }
            stored.removeAll { _ in rng.chance(0.15) }                      // TTL sweeps, restarts
            if rng.chance(0.05) { stored.removeAll() }
            let listed = stored.filter(\.visible).map(\.id)
            let expected = listed.filter { !reference.contains($0) }
            #expect(fast.unseen(in: listed) == expected)
            // Download some of them (a get may miss shares deleted in between), or forget some.
            for id in expected where rng.chance(0.8) { fast.insert(id); reference.insert(id) }
            if rng.chance(0.1), let id = listed.randomElement(using: &rng) { fast.remove(id); reference.remove(id) }
            #expect(fast.ids == fast.ids.sorted() && Set(fast.ids).count == fast.ids.count)
            #expect(fast.ids.count <= listed.count + 6 * 60)
        }
    }
}

@Test func seenShareIDsForgetWhatNoListCanHoldAgain() {
    var seen = SeenShareIDs()
    for id in [3, 5, 9] { seen.insert(id) }
    seen.insert(4)                                                     // out of order: kept sorted
    #expect(seen.ids == [3, 4, 5, 9])
    #expect(seen.unseen(in: [5, 6, 9, 10]) == [6, 10])
    #expect(seen.ids == [5, 9])                                        // 3 and 4 can never be listed again
    #expect(seen.unseen(in: []) == [] && seen.ids.isEmpty)
}
