import Testing
import SimKernel
@testable import GrouperModel

/// The client's cores — sender, receiver and membership — driven through their inputs and
/// effects alone: no `World`, no `DeviceContext`, no network model, no CPU model. The test
/// feeds an input (a command, a server's reply, a setup call's answer, a hand-over, the end of
/// CPU work) into a `CollectedEffects`, reads the effects it produced, and performs them
/// itself: it hands each request and setup call to an `UntrustedServer` and feeds the answer
/// back, runs CPU work instantly, and delivers a hand-over to its device.
@Suite struct ClientCoreTests {
    /// Two devices of a group on three servers, f(2,3,2), nothing set up yet.
    static func devices() throws -> (WorldlessClientTests.Harness, RunRecord) {
        let config = try SystemConfig(devices: 2, servers: 3, k: 2, s: 2, ttl: .hours(1))
        let directory = GroupDirectory(config: config, scheme: config.scheme.makeScheme(), streams: RandomStreams(rootSeed: 5))
        let stores = SharedStores(directory: directory)
        let record = RunRecord(config: config, registry: stores.registry)
        let h = WorldlessClientTests.Harness(directory: directory)
        h.devices = (0..<2).map {
            DeviceNode(index: $0, directory: directory, stores: stores, record: record, rng: Xoshiro256StarStar(seed: UInt64(9 + $0)))
        }
        return (h, record)
    }

    /// An owner and a member, the group created and the member invited through effects the
    /// test performs (`Driver`), with the member's first round over.
    static func group() throws -> (WorldlessClientTests.Harness, RunRecord) {
        let (h, record) = try devices()
        let d = Driver(h, at: .zero)
        d.input(0) { h.devices[0].createGroup($0) }
        d.run()
        d.input(0) { h.devices[0].invite(1, $0) }
        d.run()
        #expect(h.devices[0].isMember && h.devices[1].isMember && h.devices[1].round == nil)
        #expect(h.devices[1].accessKeys.allSatisfy { $0 != nil })
        return (h, record)
    }

    /// The test's world for the cores: a queue of inputs, each run 10 ms after the one before,
    /// whose effects the driver performs. A request is answered by the server at once (offline:
    /// disconnected), and a notification queues a receive on each online member; a setup call
    /// is answered at once unless its server is in `silent`; CPU work is instant; a hand-over
    /// is the next input of its device.
    final class Driver {
        let h: WorldlessClientTests.Harness
        var now: SimTime
        var inputs: [(device: Int, body: (CollectedEffects) -> Void)] = []
        /// Servers that give no answer to setup calls.
        var silent: Set<Int> = []
        var handled: [(device: Int, messages: [GrouperMessage])] = []
        var timings: [TransferTiming] = []
        var logs: [String] = []
        var steps = 0

        init(_ h: WorldlessClientTests.Harness, at now: SimTime) {
            self.h = h
            self.now = now
        }

        func input(_ device: Int, _ body: @escaping (CollectedEffects) -> Void) { inputs.append((device, body)) }

        /// Runs the queued inputs and every input their effects lead to.
        func run() {
            while !inputs.isEmpty {
                let (d, body) = inputs.removeFirst()
                steps += 1
                #expect(steps < 500, "the exchange ends")
                now = now + .milliseconds(10)
                let s = CollectedEffects(now: now)
                body(s)
                for effect in s.effects { perform(effect, of: d) }
            }
        }

        func perform(_ effect: ClientEffect, of d: Int) {
            let h = self.h, device = h.devices[d]
            switch effect {
            case .request(let r):
                let outcome = r.connected ? ClientCoreTests.answer(r, from: d, at: now, h) : .disconnected
                if case .reply(.notified(let nodes)) = outcome {
                    for n in nodes {
                        guard let m = h.directory.deviceByNode[n] else { continue }
                        input(m) { if h.devices[m].online && h.devices[m].isMember { h.devices[m].requestReceive($0) } }
                    }
                }
                input(d) { device.reply(to: r.purpose, outcome, $0) }
            case .setup(let call):
                let answer = silent.contains(call.server) ? nil : ClientCoreTests.answer(call, from: d, at: now, h)
                if let purpose = call.answer { input(d) { device.setupAnswered(purpose, answer, $0) } }
            case .handOver(let f, let to): input(to) { self.h.devices[to].handedOver(f, $0) }
            case .cpu(_, let then?): input(d) { device.cpuDone(then, $0) }
            case .handled(let ms): handled.append((d, ms))
            case .timing(let t): timings.append(t)
            case .log(let text): logs.append("\(deviceLabel(d)) \(text)")
            case .internalFailure(let text): Issue.record("internal failure: \(text)")
            case .cpu, .count: break
            }
        }
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

