import Testing
import SimKernel
@testable import GrouperModel

/// The test is the device's clock, network and servers: every timer and request the device
/// asks for is recorded, and the test decides when and how each comes back.
final class ScriptedContext: DeviceContext {
    var now: SimTime = .zero
    var wakeups: [(event: GrouperEvent, at: SimTime)] = []
    var requests: [(request: ServerRequest, server: Int, bytes: Int)] = []
    /// CPU work the device asked for, in order, with when it was asked.
    var cpuWork: [(work: SimDuration, at: SimTime)] = []
    /// When asked work is done; by default a CPU that is always free (now + work).
    var cpuDone: (SimDuration, SimTime) -> SimTime = { work, now in now + work }

    func schedule(_ event: GrouperEvent, at time: SimTime) { wakeups.append((event, time)) }
    func schedule(_ event: GrouperEvent, after delay: SimDuration) { wakeups.append((event, now + delay)) }
    func send(_ request: ServerRequest, bytes: Int, to server: Int) { requests.append((request, server, bytes)) }
    func useCPU(_ work: SimDuration) -> SimTime {
        cpuWork.append((work, now))
        return cpuDone(work, now)
    }
    /// Protocol log lines the device wrote, with their time.
    var logged: [(at: SimTime, text: String)] = []
    func log(_ text: @autoclosure () -> String) { logged.append((now, text())) }
    /// Counters, transfer timings and internal failures the device reported, in order.
    var counted: [(kind: CounterKind, type: MessageType, at: SimTime)] = []
    var timings: [TransferTiming] = []
    var failures: [(at: SimTime, text: String)] = []
    func count(_ kind: CounterKind, type: MessageType) { counted.append((kind, type, now)) }
    func recordTiming(_ timing: TransferTiming) { timings.append(timing) }
    func internalFailure(_ text: String) { failures.append((now, text)) }
    /// Request ids handed out, from 1 (as the simulator numbers a run's requests).
    var nextRequestID = 1
    func takeRequestID() -> Int {
        defer { nextRequestID += 1 }
        return nextRequestID
    }
    /// The setup calls the device made directly, with their server; answered by `directAnswer`
    /// (by default: the server cannot answer).
    var directCalls: [(request: ServerRequest, server: Int)] = []
    var directAnswer: (ServerRequest, Int) -> Result<ServerReply, ServerError>? = { _, _ in nil }
    func directCall(_ request: ServerRequest, to server: Int) -> Result<ServerReply, ServerError>? {
        directCalls.append((request, server))
        return directAnswer(request, server)
    }
    /// The other devices of a face-to-face invitation, by index (sharing this context).
    var peers: [Int: DeviceNode] = [:]
    func peer(_ device: Int) -> (node: DeviceNode, context: ScriptedContext) { (peers[device]!, self) }
}

/// A Grouper device driven through a scripted context, with no `Simulation` at all.
@Suite struct DeviceContextTests {
    /// Device 0 of two, a member with keys on 3 servers, f(2,3,2), thesis variant.
    static func device(scheme: (any SecretSharingScheme)? = nil) throws -> (DeviceNode, World) {
        let config = try SystemConfig(devices: 2, servers: 3, k: 2, s: 2, ttl: .hours(1))
        let world = World(config: config, scheme: scheme ?? config.scheme.makeScheme(), streams: RandomStreams(rootSeed: 5))
        let d = DeviceNode(index: 0, world: world, rng: Xoshiro256StarStar(seed: 9))
        world.deviceNodes = [d]
        d.isMember = true
        d.accessKeys = ["key-0", "key-1", "key-2"]
        d.members = Array(world.nodeIDs)
        return (d, world)
    }

