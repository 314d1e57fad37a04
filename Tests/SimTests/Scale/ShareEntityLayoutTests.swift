import Testing
import SimKernel
@testable import GrouperModel

/// A share entity keeps its bytes, message id, save time and number only in its download box,
/// and the box keeps the share's byte count beside its buffer address: each answers as the
/// plain stored fields would (the values given at the put, equality field by field), and a
/// reply's wire size taken from the boxes is the one summed over the shares' bytes, also after
/// a download's share is replaced (a tampering server).
@Suite struct ShareEntityLayoutTests {
    @Test func entityAndBoxAnswerAsPlainFields() {
        var rng = Xoshiro256StarStar(seed: 48)
        var made: [(ShareEntity, [UInt8], SimTime, String, Int, Int?, Int, Int32)] = []
        for id in 1...300 {
            let share = (0..<rng.int(in: 0...40)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let at = SimTime.zero + .seconds(Int64(rng.int(in: 0...5)))
            let mid = "m\(rng.int(in: 0...9))", sender = rng.int(in: 0...3), group = rng.int(in: 0...1)
            let receiver: Int? = rng.chance(0.3) ? rng.int(in: 0...3) : nil
            let number = Int32(rng.int(in: -1...9))
            let e = ShareEntity(id: id % 7, share: share, saveAt: at, messageID: mid, sender: sender, senderNode: "n\(sender)",
                                receiver: receiver, group: group, messageNumber: number)
            #expect(e.share == share && e.saveAt == at && e.messageID == mid && e.messageNumber == number)
            #expect(e.sender == sender && e.receiver == receiver && e.group == group && e.id == id % 7)
            #expect(e.download.shareCount == share.count && e.download.shareID == id % 7 && e.download.sender == "n\(sender)")
            made.append((e, share, at, mid, sender, receiver, group, number))
        }
        for _ in 0..<2_000 {
            let a = made[rng.nextInt(below: made.count)], b = made[rng.nextInt(below: made.count)]
            let plain = a.0.id == b.0.id && a.1 == b.1 && a.2 == b.2 && a.3 == b.3 && a.4 == b.4 && a.5 == b.5
                && a.6 == b.6 && a.7 == b.7
            #expect((a.0 == b.0) == plain)
        }
    }

    @Test func replyWireSizeFromTheBoxes() {
        var rng = Xoshiro256StarStar(seed: 49)
        for _ in 0..<300 {
            var ss = ShareDownloads()
            for i in 0..<rng.int(in: 0...4) {
                var d = ShareDownload(shareID: i, messageID: "m", sender: "n", share: [UInt8](repeating: 1, count: rng.int(in: 0...700)),
                                      saveAt: .zero)
                if rng.chance(0.3) { d.share = [UInt8](repeating: 2, count: rng.int(in: 0...700)) }   // tampered
                #expect(d.shareCount == d.share.count)
                ss.append(d)
            }
            for scheme in [SharingSchemeKind.gf256, .csss257] {
                let plain = ss.reduce(2) { $0 + WireSize.shareText($1.share.count, scheme: scheme) + 140 }
                #expect(WireSize.shares(ss, scheme: scheme) == plain)
            }
        }
    }
}
