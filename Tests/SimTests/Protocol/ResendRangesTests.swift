import Testing
import Foundation
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

    /// Under `"holes"` a held copy (`reuploads_held`) is a message its requester received after
    /// asking for it: on the chunked built-in's run with the most held copies (point 1, holes;
    /// replication 15: a requester back from an absence lists more chunks than one get
    /// carries, and a confirm handled in the first round asks for chunks the next round
    /// brings; the sender, away, checks the servers after they expired), read from the
    /// protocol trace: no request lists a message its requester had handled, and each copy of
    /// a message the requester had handled when the sender took up its request was asked for
    /// before the requester handled it. Those copies are exactly the run's held copies.
    @Test func underHolesAHeldCopyIsAMessageReceivedAfterTheAsk() throws {
        let dir = ScenarioFixtures.tempDir("holes-held")
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("run.trace").path
        let r = try CLIProcess.run(["run", "resend-holes-chunked", "--point", "1", "--replication", "15", "--trace", trace])
        #expect(r.status == 0, "\(r.stderr)")
        let heldLine = try #require(r.stdout.split(separator: "\n").first { $0.contains("reuploads_held = ") })
        let held = try #require(Int(heldLine.split(separator: "=")[1].split(separator: " ")[0]))
        struct Key: Hashable { var device: Substring, sender: Substring, sequence: Int }
        var handled: [Key: Double] = [:]
        var asks: [(t: Double, requester: Substring, sender: Substring, ranges: [ClosedRange<Int>])] = []
        var answers: [(t: Double, sender: Substring, requester: Substring)] = []
        var copies: [(t: Double, sender: Substring, requester: Substring, sequence: Int)] = []
        func sequences(_ labels: Substring) -> [Int] {
            labels.split(separator: ",").compactMap { $0.hasPrefix("update#") ? Int($0.dropFirst(7)) : nil }
        }
        for line in try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            let w = line.split(separator: " ")
            guard w.count >= 6, let t = Double(w[0].dropFirst(2).dropLast()) else { continue }
            if w[2] == "handle", w[3].hasPrefix("update#"), let q = Int(w[3].dropFirst(7)) {
                let k = Key(device: w[1], sender: w[5], sequence: q)
                if handled[k] == nil { handled[k] = t }
            } else if w[2] == "create", w[3].hasPrefix("resend("), let rs = DeliveryState.parseRanges(String(w[3].dropFirst(7).dropLast())) {
                asks.append((t, w[1], w[5], rs))
            } else if w[2] == "handle", w[3].hasPrefix("resend(") {
                answers.append((t, w[1], w[5]))
            } else if w.count == 6, w[2] == "upload", w[4] == "to", w[5] != "*" {
                copies += sequences(w[3]).map { (t, w[1], w[5], $0) }
            }
        }
        #expect(asks.count > 10 && !copies.isEmpty)
        for a in asks {
            for q in a.ranges.flatMap({ Array($0) }) {
                let got = handled[Key(device: a.requester, sender: a.sender, sequence: q)]
                #expect(got.map { $0 > a.t } ?? true, "\(a.requester) asked \(a.sender) for \(q) at \(a.t), handled at \(got!)")
            }
        }
        var heldAtChoice = 0
        for c in copies {
            guard let got = handled[Key(device: c.requester, sender: c.sender, sequence: c.sequence)],
                  let taken = answers.last(where: { $0.sender == c.sender && $0.requester == c.requester && $0.t <= c.t }),
                  got < taken.t else { continue }
            heldAtChoice += 1
            let asked = asks.last { $0.requester == c.requester && $0.sender == c.sender && $0.t < got
                && $0.ranges.contains { $0.contains(c.sequence) } }
            #expect(asked != nil, "\(c.requester) held \(c.sender)'s \(c.sequence) (since \(got)) without asking for it")
        }
        #expect(held > 0 && heldAtChoice == held, "held copies: \(held) counted, \(heldAtChoice) in the trace")
    }
}
