import Testing
import SimKernel
@testable import GrouperModel

/// A server's kept lists (`GroupShareList`: one list per group, each id with its sender and
/// receiver, and per member only a count of its hidden ids) answer `transfer/list` exactly as
/// the plain pass over the shares does (`incrementalLists` off), and the views they hand out
/// answer every query a receiver makes as the plain array of visible ids does. Random
/// histories on two servers fed the same requests: multicasts and unicasts, re-puts (removed
/// from the middle), TTL sweeps, restarts without data, members joining late, both keyings.
@Suite struct ServerListTests {
    struct Pair {
        var kept = UntrustedServer(index: 0, rng: Xoshiro256StarStar(seed: 5))
        var plain = UntrustedServer(index: 0, rng: Xoshiro256StarStar(seed: 5))
        /// Per group id: the master key and each member's (node, access key).
        var masters: [String: String] = [:]
        var members: [String: [(node: String, key: String)]] = [:]

        init(keying: ShareKeying) {
            kept = UntrustedServer(index: 0, rng: Xoshiro256StarStar(seed: 5), keying: keying)
            plain = UntrustedServer(index: 0, rng: Xoshiro256StarStar(seed: 5), keying: keying)
            plain.incrementalLists = false
        }

        /// Sends `c` to both servers; their answers must be equal.
        @discardableResult
        mutating func call(_ group: String, _ key: String, _ c: ServerCall, at t: SimTime) -> Result<ServerReply, ServerError> {
            let r = ServerRequest(requestID: 1, device: 0, groupID: group, key: key, call: c)
            let a = kept.handle(r, now: t), b = plain.handle(r, now: t)
            #expect(a == b, "\(c.endpoint)")
            return a
        }

        mutating func addGroup(_ g: String) {
            guard case .success(.masterKey(let m)) = call(g, "", .groupRegister(groupID: g, name: g, ownerNode: "n0"), at: .zero)
            else { Issue.record("register \(g)"); return }
            masters[g] = m
            call(g, m, .groupInit(k: 1, n: 1, s: 1, ttl: .minutes(30)), at: .zero)
        }

        mutating func addMember(_ g: String) {
            let node = "n\(members[g, default: []].count)"
            guard case .success(.accessKey(let a)) = call(g, masters[g]!, .userAdd(node: node, isOwner: node == "n0"), at: .zero)
            else { Issue.record("user \(node) in \(g)"); return }
            members[g, default: []].append((node, a))
        }
    }

    /// The view `list` answers every receiver query as the plain array `plain` of the same ids.
    static func expectSameQueries(_ list: ShareIDList, _ plain: [Int], _ rng: inout Xoshiro256StarStar) {
        #expect(Array(list) == plain && list.count == plain.count && list.first == plain.first)
        if !plain.isEmpty { #expect(list[plain.count - 1] == plain.last! && list[0] == plain[0]) }
        for x in [plain.randomElement(using: &rng), plain.last, plain.first.map { $0 - 1 }].compactMap({ $0 }) {
            let i = plain.filter { $0 <= x }.count
            #expect(list.upperBound(x) == i && Array(list.ids(after: x)) == Array(plain[i...]))
            #expect(list.ids(after: x, ifVisibleThrough: i).map(Array.init) == Array(plain[i...]))
            #expect(list.ids(after: x, ifVisibleThrough: i + 1) == nil)
        }
    }

    static func history(seed: UInt64, keying: ShareKeying) {
        var rng = Xoshiro256StarStar(seed: seed)
        var p = Pair(keying: keying)
        let groups = ["G0", "G1"]
        for g in groups {
            p.addGroup(g)
            for _ in 0..<3 { p.addMember(g) }
        }
        var now = SimTime.zero
        for _ in 0..<600 {
            now = now + .minutes(Int64(rng.int(in: 0...2)))
            let g = groups[rng.nextInt(below: groups.count)]
            let ms = p.members[g]!
            let sender = ms[rng.nextInt(below: ms.count)]
            switch rng.nextInt(below: 20) {
            case 0..<8:     // a multicast, often a re-put of an earlier message id
                let up = ShareUpload(messageID: "m\(rng.nextInt(below: 60))", receiver: nil, share: [1])
                p.call(g, sender.key, .transferPut([up]), at: now)
            case 8..<11:    // a unicast to a member (possibly the sender itself)
                let to = ms[rng.nextInt(below: ms.count)].node
                let up = ShareUpload(messageID: "m\(rng.nextInt(below: 60))", receiver: to, share: [2])
                p.call(g, sender.key, .transferPut([up]), at: now)
            case 11..<17:   // a list by a random member, compared query by query
                let a = p.call(g, sender.key, .transferList, at: now)
                guard case .success(.shareIDs(let list)) = a else { Issue.record("list failed"); continue }
                let u = p.plain.users.indices.first { p.plain.users[$0].accessKey == sender.key }!
                let plain = p.plain.visibleShareIDs(group: p.plain.groupByID[g]!, user: u)
                expectSameQueries(list, plain, &rng)
            case 17, 18:
                #expect(p.kept.sweep(now: now) == p.plain.sweep(now: now))
            default:
                if rng.chance(0.3) { p.kept.dropAllShares(); p.plain.dropAllShares() }   // a restart without data
                else if ms.count < 8 { p.addMember(g) }                                    // a member joining late
            }
            #expect(Array(p.kept.shares) == Array(p.plain.shares))
            #expect(p.kept._checkInvariants() == nil)
        }
    }

    @Test(arguments: 0..<8) func keptListsAnswerAsAPassOverTheShares(seed: Int) {
        Self.history(seed: UInt64(seed), keying: seed % 2 == 0 ? .perReceiver : .perMessage)
    }

    @Test func aPlainListAnswersAsItsArray() {
        var rng = Xoshiro256StarStar(seed: 3)
        for _ in 0..<100 {
            var ids: [Int] = [], next = 0
            for _ in 0..<rng.int(in: 0...40) { next += rng.int(in: 1...3); ids.append(next) }
            Self.expectSameQueries(ShareIDList(ids), ids, &rng)
        }
    }
}
