import Testing
import SimKernel
@testable import GrouperModel

@Suite struct ProtocolStoryTests {
    /// Thesis Fig 4.4: f(2,4,3), server 3 down: the upload succeeds on three servers and the
    /// receiver rebuilds the message from the shares it can reach.
    @Test func fig44OneServerDownUploadSucceeds() throws {
        var c = try SystemConfig(devices: 2, servers: 4, k: 2, s: 3, ttl: .hours(1))
        c.confirm = ConfirmPolicy(period: nil, onReconnect: false)
        c.receive = ReceivePolicy(onPush: true, pullPeriod: nil, onReconnect: true)
        let system = try GrouperSystem(config: c)
        system.setServerState(.refusing, server: 3, at: .zero)
        system.update(device: 0, objectID: "r1", size: 323, at: SimTime.zero + .seconds(Int64(1)))
        system.run(until: SimTime.zero + .seconds(Int64(30)))
        #expect(system.counters.total(.messagesUploaded, device: 0, type: .update) == 1)
        #expect(system.counters.total(.sharesStored, device: 0) == 3)
        #expect(system.counters.total(.messagesRebuilt, device: 1, type: .update) == 1)
        #expect(system.objects(device: 1).map(\.id) == ["r1"])
        #expect(system.objects(device: 1).map(\.content) == system.objects(device: 0).map(\.content))
        #expect(system.check().passed, "\(system.check().findings)")
        let uploads = system.timings.filter { $0.direction == .upload }
        #expect(uploads.count == 1 && uploads[0].succeeded)
    }

    /// A blackholed server: the thesis verdict comes once s servers stored the share; the as-built
    /// client waits for the request timeout, and the failing last answer wedges its sender.
    @Test func blackholedServerThesisVersusAsBuilt() throws {
        func run(_ v: ProtocolVariant) throws -> GrouperSystem {
            var c = try SystemConfig(devices: 2, servers: 4, k: 2, s: 3, ttl: .hours(1), variant: v)
            c.receive = ReceivePolicy(onPush: true, pullPeriod: .minutes(5), onReconnect: true)
            let system = try GrouperSystem(config: c)
            system.setServerState(.blackhole, server: 2, at: .zero)
            system.update(device: 0, objectID: "r1", size: 100, at: SimTime.zero + .seconds(Int64(1)))
            system.update(device: 0, objectID: "r2", size: 100, at: SimTime.zero + .minutes(3))
            system.run(until: SimTime.zero + .minutes(20))
            return system
        }
        let thesis = try run(.thesis)
        let up = thesis.timings.filter { $0.direction == .upload }
        #expect(up.count == 2 && up.allSatisfy { $0.succeeded && $0.total < .seconds(Int64(1)) })
        #expect(thesis.check().passed)
        let built = try run(.asBuilt)
        let first = try #require(built.timings.first { $0.direction == .upload })
        #expect(first.total >= .seconds(Int64(60)) && !first.succeeded)
        #expect(built.log.contains { $0.text.hasPrefix("wedged") })
        // r1's shares reached three servers, so the receiver still rebuilds it by pulling; r2 is never sent.
        #expect(built.objects(device: 1).map(\.id) == ["r1"])
        let lost = built.check().findings(of: .convergence)
        #expect(lost.count == 1 && lost[0].message.contains("r2") && lost[0].message.contains("wedged"))
    }

    /// Requests with a wrong master key or access key are refused and change nothing.
    @Test func wrongKeysThroughTheSystemChangeNothing() throws {
        let system = try GrouperSystem(config: SystemConfig(devices: 2, servers: 3, k: 2, s: 2))
        let before = system.serverSnapshot(1)
        let bad = ServerRequest(requestID: 1, device: 1, groupID: system.groupID, key: "0123", 
                                call: .userAdd(node: "intruder", isOwner: false))
        #expect(system.callServer(1, bad) == .failure(.masterKeyRequired(endpoint: "user/add")))
        var asMember = bad
        asMember.key = try #require(system.accessKey(device: 1, server: 1))
        #expect(system.callServer(1, asMember) == .failure(.masterKeyRequired(endpoint: "user/add")))
        var put = bad
        put.call = .transferPut([ShareUpload(messageID: "m", receiver: nil, share: [1])])
        #expect(system.callServer(1, put) == .failure(.badKey(endpoint: "transfer/put")))
        let after = system.serverSnapshot(1)
        #expect(after.users == before.users && after.shares == before.shares && after.groups == before.groups)
        #expect(system.masterKey(server: 1) != nil && system.masterKey(server: 1) != system.masterKey(server: 2))
    }
}

