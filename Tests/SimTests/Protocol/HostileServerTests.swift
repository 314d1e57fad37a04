import Testing
import SimKernel
@testable import GrouperModel

/// Hostile servers and the receivers' rebuild policies (issue #11) on small hand-checked runs:
/// f(2,4,3), device 0 writes five objects once each at t = 1…5 s; push-only receivers, no
/// confirms, so the only messages are the five updates.
@Suite struct HostileServerTests {
    static func system(rebuild: RebuildPolicy = .firstK, ttl: SimDuration = .hours(1), devices: Int = 3,
                       scheme: SharingSchemeKind = .gf256, coalitions: [Coalition] = [],
                       variant: ProtocolVariant = .thesis) throws -> GrouperSystem {
        var c = try SystemConfig(devices: devices, servers: 4, k: 2, s: 3, ttl: ttl, variant: variant, scheme: scheme, seed: 5)
        c.confirm = ConfirmPolicy(period: nil, onReconnect: false)
        c.receive = ReceivePolicy(onPush: true, pullPeriod: nil, onReconnect: true)
        c.rebuild = rebuild
        c.coalitions = coalitions
        return try GrouperSystem(config: c)
    }

    static func writeFive(_ s: GrouperSystem, until end: SimDuration = .minutes(1), objects: Int = 5) {
        for i in 1...objects { s.update(device: 0, objectID: "o\(i)", size: 400, at: SimTime.zero + .seconds(Int64(i))) }
        s.run(until: SimTime.zero + end)
    }

    static func total(_ s: GrouperSystem, _ k: CounterKind) -> Int { s.counters.total(k) }

    /// first-k joins shares of servers 0 and 1: every rebuild meets the altered share, and
    /// each either fails to parse (dropped, logged) or is accepted with content nobody
    /// wrote — which no-phantom reports. (no-recovery, so no resend adds rebuilds; 20 objects,
    /// since roughly a third of altered bytes keep the JSON valid.)
    @Test(arguments: SharingSchemeKind.allCases)
    func tamperFirstKAcceptsCorruptedContent(scheme: SharingSchemeKind) throws {
        let s = try Self.system(scheme: scheme, variant: .noRecovery)
        s.setMisbehaviour(.tamper(fraction: 1), id: 0, server: 0, at: .zero)
        Self.writeFive(s, objects: 20)
        let corrupted = Self.total(s, .corruptedDeliveries), dropped = Self.total(s, .corruptRebuilds)
        #expect(corrupted + dropped == 40)
        #expect(corrupted >= 1, "this seed gives at least one altered update that still parses")
        let phantoms = s.checkNoPhantom().count
        #expect(phantoms >= 1 && phantoms <= corrupted, "a corrupted update may carry an older version and lose")
        #expect(s.log.contains { $0.text.hasPrefix("accepted corrupted content") })
        // Each dropped rebuild is logged under the id of a message that was written (a partial
        // message keeps its id's number; the registry gives the id back), and a receiver
        // rebuilds each message once (no recovery), so it names each id at most once.
        let written = Set(s.writes.map(\.messageID))
        let named = s.log.compactMap { e in
            e.text.hasPrefix("corrupt rebuild of message ") ? (e.device, String(e.text.dropFirst(27))) : nil
        }
        #expect(named.count == dropped && named.allSatisfy { written.contains($0.1) }, "\(named.prefix(3)) among \(written.count) written")
        for d in 1..<3 {
            let ids = named.filter { $0.0 == d }.map(\.1)
            #expect(Set(ids).count == ids.count && !ids.isEmpty, "device \(d) names \(ids)")
        }
    }

    /// check sees 4 shares off one polynomial: nothing delivered, nothing corrupted, each
    /// (receiver, message) detected once and left unrecoverable.
    @Test(arguments: SharingSchemeKind.allCases)
    func tamperCheckDeliversNothingCorrupted(scheme: SharingSchemeKind) throws {
        let s = try Self.system(rebuild: .check, scheme: scheme)
        s.setMisbehaviour(.tamper(fraction: 1), id: 0, server: 0, at: .zero)
        Self.writeFive(s)
        #expect(Self.total(s, .corruptedDeliveries) == 0 && Self.total(s, .messagesRebuilt) == 0)
        #expect(Self.total(s, .tamperDetected) == 10)
        #expect(s.unrecoverableMessages == 10)
        #expect(s.objects(device: 1).isEmpty && s.objects(device: 2).isEmpty)
        #expect(s.checkNoPhantom().isEmpty)
    }