    @Test func anUpdateIsSplitPutOnEveryServerAndDecidedAtSStoredShares() throws {
        let (d, _) = try Self.device()
        let ctx = ScriptedContext()
        ctx.now = SimTime.zero + .seconds(Int64(10))
        d.handle(.command(.update(objectID: "obj", size: 323)), ctx)

        // Encoding and splitting take CPU time: the device asks to be woken when they are done.
        #expect(ctx.requests.isEmpty)
        let ready = try #require(ctx.wakeups.last)
        guard case .uploadReady(let job) = ready.event else { Issue.record("expected uploadReady, got \(ready.event)"); return }
        #expect(ready.at > ctx.now)

        ctx.now = ready.at
        d.handle(.uploadReady(jobID: job), ctx)
        #expect(ctx.requests.map(\.server) == [0, 1, 2])
        for (r, server, bytes) in ctx.requests {
            #expect(r.key == "key-\(server)" && r.sentAt >= ctx.now && bytes > 0)
            guard case .transferPut(let shares) = r.call else { Issue.record("expected a put, got \(r.call)"); continue }
            #expect(shares.count == 1 && shares[0].receiver == nil)
        }

        // Two stored answers reach s = 2: the job succeeds before the third server answers.
        ctx.now = ctx.now + .milliseconds(300)
        for r in ctx.requests.prefix(2) {
            d.handle(.response(requestID: r.request.requestID, outcome: .reply(.stored(1))), ctx)
        }
        #expect(d.job == nil && d.outbox.isEmpty && d.unsent.isEmpty)
        let timing = try #require(ctx.timings.last)
        #expect(timing.direction == .upload && timing.succeeded && timing.end == ctx.now)

        // The third answer comes late and changes nothing; a duplicate is ignored.
        d.handle(.response(requestID: ctx.requests[2].request.requestID, outcome: .timedOut), ctx)
        d.handle(.response(requestID: ctx.requests[0].request.requestID, outcome: .reply(.stored(1))), ctx)
        #expect(d.unsent.isEmpty && ctx.timings.count == 1)
    }

    @Test func failuresOnTwoOfThreeServersLeaveTheMessageUnsent() throws {
        let (d, _) = try Self.device()
        let ctx = ScriptedContext()
        d.handle(.command(.update(objectID: "obj", size: 323)), ctx)
        guard case .uploadReady(let job) = try #require(ctx.wakeups.last).event else { Issue.record("no upload"); return }
        ctx.now = try #require(ctx.wakeups.last).at
        d.handle(.uploadReady(jobID: job), ctx)
        d.handle(.response(requestID: ctx.requests[0].request.requestID, outcome: .refused), ctx)
        #expect(d.job != nil, "one failure of three still allows s = 2")
        d.handle(.response(requestID: ctx.requests[1].request.requestID, outcome: .timedOut), ctx)
        #expect(d.job == nil && d.unsent.map(\.message.objectID) == ["obj"])
        #expect(ctx.timings.last?.succeeded == false)
    }

    @Test func goingOfflineBreaksOpenRequestsAndTimersKeepTheirPeriod() throws {
        let (d, _) = try Self.device()
        let ctx = ScriptedContext()
        d.handle(.command(.receive), ctx)
        #expect(ctx.requests.count == 3, "a receive round lists every server")
        d.handle(.command(.setOnline(false)), ctx)
        #expect(d.pending.isEmpty && !d.online)
        // Offline, a request fails at once, through the context, without reaching a server.
        d.handle(.command(.setOnline(true)), ctx)
        let before = ctx.requests.count
        d.online = false
        d.perform(d.request(.transferList, to: 0, purpose: .notify), ctx)
        #expect(ctx.requests.count == before)
        guard case .response(_, .disconnected)? = ctx.wakeups.last?.event else { Issue.record("expected a disconnect"); return }

        let timers = ScriptedContext()
        d.online = true
        d.handle(.timer(.pull), timers)
        let pull = try #require(timers.wakeups.last)
        guard case .timer(.pull) = pull.event else { Issue.record("expected the pull timer again"); return }
        #expect(pull.at == timers.now + d.config.receive.pullPeriod!)
    }

    /// The protocol log is the context's: what the device logs reaches the context at the
    /// context's time, and nothing goes around it into the run's shared record.
    @Test func theDeviceLogsThroughItsContext() throws {
        let (d, world) = try Self.device()
        let ctx = ScriptedContext()
        ctx.now = SimTime.zero + .seconds(Int64(42))
        d.handle(.command(.update(objectID: "obj", size: 323)), ctx)
        d.handle(.command(.confirm), ctx)
        #expect(ctx.logged.map(\.text) == ["create update#1 obj", "create confirm(1)"])
        #expect(ctx.logged.allSatisfy { $0.at == ctx.now })
        #expect(world.log.isEmpty)
    }

