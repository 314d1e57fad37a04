import Testing
import SimKernel
@testable import GrouperModel

/// A request carries its group id and key in one shared box (`RequestCredentials`). A device's
/// boxes follow its access keys (a box whose key stays is kept), and the server's sender memo, which compares boxes, answers
/// as its two dictionaries do (the plain resolution) whichever box a request carries: the
/// shared one, an equal copy, or other strings.
@Suite struct RequestCredentialsTests {
    @Test func deviceCredentialsFollowItsAccessKeys() throws {
        let system = try GrouperSystem(config: SystemConfig(devices: 3, servers: 3, k: 2, s: 2))
        var rng = Xoshiro256StarStar(seed: 3207)
        for d in 0..<3 {
            let node = system.world.deviceNodes[d]
            for step in 0..<300 {
                let before = (0..<3).map { node.request(.transferList, to: $0, purpose: .notify).credentials }
                let changed = Int(rng.next() % 3)
                node.accessKeys[changed] = rng.next() % 4 == 0 ? nil : "key-\(d)-\(step % 7)"
                for j in 0..<3 {
                    let r = node.request(.transferList, to: j, purpose: .notify)
                    #expect(r.key == (node.accessKeys[j] ?? "") && r.credentials.groupID == system.groupID)
                    // A server whose key stayed sees the same box (its sender memo's pointer test).
                    if j != changed || r.credentials == before[j] { #expect(r.credentials === before[j]) }
                }
            }
        }
    }

    @Test func senderMemoAnswersAsTheDictionaries() {
        var server = UntrustedServer(index: 0, rng: Xoshiro256StarStar(seed: 11))
        var shared: [RequestCredentials] = []   // each member's own box, as its device sends it
        for group in ["G1", "G2"] {
            guard case .success(.masterKey(let master)) = server.handle(
                ServerRequest(requestID: 0, device: 0, groupID: group, key: "",
                              call: .groupRegister(groupID: group, name: group, ownerNode: "A")), now: .zero)
            else { Issue.record("register failed"); return }
            for node in ["A", "B", "C"] {
                if case .success(.accessKey(let key)) = server.handle(
                    ServerRequest(requestID: 0, device: 0, groupID: group, key: master,
                                  call: .userAdd(node: node, isOwner: node == "A")), now: .zero) {
                    shared.append(RequestCredentials(groupID: group, key: key))
                }
            }
        }
        #expect(shared.count == 6)
        var rng = Xoshiro256StarStar(seed: 4711)
        for step in 0..<5_000 {
            let pick = shared[Int(rng.next() % UInt64(shared.count))]
            let other = shared[Int(rng.next() % UInt64(shared.count))]
            let credentials = switch rng.next() % 5 {
            case 0: RequestCredentials(groupID: pick.groupID, key: pick.key)   // equal strings, another box
            case 1: RequestCredentials(groupID: pick.groupID, key: other.key)  // a key of this or the other group
            case 2: RequestCredentials(groupID: pick.groupID, key: "nope")
            case 3: RequestCredentials(groupID: "G9", key: pick.key)
            default: pick
            }
            let request = ServerRequest(requestID: step, device: Int(rng.next() % 4), credentials: credentials,
                                        call: .userState)
            #expect(server.handle(request, now: .zero) == Self.plainAnswer(server, credentials))
        }
    }

    /// `user/state` answered from `groupByID` and `userByKey` alone.
    static func plainAnswer(_ server: UntrustedServer, _ c: RequestCredentials) -> Result<ServerReply, ServerError> {
        guard let g = server.groupByID[c.groupID] else { return .failure(.unknownGroup(c.groupID)) }
        guard let u = server.userByKey[c.key], server.users[u].group == g else {
            return .failure(.badKey(endpoint: "user/state"))
        }
        return .success(.state("up"))
    }

    @Test func equalityIsByStrings() {
        let a = RequestCredentials(groupID: "G", key: "k")
        var r = ServerRequest(requestID: 1, device: 0, groupID: "G", key: "k", call: .transferList)
        #expect(r.credentials == a && r == ServerRequest(requestID: 1, device: 0, credentials: a, call: .transferList))
        r.key = "other"
        #expect(r.credentials != a && r.groupID == "G" && r.key == "other")
        r.groupID = "H"
        #expect(r.credentials == RequestCredentials(groupID: "H", key: "other"))
    }
}
