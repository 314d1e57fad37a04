import Testing
import SimKernel
@testable import GrouperModel

/// `StoredReuploads` (copies keyed by packed id and requester numbers) against a dictionary
/// keyed by (message id, requester) strings that keeps every copy: random copies of thousands
/// of messages for a few requesters over a long time, so pairs repeat within and beyond a TTL
/// and the pruning runs many times; the table answers only copies less than a TTL old, as the
/// dictionary filtered by age does, and stays bounded.
@Suite struct StoredReuploadsTests {
    @Test func answersWhatTheStringKeyedDictionaryAnswers() {
        var rng = Xoshiro256StarStar(seed: 77)
        let ttl = SimDuration.seconds(3_000)
        let ids = (0..<6_000).map { _ in MessageIDGenerator.make(using: &rng) }
        let requesters = (0..<12).map { "device-\($0)" } + ["é-\u{301}", "e\u{301}", "\u{E9}"]
        var numbers: [String: Int32] = [:]
        var table = StoredReuploads(), reference: [ReuploadKey: (at: SimTime, servers: Int)] = [:]
        var now = SimTime(nanoseconds: 0), repeats = 0, stale = 0, largest = 0
        for step in 0..<60_000 {
            now = now + .seconds(Int64(rng.next() % 3))
            let id = ids[Int(rng.next() % UInt64(rng.next() % 2 == 0 ? 300 : ids.count))]
            let n = numbers[id] ?? Int32(numbers.count)
            numbers[id] = n
            let r = requesters[Int(rng.next() % UInt64(requesters.count))], servers = Int(rng.next() % 5)
            let key = ReuploadKey(messageID: id, requester: r)
            let before = reference.updateValue((now, servers), forKey: key)
            let want = before.flatMap { now - $0.at < ttl ? $0 : nil }
            let got = table.store(number: n, requester: r, at: now, servers: servers, ttl: ttl)
            #expect(got?.at == want?.at && got?.servers == want?.servers, "step \(step)")
            if want != nil { repeats += 1 } else if before != nil { stale += 1 }
            largest = max(largest, table.count)
        }
        let live = reference.values.filter { now - $0.at < ttl }.count
        #expect(repeats > 10_000 && stale > 1_000)
        #expect(table.count >= live && largest <= max(4097, 2 * live + 2 * 4096), "\(largest) pairs kept, \(live) live")
    }

    /// A copy a TTL old is not answered; one a nanosecond younger is, also after pruning.
    @Test func aCopyExactlyATTLOldIsNotAnswered() {
        let ttl = SimDuration.seconds(100), t0 = SimTime(nanoseconds: 1_000)
        var table = StoredReuploads()
        _ = table.store(number: 1, requester: "a", at: t0, servers: 2, ttl: ttl)
        _ = table.store(number: 2, requester: "a", at: t0, servers: 3, ttl: ttl)
        #expect(table.store(number: 1, requester: "a", at: t0 + ttl, servers: 2, ttl: ttl) == nil)
        let younger = table.store(number: 2, requester: "a", at: t0 + ttl - .nanoseconds(1), servers: 3, ttl: ttl)
        #expect(younger?.at == t0 && younger?.servers == 3)
        // Past 4,096 pairs the old ones are pruned; a fresh pair stays answerable.
        for i in 0..<5_000 { _ = table.store(number: Int32(10 + i), requester: "b", at: t0, servers: 1, ttl: ttl) }
        let late = t0 + ttl + ttl
        _ = table.store(number: 9, requester: "c", at: late, servers: 4, ttl: ttl)
        for i in 0..<5_000 { _ = table.store(number: Int32(20_000 + i), requester: "b", at: late, servers: 1, ttl: ttl) }
        #expect(table.count < 9_000)
        #expect(table.store(number: 9, requester: "c", at: late + .seconds(1), servers: 4, ttl: ttl)?.servers == 4)
    }
}