    /// The context owns CPU time: the device charges its profile's costs through it and waits
    /// exactly as long as the context says, whatever the profile.
    @Test func theContextDecidesWhenCPUWorkIsDone() throws {
        let (d, _) = try Self.device()
        let ctx = ScriptedContext()
        ctx.now = SimTime.zero + .seconds(Int64(10))
        let slow = SimDuration.minutes(7)
        ctx.cpuDone = { _, now in now + slow }
        d.handle(.command(.update(objectID: "obj", size: 323)), ctx)
        // Encoding and splitting: one piece of work, costed by the profile, done when the context says.
        #expect(ctx.cpuWork.count == 1 && ctx.cpuWork[0].work > .zero && ctx.cpuWork[0].at == ctx.now)
        let ready = try #require(ctx.wakeups.last)
        guard case .uploadReady(let job) = ready.event else { Issue.record("expected uploadReady, got \(ready.event)"); return }
        #expect(ready.at == ctx.now + slow)

        // Each request's client overhead (the profile's `request` cost) is CPU work too: its
        // send time is the context's answer, here an instant CPU.
        ctx.now = ready.at
        ctx.cpuDone = { _, now in now }
        d.handle(.uploadReady(jobID: job), ctx)
        #expect(ctx.requests.count == 3)
        #expect(ctx.cpuWork.dropFirst().map(\.work) == Array(repeating: d.config.device.requestTime, count: 3))
        #expect(ctx.requests.allSatisfy { $0.request.sentAt == ctx.now })

        // A CPU that is busy until a fixed moment delays the sends to that moment.
        let busy = ctx.now + .seconds(Int64(90))
        ctx.cpuDone = { work, _ in busy + work }
        d.handle(.command(.receive), ctx)
        let lists = ctx.requests.dropFirst(3)
        #expect(lists.count == 3 && lists.allSatisfy { $0.request.sentAt == busy + d.config.device.requestTime })
    }

    /// Counters, timings and internal failures are the context's too: an upload that succeeds,
    /// one that fails, and a split that breaks each report through the context at its time,
    /// and the run's shared record (`World`) stays untouched.
    @Test func countersTimingsAndInternalFailuresGoThroughTheContext() throws {
        let (d, world) = try Self.device()
        let ctx = ScriptedContext()
        d.handle(.command(.update(objectID: "a", size: 323)), ctx)
        ctx.now = try #require(ctx.wakeups.last).at
        guard case .uploadReady(let job) = try #require(ctx.wakeups.last).event else { Issue.record("no upload"); return }
        d.handle(.uploadReady(jobID: job), ctx)
        let sent = ctx.now
        ctx.now = sent + .milliseconds(300)
        for r in ctx.requests.prefix(2) { d.handle(.response(requestID: r.request.requestID, outcome: .reply(.stored(1))), ctx) }
        let done = ctx.now
        #expect(ctx.counted.map(\.kind) == [.sharePuts, .sharePuts, .sharePuts, .sharesStored, .sharesStored, .messagesUploaded])
        #expect(ctx.counted.allSatisfy { $0.type == .update })
        #expect(ctx.counted.map(\.at) == Array(repeating: sent, count: 3) + Array(repeating: done, count: 3))
        #expect(ctx.timings.count == 1 && ctx.timings[0].direction == .upload && ctx.timings[0].end == done)

        // A second update whose puts fail on two of three servers: counted as a failed upload.
        ctx.counted = []
        d.handle(.command(.update(objectID: "b", size: 323)), ctx)
        ctx.now = try #require(ctx.wakeups.last).at
        guard case .uploadReady(let second) = try #require(ctx.wakeups.last).event else { Issue.record("no upload"); return }
        d.handle(.uploadReady(jobID: second), ctx)
        for r in ctx.requests.suffix(3).prefix(2) { d.handle(.response(requestID: r.request.requestID, outcome: .refused), ctx) }
        #expect(ctx.counted.map(\.kind) == [.sharePuts, .sharePuts, .sharePuts, .uploadAttemptsFailed, .uploadFailures])
        #expect(ctx.timings.map(\.succeeded) == [true, false])
        #expect(ctx.failures.isEmpty)
        #expect(world.counters.rows.isEmpty && world.timings.isEmpty && world.timingStats == TimingStats())

        // A split that cannot fail on valid state does: an internal failure, through the context.
        let (broken, brokenWorld) = try Self.device(scheme: BrokenSplit())
        let bctx = ScriptedContext()
        bctx.now = SimTime.zero + .seconds(Int64(7))
        broken.handle(.command(.update(objectID: "c", size: 10)), bctx)
        #expect(bctx.failures.count == 1 && bctx.failures[0].at == bctx.now)
        #expect(bctx.failures.first?.text.hasPrefix("cannot split update#1: ") == true)
        #expect(brokenWorld.internalFailures.isEmpty && brokenWorld.log.isEmpty)
    }
}
