import Testing
import SimKernel
@testable import GrouperModel

@Suite struct CentralStoreTests {
    let v = ObjectVersion(time: 1, sender: "a", sequence: 1)
    let t0 = SimTime.zero, t1 = SimTime.zero + .seconds(Int64(10)), t2 = SimTime.zero + .seconds(Int64(20))

    /// One file for three receivers: stored once, count 3, one `unattended` record each; each
    /// close drops the count; the file goes when the last receiver closes, not before.
    @Test func referenceCountDeletesAtZero() {
        var s = CentralStore(devices: 4)
        let ts = s.store(messageID: "m", objectID: "o", version: v, content: "x", size: 100, from: 0,
                         receivers: [1, 2, 3], now: t0)
        #expect(ts == [0, 1, 2])
        #expect(s.files.count == 1 && s.files[0].references == 3 && s.bytesStored == 100)
        #expect(s.outbox.map(\.status) == [.unattended, .unattended, .unattended])
        do { let r = s.initiate(0); #expect(r?.messageID == "m") }
        #expect(s.outbox[0].status == .initiated && s.files[0].references == 3)
        do { let r = s.close(0, as: .delivered, now: t1); #expect(r) }
        #expect(s.files[0].references == 2)
        do { let r = s.close(1, as: .declined, now: t1); #expect(r) }
        #expect(s.files.count == 1 && s.files[0].references == 1 && s.deletions.isEmpty)
        do { let r = s.close(2, as: .delivered, now: t2); #expect(r) }
        #expect(s.files.isEmpty && s.bytesStored == 0)
        #expect(s.outbox.map(\.status) == [.delivered, .declined, .delivered])
        #expect(s.deletions.count == 1 && s.deletions[0].deletedAt == t2)
        // A closed transfer cannot be closed or fetched again.
        do { let r = s.close(2, as: .delivered, now: t2); #expect(!r) }
        do { let r = s.initiate(2); #expect(r == nil) }
        #expect(s.openTransfers(to: 1).isEmpty)
    }

    @Test func fileWithoutReceiversIsNotKept() {
        var s = CentralStore(devices: 2)
        do { let r = s.store(messageID: "m", objectID: "o", version: v, content: nil, size: 0, from: 0, receivers: [], now: t0); #expect(r.isEmpty) }
        #expect(s.files.isEmpty && s.outbox.isEmpty)
    }

    /// Retention: transfers older than the cutoff expire (stay unattended, marked expired) and
    /// release their file; younger ones stay open.
    @Test func expiryReleasesReferences() {
        var s = CentralStore(devices: 3)
        s.store(messageID: "old", objectID: "o", version: v, content: "x", size: 10, from: 0, receivers: [1, 2], now: t0)
        s.store(messageID: "new", objectID: "p", version: v, content: "y", size: 20, from: 0, receivers: [1], now: t2)
        do { let r = s.close(0, as: .delivered, now: t1); #expect(r) }
        do { let r = s.expire(createdBy: t1, now: t2); #expect(r == [1]) }
        #expect(s.outbox[1].status == .unattended && s.outbox[1].expired && !s.outbox[1].open)
        #expect(s.files.map(\.messageID) == ["new"] && s.bytesStored == 20)
        #expect(s.openTransfers(to: 1).map(\.messageID) == ["new"])
    }

    /// A restart without data loses every open transfer and every file.
    @Test func dropAllLosesOpenTransfers() {
        var s = CentralStore(devices: 3)
        s.store(messageID: "a", objectID: "o", version: v, content: "x", size: 10, from: 0, receivers: [1, 2], now: t0)
        do { let r = s.close(0, as: .delivered, now: t1); #expect(r) }
        do { let r = s.dropAll(now: t2); #expect(r == [1]) }
        #expect(s.files.isEmpty && s.bytesStored == 0 && s.outbox[1].lostInRestart && !s.outbox[0].lostInRestart)
        #expect(s.openTransfers(to: 2).isEmpty)
    }
}
