import Testing
import SimKernel
@testable import GrouperModel

/// `protocol.resend_ranges` on the whole system: a receiver with two holes from one writer and
/// messages it received between them.
@Suite struct ResendRangesTests {
    /// Device 2 (index 1) is away 20–140 min and again 150–330 min, TTL 1 h, while device 1
    /// writes every 10 min (at 5, 15, …). The first absence loses the writes of 25–75 min
    /// (sequences 3…8); it gets 9…14 when it returns at 140 and asks for 3…8, but the writer is
    /// itself away 138–200 min and answers only at 200, when device 2 is gone again, so those
    /// copies expire unread. The second absence loses 15…27 (written 145–265, the first seven
    /// uploaded only at 200). Back at 330 it misses 3…8 and 15…27 and holds 9…14, whose copies
    /// have expired too: `.span` asks 3…27 and gets 9…14 re-uploaded as well (6 + 25 re-uploads;
    /// the receiver skips them by message id), `.holes` asks "3-8,15-27" and gets exactly what
    /// it misses (6 + 19). Both end with every message.
    @Test func holesReuploadNothingTheRequesterHeld() throws {
        func run(_ ranges: ResendRanges) throws -> (reuploads: Int, objects: Int, requests: Int) {
            // The run ReuploadPartsTests splits into parts.
            let system = try ReuploadPartsTests.run(ranges)
            let n = system.counters
            return (n.total(.reUploads, device: 0), system.objects(device: 1).count, n.total(.resendRequests, device: 1))
        }
        let span = try run(.span), holes = try run(.holes)
        #expect(span.objects == 40 && holes.objects == 40, "both recover every message: \(span), \(holes)")
        #expect(holes.reuploads == 6 + 6 + 13, "3…8 twice, 15…27 once; nothing the requester held: \(holes)")
        #expect(span.reuploads == holes.reuploads + 6, "span re-uploads the held 9…14 as well: \(span)")
        #expect(span.requests == holes.requests, "one request each time either way: \(span) \(holes)")
    }
}
