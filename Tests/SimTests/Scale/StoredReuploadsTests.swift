import Testing
import SimKernel
@testable import GrouperModel

/// `StoredReuploads` (copies keyed by packed id and requester numbers) against the dictionary
/// keyed by (message id, requester) strings it replaces, with the same pruning past 4,096
/// pairs: random copies of thousands of messages for a few requesters over a long time, so
/// pairs repeat within and beyond a TTL and the pruning runs many times.
@Suite struct StoredReuploadsTests {
    @Test func answersWhatTheStringKeyedDictionaryAnswers() {
        var rng = Xoshiro256StarStar(seed: 77)
        let ttl = SimDuration.seconds(3_000)
        let ids = (0..<6_000).map { _ in MessageIDGenerator.make(using: &rng) }
        let requesters = (0..<12).map { "device-\($0)" } + ["é-\u{301}", "e\u{301}", "\u{E9}"]
        var numbers: [String: Int32] = [:]
        var table = StoredReuploads(), reference: [ReuploadKey: (at: SimTime, servers: Int)] = [:]
        var now = SimTime(nanoseconds: 0), repeats = 0, prunes = 0
        for step in 0..<60_000 {
            now = now + .seconds(Int64(rng.next() % 3))
            let id = ids[Int(rng.next() % UInt64(rng.next() % 2 == 0 ? 300 : ids.count))]
            let n = numbers[id] ?? Int32(numbers.count)
            numbers[id] = n
            let r = requesters[Int(rng.next() % UInt64(requesters.count))], servers = Int(rng.next() % 5)
            let key = ReuploadKey(messageID: id, requester: r)
            let want = reference[key]
            if reference.count > 4096 { reference = reference.filter { now - $0.value.at < ttl }; prunes += 1 }
            reference[key] = (now, servers)
            let got = table.store(number: n, requester: r, at: now, servers: servers, ttl: ttl)
            #expect(got?.at == want?.at && got?.servers == want?.servers, "step \(step)")
            if want != nil { repeats += 1 }
        }
        #expect(table.count == reference.count && repeats > 10_000 && prunes > 20)
    }
}
