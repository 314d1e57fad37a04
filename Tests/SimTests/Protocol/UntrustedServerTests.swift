import Testing
import SimKernel
@testable import GrouperModel

/// The web service on its own: entities, endpoints, authentication, TTL sweep.
@Suite struct UntrustedServerTests {
    struct Fixture {
        var server = UntrustedServer(index: 0, rng: Xoshiro256StarStar(seed: 9))
        var master = "", alice = "", bob = ""
        let group = "G1"

        init() {
            guard case .success(.masterKey(let m)) = call("", .groupRegister(groupID: group, name: "g", ownerNode: "A"))
            else { Issue.record("register failed"); return }
            master = m
            _ = call(master, .groupInit(k: 2, n: 3, s: 2, ttl: .minutes(10)))
            if case .success(.accessKey(let a)) = call(master, .userAdd(node: "A", isOwner: true)) { alice = a }
            if case .success(.accessKey(let b)) = call(master, .userAdd(node: "B", isOwner: false)) { bob = b }
        }

        mutating func call(_ key: String, _ c: ServerCall, at t: SimTime = .zero) -> Result<ServerReply, ServerError> {
            server.handle(ServerRequest(requestID: 1, device: 0, groupID: group, key: key, call: c), now: t)
        }
    }

    static func put(_ id: String, to receiver: String? = nil) -> ServerCall {
        .transferPut([ShareUpload(messageID: id, receiver: receiver, share: [1, 2, 3])])
    }

    @Test func wrongKeysAreRefusedAndChangeNothing() {
        var f = Fixture()
        let before = f.server
        #expect(f.call("nope", .userAdd(node: "C", isOwner: false)) == .failure(.masterKeyRequired(endpoint: "user/add")))
        #expect(f.call(f.alice, .userAdd(node: "C", isOwner: false)) == .failure(.masterKeyRequired(endpoint: "user/add")))
        #expect(f.call(f.alice, .groupInit(k: 1, n: 1, s: 1, ttl: .seconds(Int64(1))))
            == .failure(.masterKeyRequired(endpoint: "group/init")))
        #expect(f.call("nope", Self.put("m1")) == .failure(.badKey(endpoint: "transfer/put")))
        #expect(f.call(f.master, Self.put("m1")) == .failure(.badKey(endpoint: "transfer/put")))
        #expect(f.call("nope", .transferList) == .failure(.badKey(endpoint: "transfer/list")))
        #expect(f.call("nope", .groupInfo) == .failure(.badKey(endpoint: "group/info")))
        #expect(f.call(f.alice, .groupRegister(groupID: "G1", name: "x", ownerNode: "A")) == .failure(.groupExists("G1")))
        var other = f
        other.server = f.server
        #expect(other.server.handle(ServerRequest(requestID: 1, device: 0, groupID: "G2", key: f.alice,
                                                  call: .transferList), now: .zero) == .failure(.unknownGroup("G2")))
        #expect(f.call(f.alice, Self.put("m1", to: "Z")) == .failure(.unknownReceiver("Z")))
        #expect(f.call(f.alice, .userNotify(receiver: "Z", category: "c", content: "x")) == .failure(.unknownReceiver("Z")))
        #expect(f.server.shares == before.shares && f.server.users == before.users && f.server.groups == before.groups)
    }

    @Test func listVisibilityOverwriteAndConfirm() {
        var f = Fixture()
        #expect(f.call(f.alice, Self.put("m1")) == .success(.stored(1)))
        #expect(f.call(f.alice, Self.put("m2", to: "A")) == .success(.stored(1)))  // unicast to herself
        #expect(f.call(f.bob, Self.put("m3", to: "A")) == .success(.stored(1)))
        #expect(f.call(f.alice, .transferList) == .success(.shareIDs([3])))      // own multicast excluded
        #expect(f.call(f.bob, .transferList) == .success(.shareIDs([1])))        // unicast to A hidden
        // A re-put replaces the share: one per message id, new id, new save time.
        #expect(f.call(f.alice, Self.put("m1"), at: SimTime.zero + .minutes(5)) == .success(.stored(1)))
        #expect(f.server.shares.filter { $0.messageID == "m1" }.count == 1)
        #expect(f.call(f.bob, .transferList) == .success(.shareIDs([4])))
        #expect(f.call(f.bob, .transferConfirm(["m1", "m9", "m3"])) == .success(.missing(["m9"])))
        guard case .success(.shares(let got)) = f.call(f.bob, .transferGet([4, 1, 3])) else {
            Issue.record("get failed"); return
        }
        #expect(got.map(\.shareID) == [4])  // 1 is gone, 3 is Bob's own
        #expect(got.first?.sender == "A")
    }

    @Test func sweepDeletesSharesOlderThanTTL() {
        var f = Fixture()
        _ = f.call(f.alice, Self.put("old"), at: SimTime.zero + .minutes(1))
        _ = f.call(f.alice, Self.put("new"), at: SimTime.zero + .minutes(4))
        #expect(f.server.sweep(now: SimTime.zero + .minutes(11)) == 0)  // saveAt == now − TTL stays
        #expect(f.server.sweep(now: SimTime.zero + .minutes(11) + .seconds(Int64(1))) == 1)
        #expect(f.server.shares.map(\.messageID) == ["new"])
        #expect(f.call(f.bob, .transferConfirm(["old", "new"])) == .success(.missing(["old"])))
    }

    @Test func notifyAndInfo() {
        var f = Fixture()
        _ = f.call(f.bob, .userDeviceToken("tok-B"))
        #expect(f.call(f.alice, .userNotify(receiver: "*", category: "c", content: "x")) == .success(.notified(["B"])))
        #expect(f.call(f.bob, .userNotify(receiver: "*", category: "c", content: "x")) == .success(.notified([])))
        guard case .success(.info(let info)) = f.call(f.bob, .groupInfo) else { Issue.record("info"); return }
        #expect(info.members == 2 && info.threshold == 2 && info.servers == 3 && info.safe == 2 && info.ownerNode == "A")
        #expect(f.call(f.alice, .userState) == .success(.state("up")))
    }
}
