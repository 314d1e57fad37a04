import Testing
@testable import GrouperModel
import SimKernel

/// `SeenShareIDs` answers exactly as a plain set of every downloaded id would, on the lists a
/// server can produce: ids ever-increasing, visibility fixed at store time, deletions from the
/// front (TTL sweeps) and anywhere (re-puts, restarts). The server side is a real
/// `GroupShareList` with the member's count of hidden ids (a multicast of its own, unicasts to
/// others), so the compact shortcut sees the lists and generations a server would send.
@Test(arguments: [false, true])
func seenShareIDsMatchAPlainSetOnServerLikeLists(compact: Bool) {
    var rng = Xoshiro256StarStar(seed: 77)
    for _ in 0..<200 {
        var stored: [(id: Int, visible: Bool)] = []
        var group = GroupShareList(), hidden = 0   // member 0's view; members 1 and 2 send
        func listed(_ id: Int, visible: Bool, _ rng: inout Xoshiro256StarStar) -> ListedShare {
            if visible { return ListedShare(id: id, sender: 1, receiver: rng.chance(0.5) ? -1 : 0) }
            return rng.chance(0.5) ? ListedShare(id: id, sender: 0) : ListedShare(id: id, sender: 1, receiver: 2)
        }
        var nextID = 1
        var fast = SeenShareIDs(), reference = Set<Int>()
        for _ in 0..<60 {
            for _ in 0..<rng.int(in: 0...6) {
                let visible = rng.chance(0.7)
                stored.append((nextID, visible))
                group.append(listed(nextID, visible: visible, &rng))
                if !visible { hidden += 1 }
                nextID += 1
            }
            let sweep = rng.int(in: 0...2)                                  // TTL sweep: the oldest
            for e in stored.prefix(sweep) { group.remove(e.id); if !e.visible { hidden -= 1 } }
            stored.removeFirst(min(sweep, stored.count))
            for e in stored where rng.chance(0.03) {                        // re-puts: anywhere
                group.remove(e.id)
                if !e.visible { hidden -= 1 }
                stored.removeAll { $0.id == e.id }
            }
            if rng.chance(0.02) { stored.removeAll(); group.ids.removeAll(); group.head = 0; hidden = 0 }  // restart
            let list = group.list(for: 0, hidden: hidden)
            let listed = stored.filter(\.visible).map(\.id)
            #expect(Array(list) == listed && list.count == listed.count && list.indices.map { list[$0] } == listed)
            if let x = listed.randomElement(using: &rng) {
                let i = list.upperBound(x)
                #expect(i == listed.filter { $0 <= x }.count && Array(list.ids(after: x)) == Array(listed[i...]))
                #expect(Array(list.ids(after: x - 1)) == listed.filter { $0 >= x } && list.upperBound(x - 1) == i - 1)
                #expect(list.ids(after: x, ifVisibleThrough: i).map(Array.init) == Array(listed[i...]))
                #expect(list.ids(after: x, ifVisibleThrough: i - 1) == nil && list.ids(after: x, ifVisibleThrough: i + 1) == nil)
            }
            let expected = listed.filter { !reference.contains($0) }
            #expect(Array(fast.unseen(in: list, compact: compact)) == expected)
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