    static func setups(_ effects: [ClientEffect]) -> [SetupCall] {
        effects.compactMap { if case .setup(let s) = $0 { s } else { nil } }
    }

    static func handOvers(_ effects: [ClientEffect]) -> [(FaceToFace, to: Int)] {
        effects.compactMap { if case .handOver(let f, let to) = $0 { (f, to) } else { nil } }
    }

    /// What server `s.server` answers to the setup call `s` from `device` at `now`.
    static func answer(_ s: SetupCall, from device: Int, at now: SimTime, _ h: WorldlessClientTests.Harness)
        -> Result<ServerReply, ServerError> {
        h.servers[s.server].handle(ServerRequest(requestID: 0, device: device, groupID: h.directory.groupID, key: s.key,
                                                 call: s.call), now: now)
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
        let d = Driver(h, at: SimTime.zero + .seconds(10))
        d.input(0) { h.devices[0].senderUpdate(objectID: "note", size: 120, $0) }
        d.run()
        let write = try #require(record.writes.first)
        #expect(d.handled.map { $0.messages.map(\.messageID) } == [[write.messageID]], "the member's round handled the update once")
        #expect(d.handled.map(\.device) == [1])
        #expect(h.devices[1].store.entry("note")?.version == write.version)
        #expect(d.timings.map(\.direction) == [.upload, .download] && d.timings.allSatisfy(\.succeeded))
        #expect(d.timings.map(\.device) == [0, 1])
    }

    /// Group creation: `group/register` on every server, then `group/init` and the owner's
    /// `user/add` on each server that gave a master key. The owner is a member only once every
    /// server's part is over (a server that gives no answer ends its part too); then it
    /// registers its device token where it got an access key.
    @Test func theOwnerIsAMemberOnceEveryServerHasAnsweredItsSetup() throws {
        let (h, _) = try Self.devices()
        let owner = h.devices[0], t = SimTime.zero
        let registers = Self.setups(Self.step(at: t) { owner.createGroup($0) })
        #expect(registers.map(\.answer) == (0..<3).map { SetupPurpose?.some(.groupRegistered(server: $0)) })
        #expect(registers.allSatisfy { if case .groupRegister(_, _, owner.node) = $0.call { $0.key.isEmpty } else { false } })

        // Server 2 gives no answer; servers 1 and 3 give master keys.
        var last: [ClientEffect] = []
        for r in registers {
            #expect(!owner.isMember, "a member before server \(r.server + 1)'s part is over")
            let answer = r.server == 1 ? nil : Self.answer(r, from: 0, at: t, h)
            let next = Self.step(at: t) { owner.setupAnswered(r.answer!, answer, $0) }
            guard r.server != 1 else { last = next; continue }
            let calls = Self.setups(next)
            guard calls.count == 2, case .groupInit(2, 3, 2, _) = calls[0].call, calls[0].answer == nil,
                  case .userAdd(owner.node, true) = calls[1].call, calls[1].answer == .ownerAdded(server: r.server) else {
                Issue.record("\(next)"); continue
            }
            #expect(calls.allSatisfy { $0.key == owner.masterKeys[r.server] && $0.server == r.server })
            _ = Self.answer(calls[0], from: 0, at: t, h)
            #expect(!owner.isMember)
            last = Self.step(at: t) { owner.setupAnswered(.ownerAdded(server: r.server), Self.answer(calls[1], from: 0, at: t, h), $0) }
        }
        #expect(owner.isMember && owner.members == [owner.node] && owner.joinedAt == t)
        #expect(owner.masterKeys[1] == nil && owner.accessKeys[1] == nil && owner.accessKeys[2] != nil)
        let tokens = Self.setups(last)
        #expect(tokens.map(\.server) == [0, 2] && tokens.allSatisfy { $0.call == .userDeviceToken("token-\(owner.node)") })
        #expect(tokens.allSatisfy { $0.key == owner.accessKeys[$0.server] && $0.answer == nil })
        #expect(Self.logs(last) == ["create group"])
    }

