import Testing
import SimKernel
@testable import GrouperModel

/// The sender and receiver cores driven through their inputs and effects alone: no `World`, no
/// `DeviceContext`, no network model, no CPU model. The test feeds an input (a command, a
/// server's reply, the end of CPU work) into a `CollectedEffects`, reads the effects it produced, and
/// performs them itself: it hands each request to an `UntrustedServer` and feeds the reply
/// back, and runs CPU work instantly.
@Suite struct ClientCoreTests {
    /// An owner and a member of a 2-device group on three servers, f(2,3,2), set up face to
    /// face (the one step that still goes through a context), with the member's first round over.
    static func group() throws -> (WorldlessClientTests.Harness, RunRecord) {
        let config = try SystemConfig(devices: 2, servers: 3, k: 2, s: 2, ttl: .hours(1))
        let directory = GroupDirectory(config: config, scheme: config.scheme.makeScheme(), streams: RandomStreams(rootSeed: 5))
        let stores = SharedStores(directory: directory)
        let record = RunRecord(config: config, registry: stores.registry)
        let h = WorldlessClientTests.Harness(directory: directory)
        h.devices = (0..<2).map {
            DeviceNode(index: $0, directory: directory, stores: stores, record: record, rng: Xoshiro256StarStar(seed: UInt64(9 + $0)))
        }
        h.devices[0].createGroup(WorldlessClientTests.Context(harness: h, device: 0))
        h.devices[0].invite(1, WorldlessClientTests.Context(harness: h, device: 0))
        h.run(until: SimTime.zero + .seconds(1))   // the member's first round, with nothing to get
        #expect(h.devices[1].isMember && h.devices[1].round == nil)
        return (h, record)
    }

    /// One step of `device` at `now`: the core's effects.
    static func step(at now: SimTime, _ body: (CollectedEffects) -> Void) -> [ClientEffect] {
        let s = CollectedEffects(now: now)
        body(s)
        return s.effects
    }

    static func requests(_ effects: [ClientEffect]) -> [ClientRequest] {
        effects.compactMap { if case .request(let r) = $0 { r } else { nil } }
    }

    static func logs(_ effects: [ClientEffect]) -> [String] {
        effects.compactMap { if case .log(let t) = $0 { t } else { nil } }
    }

    static func timings(_ effects: [ClientEffect]) -> [TransferTiming] {
        effects.compactMap { if case .timing(let t) = $0 { t } else { nil } }
    }

    /// What server `r.server` answers to `r` from `device` at `now`.
    static func answer(_ r: ClientRequest, from device: Int, at now: SimTime, _ h: WorldlessClientTests.Harness) -> RequestOutcome {
        let request = ServerRequest(requestID: 1, device: device, groupID: h.directory.groupID, key: r.key,
                                    call: r.call, sentAt: now)
        return RequestOutcome(h.servers[r.server].handle(request, now: now))
    }

    @Test func anUpdateAsksForCPUWorkFirstThenPutsOnEveryServerAndDecidesAtSStoredShares() throws {
        let (h, _) = try Self.group()
        let owner = h.devices[0], t = SimTime.zero + .seconds(10)
        let created = Self.step(at: t) { owner.senderUpdate(objectID: "note", size: 120, $0) }

        // Encoding and splitting are CPU work whose end is the next input; nothing is sent yet.
        #expect(Self.logs(created) == ["create update#1 note"])
        #expect(Self.requests(created).isEmpty)
        guard case .cpu(let work, .uploadReady(let job)?)? = created.last else { Issue.record("\(created)"); return }
        #expect(work > .zero)

        let ready = t + work
        let puts = Self.requests(Self.step(at: ready) { owner.cpuDone(.uploadReady(jobID: job), $0) })
        #expect(puts.map(\.server) == [0, 1, 2])
        #expect(puts.allSatisfy { $0.connected && $0.key == owner.accessKeys[$0.server] })
        #expect(puts.map(\.purpose).allSatisfy { if case .put(job, _, 1) = $0 { true } else { false } })

        // s = 2: the first stored answer decides nothing, the second decides success.
        let answered = ready + .milliseconds(200)
        var decisions: [[ClientEffect]] = []
        for put in puts {
            let outcome = Self.answer(put, from: 0, at: answered, h)
            #expect(outcome == .reply(.stored(1)))
            decisions.append(Self.step(at: answered) { owner.reply(to: put.purpose, outcome, $0) })
        }
        #expect(Self.timings(decisions[0]).isEmpty)
        let verdict = try #require(Self.timings(decisions[1]).first)
        #expect(verdict.succeeded && verdict.direction == .upload && verdict.messages == 1)
        #expect(verdict.start == t && verdict.end == answered && verdict.network == answered - ready)
        #expect(Self.logs(decisions[1]) == ["upload update#1 to *"])
        // After success the other members are notified through the first server that stored.
        #expect(Self.requests(decisions[1]).map(\.call) == [.userNotify(receiver: "*", category: "grouper", content: "new messages")])
        #expect(Self.timings(decisions[2]).isEmpty, "a late answer changes no verdict")
    }

    @Test func offlineARequestIsAskedForAsDisconnected() throws {
        let (h, _) = try Self.group()
        let member = h.devices[1]
        member.online = false
        let effects = Self.step(at: .zero) { member.send(.transferList, to: 2, purpose: .notify, $0) }
        #expect(Self.requests(effects).map(\.connected) == [false])
    }

    /// The whole exchange, performed by the test: the owner's update is uploaded, the server
    /// notifies the member, the member lists, gets, rebuilds and handles it.
    @Test func anUpdateTravelsFromOwnerToMemberThroughEffectsTheTestPerforms() throws {
        let (h, record) = try Self.group()
        var inputs: [(device: Int, body: (CollectedEffects) -> Void)] = [
            (0, { h.devices[0].senderUpdate(objectID: "note", size: 120, $0) }),
        ]
        var now = SimTime.zero + .seconds(10)
        var handled: [[GrouperMessage]] = [], timings: [TransferTiming] = [], steps = 0
        while !inputs.isEmpty {
            let (d, body) = inputs.removeFirst()
            steps += 1
            #expect(steps < 100, "the exchange ends")
            now = now + .milliseconds(10)
            for effect in Self.step(at: now, body) {
                switch effect {
                case .request(let r):
                    let outcome = Self.answer(r, from: d, at: now, h)
                    if case .reply(.notified(let nodes)) = outcome {
                        for n in nodes { if let m = h.directory.deviceByNode[n] { inputs.append((m, { h.devices[m].requestReceive($0) })) } }
                    }
                    inputs.append((d, { h.devices[d].reply(to: r.purpose, outcome, $0) }))
                case .cpu(_, let then?): inputs.append((d, { h.devices[d].cpuDone(then, $0) }))
                case .handled(let ms): handled.append(ms)
                case .timing(let t): timings.append(t)
                case .internalFailure(let text): Issue.record("internal failure: \(text)")
                case .cpu, .log, .count: break
                }
            }
        }
        let write = try #require(record.writes.first)
        #expect(handled.map { $0.map(\.messageID) } == [[write.messageID]], "the member's round handled the update once")
        #expect(h.devices[1].store.entry("note")?.version == write.version)
        #expect(timings.map(\.direction) == [.upload, .download] && timings.allSatisfy(\.succeeded))
        #expect(timings.map(\.device) == [0, 1])
    }
}
