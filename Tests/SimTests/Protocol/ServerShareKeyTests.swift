import Testing
import SimKernel
@testable import GrouperModel

/// `UntrustedServer.ShareKey` hashes a digest of its message id (`MessageIDDigest`) instead of
/// the id's bytes: the digest against its plain byte-at-a-time reference, a table of these keys
/// against a table of plain synthesized-`Hashable` keys, and a server's puts, re-puts and sweeps
/// against its invariants (the key index names exactly the stored shares).
@Suite struct ServerShareKeyTests {
    /// The key as the synthesized conformance hashes and compares it.
    struct PlainKey: Hashable { var group: Int; var messageID: String; var receiver: Int? }

    /// Ids of every length around the 8-byte words, ids that differ only in one byte (head,
    /// word boundary, tail), non-ASCII and bridged-looking ids, the 36-character UUID form.
    static var ids: [String] {
        var out = (0...40).map { String(repeating: "a", count: $0) }
        out += ["aaaaaaab", "baaaaaaa", "aaaaaaaab", "aaaaaaaba", "é", "e\u{301}", "K", "\u{212A}", "größe-ü", "🙂🙂🙂🙂🙂"]
        var rng = Xoshiro256StarStar(seed: 3)
        out += (0..<20).map { _ in MessageIDGenerator.make(using: &rng) }
        return out
    }

    @Test func digestEqualsThePlainDigest() {
        for id in Self.ids { #expect(MessageIDDigest.of(id) == MessageIDDigest.plain(id), "\(id)") }
        // A string built piece by piece (another storage) digests as its literal.
        var built = ""
        for c in "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0" { built.append(c) }
        #expect(MessageIDDigest.of(built) == MessageIDDigest.of("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"))
        // Canonically equivalent strings are equal strings: equal digests.
        for (a, b) in [("é", "e\u{301}"), ("K", "\u{212A}"), ("café-0123456789abcdef", "cafe\u{301}-0123456789abcdef")] {
            #expect(a == b)
            #expect(MessageIDDigest.of(a) == MessageIDDigest.of(b), "\(a)")
        }
    }

    @Test func keyTableAnswersAsAPlainKeyTable() {
        let ids = Self.ids
        var rng = Xoshiro256StarStar(seed: 11)
        var fast: [UntrustedServer.ShareKey: Int] = [:]
        var plain: [PlainKey: Int] = [:]
        for step in 0..<20_000 {
            let g = rng.int(in: 0...2), id = ids[rng.int(in: 0...(ids.count - 1))]
            let r: Int? = rng.chance(0.5) ? nil : rng.int(in: 0...3)
            let k = UntrustedServer.ShareKey(group: g, messageID: id, receiver: r)
            let p = PlainKey(group: g, messageID: id, receiver: r)
            switch rng.int(in: 0...2) {
            case 0: #expect(fast.updateValue(step, forKey: k) == plain.updateValue(step, forKey: p))
            case 1: #expect(fast.removeValue(forKey: k) == plain.removeValue(forKey: p))
            default: #expect(fast[k] == plain[p])
            }
            #expect(fast.count == plain.count)
        }
        for (p, v) in plain { #expect(fast[UntrustedServer.ShareKey(group: p.group, messageID: p.messageID, receiver: p.receiver)] == v) }
    }

    @Test(arguments: [ShareKeying.perMessage, .perReceiver])
    func putsRePutsAndSweepsKeepTheKeyIndexExact(keying: ShareKeying) {
        var server = UntrustedServer(index: 0, rng: Xoshiro256StarStar(seed: 5), keying: keying)
        func call(_ key: String, _ c: ServerCall, at t: SimTime) -> Result<ServerReply, ServerError> {
            server.handle(ServerRequest(requestID: 1, device: 0, groupID: "G", key: key, call: c), now: t)
        }
        guard case .success(.masterKey(let master)) = call("", .groupRegister(groupID: "G", name: "g", ownerNode: "A"), at: .zero)
        else { Issue.record("register failed"); return }
        _ = call(master, .groupInit(k: 2, n: 3, s: 2, ttl: .minutes(10)), at: .zero)
        var keys: [String] = []
        for node in ["A", "B", "C"] {
            if case .success(.accessKey(let k)) = call(master, .userAdd(node: node, isOwner: node == "A"), at: .zero) { keys.append(k) }
        }
        let ids = Array(Self.ids.suffix(12))
        var rng = Xoshiro256StarStar(seed: 8)
        for step in 0..<600 {
            let t = SimTime.zero + .seconds(Int64(step * 5))
            let receiver: String? = rng.chance(0.5) ? nil : ["A", "B", "C"][rng.int(in: 0...2)]
            let up = ShareUpload(messageID: ids[rng.int(in: 0...(ids.count - 1))], receiver: receiver, share: [UInt8(step % 256)])
            #expect(call(keys[rng.int(in: 0...2)], .transferPut([up]), at: t) == .success(.stored(1)))
            if step % 50 == 49 { server.sweep(now: t) }
            #expect(server._checkInvariants() == nil, "step \(step)")
            // Every put stores the one share of its key: confirm finds it.
            guard case .success(.missing(let missing)) = call(keys[0], .transferConfirm([up.messageID]), at: t) else {
                Issue.record("confirm failed"); return
            }
            #expect(missing.isEmpty || (keying == .perReceiver && receiver != nil))
        }
    }
}
