import Testing
import SimKernel
@testable import GrouperModel

/// A server's shares as `FrontTrimmedArray` and the TTL sweep's expired prefix, each against
/// the plain form: `Array` under random appends, front removals, removals in the middle,
/// replacements and filters; `expiredShares` against reading every share
/// (`expiredSharesByScan`) on random put, re-put and sweep histories, with save times on a
/// coarse grid (so shares saved exactly at now − TTL occur), one or two groups with equal or
/// different TTLs, and puts out of time order.
@Suite struct ServerSweepTests {
    @Test func frontTrimmedArrayBehavesLikeAnArray() {
        var rng = Xoshiro256StarStar(seed: 32)
        for _ in 0..<200 {
            var a = FrontTrimmedArray<[Int]>(), plain: [[Int]] = []
            var next = 0
            for _ in 0..<rng.int(in: 1...300) {
                switch rng.nextInt(below: 7) {
                case 0, 1, 2:
                    for _ in 0..<rng.int(in: 1...5) { a.append([next]); plain.append([next]); next += 1 }
                case 3:
                    let k = rng.int(in: 0...plain.count)
                    a.removeFirst(k); plain.removeFirst(k)
                case 4 where !plain.isEmpty:
                    let i = rng.nextInt(below: plain.count)
                    #expect(a.remove(at: i) == plain.remove(at: i))
                case 5 where !plain.isEmpty:
                    let i = rng.nextInt(below: plain.count)
                    a[i] = [-i]; plain[i] = [-i]
                case 6:
                    let m = rng.int(in: 2...5)
                    a.removeAll { $0[0] % m == 0 }; plain.removeAll { $0[0] % m == 0 }
                default:
                    a.removeAll(); plain.removeAll()
                }
                #expect(Array(a) == plain)
                #expect(a.count == plain.count && a.first == plain.first && a.last == plain.last)
                #expect(a.indices == plain.indices)
            }
        }
    }

    struct Server {
        var server = UntrustedServer(index: 0, rng: Xoshiro256StarStar(seed: 9))
        var keys: [String: String] = [:]   // group id -> a member's access key
        var ttl: [String: SimDuration] = [:]

        mutating func call(_ group: String, _ key: String, _ c: ServerCall, at t: SimTime) -> Result<ServerReply, ServerError> {
            server.handle(ServerRequest(requestID: 1, device: 0, groupID: group, key: key, call: c), now: t)
        }

        mutating func addGroup(_ g: String, ttl: SimDuration) {
            guard case .success(.masterKey(let m)) = call(g, "", .groupRegister(groupID: g, name: g, ownerNode: "A"),
                                                          at: .zero) else { Issue.record("register \(g)"); return }
            _ = call(g, m, .groupInit(k: 1, n: 1, s: 1, ttl: ttl), at: .zero)
            guard case .success(.accessKey(let a)) = call(g, m, .userAdd(node: "A", isOwner: true), at: .zero)
            else { Issue.record("user in \(g)"); return }
            keys[g] = a
            self.ttl[g] = ttl
        }
    }

    static func history(seed: UInt64, ttls: [SimDuration], backwards: Bool) {
        var rng = Xoshiro256StarStar(seed: seed)
        var s = Server()
        for (i, ttl) in ttls.enumerated() { s.addGroup("G\(i)", ttl: ttl) }
        var now = SimTime.zero
        for step in 0..<400 {
            now = now + .minutes(Int64(rng.int(in: 0...2)))
            let g = "G\(rng.nextInt(below: ttls.count))"
            if rng.nextInt(below: 3) > 0 {
                let at = backwards && rng.nextInt(below: 20) == 0 ? now - .minutes(3) : now
                let id = "m\(rng.nextInt(below: 40))"   // often a re-put: removed from the middle
                _ = s.call(g, s.keys[g]!, .transferPut([ShareUpload(messageID: id, receiver: nil, share: [1])]), at: at)
            } else {
                let before = Array(s.server.shares)
                let fast = s.server.expiredShares(now: now), plain = s.server.expiredSharesByScan(now: now)
                #expect(fast == plain, "seed \(seed) step \(step)")
                let kept = before.filter { !($0.saveAt < now - s.server.groups[$0.group].ttl) }
                #expect(s.server.sweep(now: now) == before.count - kept.count)
                #expect(Array(s.server.shares) == kept, "seed \(seed) step \(step)")
                #expect(s.server._checkInvariants() == nil)
            }
        }
    }

    @Test(arguments: 0..<12) func theExpiredPrefixIsWhatAScanFinds(seed: Int) {
        let ttls: [[SimDuration]] = [[.minutes(10)], [.minutes(10), .minutes(10)], [.minutes(10), .minutes(4)]]
        Self.history(seed: UInt64(seed), ttls: ttls[seed % 3], backwards: seed >= 6)
    }
}
