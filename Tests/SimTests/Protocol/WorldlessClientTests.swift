import Testing
import SimKernel
@testable import GrouperModel

/// Whole Grouper clients with no `World`, no `Simulation`, no network model and no CPU model:
/// the test builds a run's directory, shared stores and record, three `UntrustedServer`
/// values, and two devices, and is their clock and wire itself — a request is answered the
/// moment it is sent, CPU work is instant, a notification pushes at once.
@Suite struct WorldlessClientTests {
    /// The devices' world: a time-ordered list of events (ties in the order scheduled).
    final class Harness {
        var now = SimTime.zero
        var servers: [UntrustedServer]
        var devices: [DeviceNode] = []
        let directory: GroupDirectory
        var pending: [(at: SimTime, order: Int, device: Int, event: GrouperEvent)] = []
        var scheduled = 0
        var nextRequestID = 1
        var requests = 0
        var log: [String] = []
        /// Servers whose setup calls go unanswered (`directCall` returns nil).
        var down: Set<Int> = []

        init(directory: GroupDirectory) {
            self.directory = directory
            servers = (0..<directory.config.servers).map {
                UntrustedServer(index: $0, rng: Xoshiro256StarStar(seed: UInt64(40 + $0)), keying: directory.config.variant.shareKeying)
            }
        }

        func schedule(_ event: GrouperEvent, for device: Int, at time: SimTime) {
            pending.append((time, scheduled, device, event))
            scheduled += 1
        }

        /// Hands every event due by `end` to its device, in time order.
        func run(until end: SimTime) {
            while let i = pending.indices.min(by: { (pending[$0].at, pending[$0].order) < (pending[$1].at, pending[$1].order) }),
                  pending[i].at <= end {
                let e = pending.remove(at: i)
                now = e.at
                devices[e.device].handle(e.event, Context(harness: self, device: e.device))
            }
            now = end
        }
    }

    struct Context: DeviceContext {
        let harness: Harness
        let device: Int
        var now: SimTime { harness.now }
        func schedule(_ event: GrouperEvent, at time: SimTime) { harness.schedule(event, for: device, at: time) }
        func schedule(_ event: GrouperEvent, after delay: SimDuration) { harness.schedule(event, for: device, at: now + delay) }
        func useCPU(_ work: SimDuration) -> SimTime { now }
        func send(_ request: ServerRequest, bytes: Int, to server: Int) {
            harness.requests += 1
            let result = harness.servers[server].handle(request, now: now)
            if case .success(.notified(let nodes)) = result {
                for n in nodes { if let d = harness.directory.deviceByNode[n] { harness.schedule(.push, for: d, at: now) } }
            }
            schedule(.response(requestID: request.requestID, outcome: RequestOutcome(result)), at: now)
        }
        func takeRequestID() -> Int {
            defer { harness.nextRequestID += 1 }
            return harness.nextRequestID
        }
        func directCall(_ request: ServerRequest, to server: Int) -> Result<ServerReply, ServerError>? {
            harness.down.contains(server) ? nil : harness.servers[server].handle(request, now: now)
        }
        func log(_ text: @autoclosure () -> String) { harness.log.append("D\(device + 1) \(text())") }
        func count(_ kind: CounterKind, type: MessageType) {}
        func recordTiming(_ timing: TransferTiming) {}
        func internalFailure(_ text: String) { Issue.record("internal failure of D\(device + 1): \(text)") }
        func peer(_ device: Int) -> (node: DeviceNode, context: Context) {
            (harness.devices[device], Context(harness: harness, device: device))
        }
    }

    /// Two devices of a group on three servers (k = 2, s = 2, TTL 1 h), not yet set up, in a
    /// new harness; and the run record they write.
    func twoDevices() throws -> (Harness, RunRecord) {
        let config = try SystemConfig(devices: 2, servers: 3, k: 2, s: 2, ttl: .hours(1))
        let directory = GroupDirectory(config: config, scheme: config.scheme.makeScheme(), streams: RandomStreams(rootSeed: 5))
        let stores = SharedStores(directory: directory)
        let record = RunRecord(config: config, registry: stores.registry)
        let h = Harness(directory: directory)
        h.devices = (0..<2).map {
            DeviceNode(index: $0, directory: directory, stores: stores, record: record, rng: Xoshiro256StarStar(seed: UInt64(9 + $0)))
        }
        return (h, record)
    }

    /// A registration that failed at the invitation (its server down) is retried later; the
    /// log names that server numbered from 1, as every text a person reads does.
    @Test func aLateKeyIsLoggedWithTheServerNumberedFromOne() throws {
        let (h, _) = try twoDevices()
        let owner = h.devices[0], member = h.devices[1]
        owner.createGroup(owner.performing(Context(harness: h, device: 0)))
        h.down = [2]
        owner.invite(1, owner.performing(Context(harness: h, device: 0)))
        #expect(member.isMember && member.accessKeys[2] == nil)
        h.down = []
        owner.retryRegistrations(owner.performing(Context(harness: h, device: 0)))
        #expect(member.accessKeys[2] != nil)
        #expect(h.log.filter { $0.contains("late key") } == ["D1 late key for D2 on server 3"])
    }

    @Test func anOwnerCreatesTheGroupInvitesAndItsUpdateReachesTheMember() throws {
        let (h, record) = try twoDevices()
        let owner = h.devices[0], member = h.devices[1]
        owner.createGroup(owner.performing(Context(harness: h, device: 0)))
        owner.invite(1, owner.performing(Context(harness: h, device: 0)))
        #expect(owner.isMember && member.isMember)
        #expect(member.accessKeys.allSatisfy { $0 != nil }, "registered on every server face to face")
        for d in h.devices { d.startTimers(Context(harness: h, device: d.index)) }

        h.schedule(.command(.update(objectID: "note", size: 120)), for: 0, at: SimTime.zero + .seconds(10))
        h.run(until: SimTime.zero + .minutes(30))

        #expect(record.writes.map(\.objectID) == ["note"])
        let write = try #require(record.writes.first)
        #expect(member.store.entry("note")?.version == write.version, "the member rebuilt and applied the owner's update")
        #expect(owner.store.entry("note")?.version == write.version)
        #expect(h.requests > 0 && h.servers.allSatisfy { !$0.shares.isEmpty })
        #expect(h.log.contains { $0.hasPrefix("D2 handle") }, "\(h.log)")
    }
}