@Suite struct BatchingTests {
    /// 250 messages queued while offline leave in requests of at most 100 messages, one job
    /// after another, each put on every server; one push per successful job.
    @Test func atMostOneHundredMessagesPerRequest() throws {
        var c = try SystemConfig(devices: 2, servers: 3, k: 2, s: 2, ttl: .hours(1))
        c.receive = ReceivePolicy(onPush: true, pullPeriod: nil, onReconnect: true)
        c.confirm = ConfirmPolicy(period: nil, onReconnect: false)
        let system = try GrouperSystem(config: c)
        system.setOnline(false, device: 0, at: .zero)
        for i in 0..<250 { system.update(device: 0, objectID: "o\(i)", size: 20, at: SimTime.zero + .seconds(Int64(1))) }
        system.setOnline(true, device: 0, at: SimTime.zero + .minutes(1))
        system.run(until: SimTime.zero + .minutes(5))
        let jobs = system.timings.filter { $0.direction == .upload && $0.device == 0 }
        #expect(jobs.map(\.messages) == [100, 100, 50])
        #expect(jobs.allSatisfy { $0.succeeded })
        #expect(system.counters.total(.sharePuts, device: 0) == 750)
        #expect(system.objects(device: 1).count == 250)
        #expect(system.check().passed)
    }
}

@Suite struct MessageCountTests {
    /// Thesis equations 6.1 and 6.3 with F = 0: NU_i = U_i + C uploads; each device rebuilds
    /// every other device's uploads (ND_i = NU − NU_i, since servers never list one's own).
    @Test func countsMatchEquationsWithoutChurn() throws {
        var c = try SystemConfig(devices: 4, servers: 3, k: 2, s: 3, ttl: .hours(1))
        c.confirm = ConfirmPolicy(period: nil, onReconnect: false)
        let system = try GrouperSystem(config: c)
        let perDevice = [3, 5, 0, 2]
        for (d, u) in perDevice.enumerated() {
            for i in 0..<u {
                system.update(device: d, objectID: "d\(d)-\(i)", size: 100, at: SimTime.zero + .seconds(Int64(10 + 7 * i + d)))
            }
            system.confirm(device: d, at: SimTime.zero + .minutes(10))
        }
        system.run(until: SimTime.zero + .minutes(30))
        let confirms = perDevice.map { $0 > 0 ? 1 : 0 }  // nothing to confirm before the first message
        let nu = zip(perDevice, confirms).map { $0 + $1 }
        for d in 0..<4 {
            #expect(system.counters.total(.messagesUploaded, device: d, window: 0) == nu[d])
            #expect(system.counters.total(.messagesRebuilt, device: d, window: 0) == nu.reduce(0, +) - nu[d])
            #expect(system.counters.total(.sharePuts, device: d) == 3 * nu[d])
        }
        #expect(system.counters.total(.resendRequests) == 0)
        #expect(system.check().passed)
    }
}

@Suite struct UnsentQueueTests {
    /// Fewer than s servers up: the upload fails fast, the messages wait in the unsent queue,
    /// the periodic retry sends them once the server is back (same id and sequence), and the
    /// receiver's callback sees them.
    @Test func failedUploadIsRetriedPeriodically() throws {
        var c = try SystemConfig(devices: 2, servers: 3, k: 2, s: 3, ttl: .hours(1))
        c.unsent = UnsentRetryPolicy(onReconnect: true, period: .minutes(2))
        c.receive = ReceivePolicy(onPush: true, pullPeriod: nil, onReconnect: true)
        let system = try GrouperSystem(config: c)
        var received: [String] = []
        system.onReceive(device: 1) { _, ms in received += ms.filter { $0.type == .update }.map(\.objectID) }
        system.setServerState(.refusing, server: 1, at: .zero)
        system.update(device: 0, objectID: "a", size: 10, at: SimTime.zero + .seconds(Int64(5)))
        system.run(until: SimTime.zero + .minutes(1))
        #expect(system.unsentCount(device: 0) == 1)
        #expect(system.counters.total(.uploadFailures, device: 0) == 1)
        #expect(received.isEmpty)
        system.restartServer(1, keepData: true, at: SimTime.zero + .minutes(3))
        system.run(until: SimTime.zero + .minutes(10))
        #expect(system.unsentCount(device: 0) == 0)
        #expect(system.counters.total(.unsentRetries, device: 0) >= 1)
        #expect(system.counters.total(.messagesUploaded, device: 0, type: .update) == 1)
        #expect(received == ["a"])
        #expect(system.check().passed)
    }
}