    /// An invitation registers the invitee on every server and hands it over only once each
    /// server has answered; a server that gave no key is asked again later, and the key it gives
    /// then is handed over on its own.
    @Test func anInvitationIsHandedOverAfterTheLastAnswerAndALateKeyAfterTheRetry() throws {
        let (h, _) = try Self.devices()
        let owner = h.devices[0], member = h.devices[1], t = SimTime.zero + .seconds(5)
        let d = Driver(h, at: .zero)
        d.input(0) { owner.createGroup($0) }
        d.run()
        #expect(owner.isMember && !member.isMember)

        let adds = Self.setups(Self.step(at: t) { owner.invite(1, $0) })
        #expect(adds.map(\.server) == [0, 1, 2])
        #expect(adds.allSatisfy { $0.call == .userAdd(node: member.node, isOwner: false) && $0.key == owner.masterKeys[$0.server] })
        #expect(adds.map(\.answer) == (0..<3).map { SetupPurpose?.some(.memberAdded(invitee: 1, server: $0)) })
        #expect(Self.step(at: t) { owner.invite(1, $0) }.isEmpty, "an invitation already open is not made twice")

        var effects: [[ClientEffect]] = []
        for a in adds {   // server 3 gives no answer
            let answer = a.server == 2 ? nil : Self.answer(a, from: 0, at: t, h)
            effects.append(Self.step(at: t) { owner.setupAnswered(a.answer!, answer, $0) })
        }
        #expect(effects.dropLast().allSatisfy { $0.isEmpty }, "nothing is handed over before the last answer")
        let handOver = Self.handOvers(effects[2])
        guard handOver.count == 1, handOver[0].to == 1, case .invitation(let keys, let members, let messages) = handOver[0].0 else {
            Issue.record("\(effects[2])"); return
        }
        #expect(keys[0] != nil && keys[1] != nil && keys[2] == nil && messages.isEmpty)
        #expect(members == [owner.node, member.node] && owner.members == members)
        #expect(Self.logs(effects[2]) == ["invite D2: 2 keys, 0 messages"])
        #expect(owner.pendingRegistrations.map(\.server) == [2] && owner.pendingRegistrations.map(\.invitee) == [1])

        let joined = Self.step(at: t) { member.handedOver(handOver[0].0, $0) }
        #expect(member.isMember && member.joinedAt == t && member.members == members)
        #expect(Self.setups(joined).map(\.server) == [0, 1], "the device token where it has a key")
        #expect(Self.requests(joined).map(\.call) == [.transferList, .transferList, .transferList], "its first round")

        let retry = Self.setups(Self.step(at: t) { owner.retryRegistrations($0) })
        #expect(retry.map(\.answer) == [.lateMemberAdded(invitee: 1, server: 2)] && owner.pendingRegistrations.isEmpty)
        let late = Self.step(at: t) { owner.setupAnswered(retry[0].answer!, Self.answer(retry[0], from: 0, at: t, h), $0) }
        guard case .accessKey(2, let key)? = Self.handOvers(late).first?.0 else { Issue.record("\(late)"); return }
        #expect(Self.logs(late) == ["late key for D2 on server 3"])
        let tokens = Self.setups(Self.step(at: t) { member.handedOver(.accessKey(server: 2, key: key), $0) })
        #expect(member.accessKeys[2] == key && tokens.map(\.server) == [0, 1, 2])
    }

    /// A whole client's life through effects the test performs: the group is created, the owner
    /// goes offline, the invitation it is asked for waits until it is back, the member joins,
    /// leaves (goes offline) while the owner writes, and gets the write when it returns.
    @Test func aMemberThatLeavesAndReturnsGetsWhatWasWrittenWhileItWasAway() throws {
        let (h, record) = try Self.devices()
        let owner = h.devices[0], member = h.devices[1]
        let d = Driver(h, at: .zero)
        d.input(0) { owner.createGroup($0) }
        d.run()
        d.input(0) { owner.setOnline(false, $0) }
        d.input(0) { owner.invite(1, $0) }
        d.run()
        #expect(!member.isMember && owner.pendingInvitations == [1])
        d.input(0) { owner.setOnline(true, $0) }
        d.run()
        #expect(member.isMember && owner.pendingInvitations.isEmpty)

        d.input(0) { owner.senderUpdate(objectID: "note", size: 120, $0) }
        d.run()
        let first = try #require(record.writes.first)
        #expect(member.store.entry("note")?.version == first.version)

        d.input(1) { member.setOnline(false, $0) }
        d.input(0) { owner.senderUpdate(objectID: "note", size: 90, $0) }
        d.run()
        let second = try #require(record.writes.last)
        #expect(second.version != first.version && member.store.entry("note")?.version == first.version,
                "offline, the member gets no push and asks for nothing")

        d.input(1) { member.setOnline(true, $0) }
        d.run()
        #expect(member.store.entry("note")?.version == second.version, "its receive on return gets the write")
        #expect(d.logs.filter { $0.hasPrefix("D2 o") || $0.hasPrefix("D1 o") || $0.contains("invite") }
                == ["D1 offline", "D1 invite D2 postponed: owner offline", "D1 online", "D1 invite D2: 3 keys, 0 messages",
                    "D2 offline", "D2 online"])
        #expect(d.handled.map(\.device) == [1, 1])
    }
}
