import Testing
import SimKernel
@testable import GrouperModel

/// A partial message's per-server slots (inline for the first four servers, an array beyond)
/// hold what an array of optional slots would, for any number of servers.
@Suite struct ShareSlotsTests {
    @Test(arguments: [1, 2, 3, 4, 5, 7, 12])
    func slotsBehaveLikeAnArray(_ servers: Int) {
        var rng = Xoshiro256StarStar(seed: UInt64(servers))
        var slots = ShareSlots(servers: servers)
        var reference: [CollectedShare?] = Array(repeating: nil, count: servers)
        for step in 0..<400 {
            let j = Int(rng.next() % UInt64(servers))
            let value: ShareSlots.Slot = rng.next() % 4 == 0 ? nil : CollectedShare(ShareDownload(
                shareID: step, messageID: "m", sender: "s", share: [UInt8(j), UInt8(step % 256)], saveAt: .zero))
            slots[j] = value
            reference[j] = value
            #expect(slots.count == servers)
            #expect(slots.map { $0?.id } == reference.map { $0?.id })
            #expect(slots.map { $0?.share } == reference.map { $0?.share })
            #expect(slots.map { $0?.address } == reference.map { $0?.address })
        }
    }
}
