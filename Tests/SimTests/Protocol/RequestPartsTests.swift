import Testing
import SimKernel
@testable import GrouperModel

/// A core's request reaches the simulator's sink by its parts (`EffectSink.takeRequest`), and a
/// collecting sink as a `ClientEffect.request` performed later; both must send what the plain
/// request value (`DeviceNode.request`) performed through its effect sends: the same server
/// request (id, device, group id, key, call, sent time), bytes and server, or the same
/// immediate `disconnected` outcome offline, and the same open requests.
@Suite struct RequestPartsTests {
    /// Records every send and scheduled event in order.
    final class Sends: DeviceContext {
        var now: SimTime = SimTime.zero + .seconds(3)
        var logging: Bool { false }
        var lines: [String] = []
        var nextID = 100
        func schedule(_ event: GrouperEvent, at time: SimTime) { lines.append("at \(time.nanoseconds) \(event)") }
        func schedule(_ event: GrouperEvent, after delay: SimDuration) { lines.append("after \(delay.nanoseconds) \(event)") }
        func useCPU(_ work: SimDuration) -> SimTime { now = now + work; return now }
        func send(_ r: ServerRequest, bytes: Int, to server: Int) {
            lines.append("send \(r.requestID) \(r.device) \(r.groupID) \(r.key) \(r.call) \(r.sentAt.nanoseconds) \(bytes) \(server)")
        }
        func takeRequestID() -> Int { nextID += 1; return nextID }
        func directCall(_ request: ServerRequest, to server: Int) -> Result<ServerReply, ServerError>? { nil }
        func log(_ text: @autoclosure () -> String) {}
        func count(_ kind: CounterKind, type: MessageType) {}
        func count(_ kind: CounterKind, type: MessageType, amount: Int) {}
        func recordTiming(_ timing: TransferTiming) {}
        func internalFailure(_ text: String) { lines.append("failure " + text) }
        func peer(_ device: Int) -> (node: DeviceNode, context: Sends) { fatalError("no peers") }
    }

    static func call(_ rng: inout Xoshiro256StarStar) -> ServerCall {
        switch rng.int(in: 0...4) {
        case 0: return .transferList
        case 1: return .transferGet(ShareIDs((0..<rng.int(in: 0...5)).map { _ in rng.int(in: 1...40) }))
        case 2: return .transferPut([ShareUpload(messageID: "m\(rng.int(in: 0...9))", receiver: rng.chance(0.5) ? nil : "n1",
                                                 share: [UInt8](repeating: 7, count: rng.int(in: 1...20)))])
        case 3: return .transferConfirm(["m\(rng.int(in: 0...9))"])
        default: return .userNotify(receiver: "*", category: "c", content: "x")
        }
    }

    static func purpose(_ rng: inout Xoshiro256StarStar, server: Int) -> RequestPurpose {
        switch rng.int(in: 0...4) {
        case 0: return .put(jobID: rng.int(in: 0...9), server: server, count: rng.int(in: 1...3))
        case 1: return .list(roundID: rng.int(in: 0...9), server: server)
        case 2: return .get(roundID: rng.int(in: 0...9), server: server)
        case 3: return .existence(taskID: rng.int(in: 0...9), server: server)
        default: return .notify
        }
    }

    @Test func aRequestByItsPartsIsThePlainRequestPerformed() throws {
        var rng = Xoshiro256StarStar(seed: 13)
        let byParts = try NodeLifetimeTests.lonelyDevice(), collected = try NodeLifetimeTests.lonelyDevice(),
            plain = try NodeLifetimeTests.lonelyDevice()
        let partsCtx = Sends(), collectedCtx = Sends(), plainCtx = Sends()
        for step in 0..<300 {
            let online = rng.chance(0.8)
            for d in [byParts, collected, plain] { d.online = online }
            if rng.chance(0.1) {   // a key registered late: the credentials change
                let keys = (0..<3).map { rng.chance(0.2) ? nil : "key-\($0)-\(step)" }
                for d in [byParts, collected, plain] { d.accessKeys = keys }
            }
            let server = rng.int(in: 0...2), call = Self.call(&rng), purpose = Self.purpose(&rng, server: server)
            byParts.send(call, to: server, purpose: purpose, byParts.performing(partsCtx))
            let sink = CollectedEffects(now: collectedCtx.now)
            collected.send(call, to: server, purpose: purpose, sink)
            collected.perform(sink.effects, collectedCtx)
            let plainSink = CollectedEffects(now: plainCtx.now)
            plainSink.request(plain.request(call, to: server, purpose: purpose))
            plain.perform(plainSink.effects, plainCtx)
        }
        #expect(partsCtx.lines.count == 300 && partsCtx.lines.contains { $0.hasPrefix("send") }
                && partsCtx.lines.contains { $0.contains("disconnected") })
        #expect(partsCtx.lines == plainCtx.lines)
        #expect(collectedCtx.lines == plainCtx.lines)
        #expect(byParts.pending.sortedIDs == plain.pending.sortedIDs && collected.pending.sortedIDs == plain.pending.sortedIDs)
    }
}