    /// correct with 4 shares and k = 2 corrects 1 bad share: everything delivered intact.
    @Test(arguments: SharingSchemeKind.allCases)
    func tamperCorrectDeliversEverything(scheme: SharingSchemeKind) throws {
        let s = try Self.system(rebuild: .correct, scheme: scheme)
        s.setMisbehaviour(.tamper(fraction: 1), id: 0, server: 0, at: .zero)
        Self.writeFive(s)
        #expect(Self.total(s, .tamperCorrected) == 10 && Self.total(s, .tamperDetected) == 10)
        #expect(Self.total(s, .corruptedDeliveries) == 0 && s.unrecoverableMessages == 0)
        for d in 1...2 { #expect(s.objects(device: d).map(\.content) == s.objects(device: 0).map(\.content)) }
        #expect(s.objects(device: 1).count == 5)
        #expect(s.check().passed, "\(s.check().findings)")
    }

    /// fraction 0 changes nothing (but the command event): same counters, stores and log.
    @Test func tamperFractionZeroIsHonest() throws {
        let honest = try Self.system(), zero = try Self.system()
        zero.setMisbehaviour(.tamper(fraction: 0), id: 0, server: 0, at: .zero)
        Self.writeFive(honest)
        Self.writeFive(zero)
        #expect(honest.counters.rows.map(\.value) == zero.counters.rows.map(\.value))
        #expect(honest.counters.rows.map(\.key) == zero.counters.rows.map(\.key))
        #expect((0..<3).allSatisfy { honest.objects(device: $0).map(\.content) == zero.objects(device: $0).map(\.content) })
        #expect(honest.log == zero.log)
    }

    /// Two servers withholding: first-k still finds k = 2 shares, check (needs 3) waits forever.
    @Test(arguments: [ServerMisbehaviour.WithholdMode.get, .list])
    func withholdStarvesCheckButNotFirstK(mode: ServerMisbehaviour.WithholdMode) throws {
        for policy in [RebuildPolicy.firstK, .check] {
            let s = try Self.system(rebuild: policy)
            for j in 0..<2 { s.setMisbehaviour(.withhold(mode: mode, fraction: 1), id: 0, server: j, at: .zero) }
            Self.writeFive(s)
            #expect(Self.total(s, .messagesRebuilt) == (policy == .firstK ? 10 : 0), "\(policy)")
            #expect(s.objects(device: 1).count == (policy == .firstK ? 5 : 0))
            #expect(Self.total(s, .tamperDetected) == 0)
        }
    }

    /// early-delete (10 min on server 0, group TTL 1 h): server 0 is empty after 12 min, the
    /// others still hold the five shares; the TTL checker reports the server, and passes.
    @Test func earlyDeleteEmptiesOneServer() throws {
        let s = try Self.system()
        s.setMisbehaviour(.earlyDelete(ttl: .minutes(10)), id: 0, server: 0, at: .zero)
        Self.writeFive(s, until: .minutes(12))
        #expect(s.serverSnapshot(0).shares.isEmpty)
        #expect((1..<4).allSatisfy { s.serverSnapshot($0).shares.count == 5 })
        let ttl = s.checkTTL()
        #expect(ttl.count == 1 && ttl[0].kind == .server && ttl[0].message.contains("early-delete"))
        #expect(s.check().passed)
    }

    /// keep on server 0, group TTL 10 min: after 30 min it still holds all five shares and the
    /// others none; the TTL checker names the server (kind server) instead of failing.
    @Test func keepHoldsSharesPastTheTTL() throws {
        let s = try Self.system(ttl: .minutes(10))
        s.setMisbehaviour(.keep, id: 0, server: 0, at: .zero)
        Self.writeFive(s, until: .minutes(30))
        #expect(s.serverSnapshot(0).shares.count == 5)
        #expect((1..<4).allSatisfy { s.serverSnapshot($0).shares.isEmpty })
        let ttl = s.checkTTL()
        #expect(ttl.map(\.kind) == [.server] && ttl[0].message.contains("keep"))
        #expect(s.check().passed)
    }

    /// Coalition {0, 1} (k = 2) holds both shares of every message from its upload until the
    /// TTL sweep: 5 messages exposed, each for about a TTL. A lone server is never exposed;
    /// with keep the exposure lasts to the end of the run.
    @Test func collusionExposure() throws {
        let ttl = SimDuration.minutes(10), end = SimDuration.minutes(40)
        let s = try Self.system(ttl: ttl, coalitions: [Coalition(name: "c", servers: [0, 1]), Coalition(name: "alone", servers: [2])])
        Self.writeFive(s, until: end)
        #expect(s.coalitionExposedMessages == 5)
        // Uploads at ~1–5 s; sweeps every 60 s delete shares at most a period after the TTL.
        #expect(s.coalitionExposureSeconds >= 5 * ttl.seconds - 5 && s.coalitionExposureSeconds <= 5 * (ttl.seconds + 60))
        let kept = try Self.system(ttl: ttl, coalitions: [Coalition(name: "c", servers: [0, 1])])
        for j in 0..<2 { kept.setMisbehaviour(.keep, id: 0, server: j, at: .zero) }
        Self.writeFive(kept, until: end)
        #expect(kept.coalitionExposedMessages == 5)
        #expect(kept.coalitionExposureSeconds > 5 * (end.seconds - 10))
        let lone = try Self.system(ttl: ttl, coalitions: [Coalition(name: "alone", servers: [3])])
        Self.writeFive(lone, until: end)
        #expect(lone.coalitionExposedMessages == 0 && lone.coalitionExposureSeconds == 0)
    }

    /// stale: after a re-put of message m, server 0 lists the new share id but serves the bytes
    /// of the share it replaced; an honest server serves the new bytes.
    @Test func staleServesTheReplacedShare() throws {
        let s = try Self.system()
        let node = s.world.serverNodes[0]
        node.setMisbehaviour(0, .stale)
        let key = try #require(s.accessKey(device: 0, server: 0)), reader = try #require(s.accessKey(device: 1, server: 0))
        func request(_ key: String, _ call: ServerCall) -> ServerRequest {
            ServerRequest(requestID: 1, device: 0, groupID: s.groupID, key: key, call: call)
        }
        func put(_ bytes: [UInt8]) -> Result<ServerReply, ServerError> {
            node.respond(request(key, .transferPut([ShareUpload(messageID: "m", receiver: nil, share: bytes)])), now: .zero)
        }
        #expect(put([1, 10, 11]) == .success(.stored(1)))
        #expect(put([1, 20, 21]) == .success(.stored(1)))
        guard case .success(.shareIDs(let ids)) = node.respond(request(reader, .transferList), now: .zero) else {
            Issue.record("list failed"); return
        }
        #expect(ids.count == 1)
        guard case .success(.shares(let got)) = node.respond(request(reader, .transferGet(ShareIDs(ids))), now: .zero) else {
            Issue.record("get failed"); return
        }
        #expect(got.map(\.share) == [[1, 10, 11]])
        node.setMisbehaviour(0, nil)
        guard case .success(.shares(let honest)) = node.respond(request(reader, .transferGet(ShareIDs(ids))), now: .zero) else {
            Issue.record("get failed"); return
        }
        #expect(honest.map(\.share) == [[1, 20, 21]])
    }

    /// correct with server 3 down gets 3 shares (t = 0): it detects the bad one, cannot
    /// correct, keeps the shares and delivers nothing; another round brings nothing new and
    /// decodes nothing again. A message stored on all four servers is corrected at once.
    @Test func correctRetriesWhenMoreSharesArrive() throws {
        let s = try Self.system(rebuild: .correct, variant: .noRecovery)   // no resend of o1…o5
        s.setMisbehaviour(.tamper(fraction: 1), id: 0, server: 0, at: .zero)
        s.setServerState(.refusing, server: 3, at: .zero)
        s.setServerState(.up, server: 3, at: SimTime.zero + .minutes(2))
        for i in 1...5 { s.update(device: 0, objectID: "o\(i)", size: 400, at: SimTime.zero + .seconds(Int64(i))) }
        s.run(until: SimTime.zero + .minutes(1))
        #expect(Self.total(s, .tamperDetected) == 10 && s.unrecoverableMessages == 10)
        #expect(s.objects(device: 1).isEmpty)
        // The upload reached servers 0–2 only (s = 3); server 3 never gets these shares, so a
        // later round still has 3 shares: nothing new to try.
        s.receive(device: 1, at: SimTime.zero + .minutes(3))
        s.run(until: SimTime.zero + .minutes(4))
        #expect(s.unrecoverableMessages == 10 && Self.total(s, .tamperDetected) == 10)
        // A new message written while all four are up is corrected at once.
        s.update(device: 0, objectID: "o6", size: 400, at: SimTime.zero + .minutes(5))
        s.run(until: SimTime.zero + .minutes(6))
        #expect(Self.total(s, .tamperCorrected) == 2)
        #expect(s.objects(device: 1).map(\.id) == ["o6"])
    }

    /// A behaviour switched off again: shares served after the switch are honest.
    @Test func tamperWindowEnds() throws {
        let s = try Self.system(variant: .noRecovery)
        s.setMisbehaviour(.tamper(fraction: 1), id: 0, server: 0, at: .zero)
        s.setMisbehaviour(nil, id: 0, server: 0, at: SimTime.zero + .seconds(Int64(30)))
        s.update(device: 0, objectID: "late", size: 400, at: SimTime.zero + .minutes(1))
        Self.writeFive(s, until: .minutes(2))
        #expect(Self.total(s, .corruptedDeliveries) + Self.total(s, .corruptRebuilds) == 10)
        for d in 1...2 {
            #expect(s.objects(device: d).first { $0.id == "late" }?.content == s.objects(device: 0).first { $0.id == "late" }?.content)
        }
    }

    @Test func correctNeedsTwoSharesBeyondK() {
        var c = SystemConfig(devices: 2, threshold: .f233)
        c.rebuild = .correct
        #expect(throws: SystemConfigError.self) { try GrouperSystem(config: c) }
        c.rebuild = .check
        #expect(throws: Never.self) { try GrouperSystem(config: c) }
    }
}
