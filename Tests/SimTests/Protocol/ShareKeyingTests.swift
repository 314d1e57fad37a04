import Testing
import SimKernel
@testable import GrouperModel

/// The server's share store keyed per receiver (every variant but as-built) against the
/// published per-message overwrite (as-built).
@Suite struct ShareKeyingTests {
    struct Fixture {
        var server: UntrustedServer
        var keys: [String: String] = [:]
        let group = "G1"

        init(_ keying: ShareKeying) {
            server = UntrustedServer(index: 0, rng: Xoshiro256StarStar(seed: 9), keying: keying)
            guard case .success(.masterKey(let master)) = call("", .groupRegister(groupID: group, name: "g", ownerNode: "A"))
            else { Issue.record("register failed"); return }
            _ = call(master, .groupInit(k: 2, n: 3, s: 2, ttl: .minutes(10)))
            for node in ["A", "B", "C", "D"] {
                if case .success(.accessKey(let k)) = call(master, .userAdd(node: node, isOwner: node == "A")) { keys[node] = k }
            }
        }

        mutating func call(_ key: String, _ c: ServerCall, at t: SimTime = .zero) -> Result<ServerReply, ServerError> {
            server.handle(ServerRequest(requestID: 1, device: 0, groupID: group, key: key, call: c), now: t)
        }
        mutating func put(_ by: String, _ id: String, to receiver: String?, _ byte: UInt8, at t: SimTime = .zero) {
            #expect(call(keys[by]!, .transferPut([ShareUpload(messageID: id, receiver: receiver, share: [byte])]), at: t)
                == .success(.stored(1)))
        }
        /// The share bytes `node` can fetch for message `id`.
        mutating func fetchable(_ node: String, _ id: String) -> [[UInt8]] {
            guard case .success(.shareIDs(let ids)) = call(keys[node]!, .transferList),
                  case .success(.shares(let got)) = call(keys[node]!, .transferGet(ShareIDs(ids))) else { return [] }
            return got.filter { $0.messageID == id }.map(\.share)
        }
    }

    @Test func perReceiverKeepsTheMulticastAndEveryRequestersCopy() {
        var f = Fixture(.perReceiver)
        f.put("A", "m1", to: nil, 1)
        f.put("A", "m1", to: "B", 2)
        f.put("A", "m1", to: "C", 3)
        #expect(f.fetchable("B", "m1") == [[1], [2]])
        #expect(f.fetchable("C", "m1") == [[1], [3]])
        #expect(f.fetchable("D", "m1") == [[1]])
        // A second copy for B replaces only B's (new id, TTL restarted); C's and the multicast stay.
        f.put("A", "m1", to: "B", 4, at: SimTime.zero + .minutes(5))
        #expect(f.server.shares.filter { $0.messageID == "m1" }.count == 3)
        #expect(f.fetchable("B", "m1") == [[1], [4]])
        #expect(f.server.holds(messageID: "m1", groupID: f.group, visibleTo: "D"))
        // The multicast share expires first; C's copy is no longer "held" for everyone.
        #expect(f.server.sweep(now: SimTime.zero + .minutes(11)) == 2)  // the multicast and C's copy
        #expect(f.call(f.keys["A"]!, .transferConfirm(["m1"])) == .success(.missing(["m1"])))
        #expect(f.fetchable("B", "m1") == [[4]])
        #expect(!f.server.holds(messageID: "m1", groupID: f.group, visibleTo: "D"))
        #expect(f.server.holds(messageID: "m1", groupID: f.group, visibleTo: "B"))
    }

    /// Asked for a requester, transfer/confirm counts the multicast share or that requester's
    /// own copy as held, never a copy for someone else; the published store is unchanged.
    @Test func confirmForARequesterCountsItsOwnCopy() {
        var f = Fixture(.perReceiver)
        f.put("A", "m1", to: "B", 1)
        #expect(f.call(f.keys["A"]!, .transferConfirm(["m1"])) == .success(.missing(["m1"])))
        #expect(f.call(f.keys["A"]!, .transferConfirm(["m1"], for: "B")) == .success(.missing([])))
        #expect(f.call(f.keys["A"]!, .transferConfirm(["m1"], for: "C")) == .success(.missing(["m1"])))
        f.put("A", "m2", to: nil, 2)
        #expect(f.call(f.keys["A"]!, .transferConfirm(["m1", "m2"], for: "C")) == .success(.missing(["m1"])))
        var published = Fixture(.perMessage)
        published.put("A", "m1", to: "B", 1)
        #expect(published.call(published.keys["A"]!, .transferConfirm(["m1", "m3"], for: "C")) == .success(.missing(["m3"])))
    }

    @Test func perMessageReplacesTheMulticastAndEarlierRequesters() {
        var f = Fixture(.perMessage)
        f.put("A", "m1", to: nil, 1)
        f.put("A", "m1", to: "B", 2)
        f.put("A", "m1", to: "C", 3)
        #expect(f.fetchable("B", "m1") == [])
        #expect(f.fetchable("D", "m1") == [])
        #expect(f.fetchable("C", "m1") == [[3]])
        // The published transfer/confirm counts C's copy as held, though B and D cannot fetch it.
        #expect(f.call(f.keys["A"]!, .transferConfirm(["m1"])) == .success(.missing([])))
        #expect(f.server.holds(messageID: "m1", groupID: f.group))
        #expect(!f.server.holds(messageID: "m1", groupID: f.group, visibleTo: "B"))
    }

    @Test func variantsChooseTheirStore() {
        #expect(ProtocolVariant.asBuilt.shareKeying == .perMessage)
        for v in [ProtocolVariant.thesis, .basicMulticast, .noRecovery] { #expect(v.shareKeying == .perReceiver) }
    }
}
