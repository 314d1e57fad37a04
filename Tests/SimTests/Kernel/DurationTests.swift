import Testing
import Foundation
@testable import SimKernel

@Suite("Durations")
struct DurationTests {
    @Test(arguments: [
        ("250ms", 250_000_000), ("1.5s", 1_500_000_000), ("10min", 600_000_000_000),
        ("2h", 7_200_000_000_000), ("1d", 86_400_000_000_000), ("30us", 30_000), ("5ns", 5),
        ("0.25ms", 250_000), ("0s", 0), (".5s", 500_000_000), ("1.000000001s", 1_000_000_001),
        ("-3s", -3_000_000_000),
    ] as [(String, Int64)])
    func parses(_ text: String, _ nanos: Int64) throws {
        #expect(try SimDuration(parsing: text).nanoseconds == nanos)
    }

    @Test(arguments: [
        ("", "no number"), ("ms", "no number"), ("5", "missing unit"), ("5sec", "unknown unit \"sec\""),
        ("5 s", "unknown unit \" s\""), ("1.2.3s", "malformed number"), ("1.s", "malformed number"),
        ("0.5ns", "not a whole number of nanoseconds"), ("99999999999d", "too large"),
        ("1e3s", "unknown unit \"e3s\""), ("--1s", "malformed number"), ("+1s", "no number"),
    ])
    func rejectsNamingTheString(_ text: String, _ reason: String) {
        do {
            _ = try SimDuration(parsing: text)
            Issue.record("\"\(text)\" should not parse")
        } catch {
            #expect(error.reason == reason, "\(text)")
            #expect(error.description.contains("\"\(text)\""))
            #expect(error.description.contains("ns, us, ms, s, min, h, d"))
        }
    }

    @Test func printsLargestExactUnitAndRoundTrips() throws {
        #expect(SimDuration.milliseconds(250).description == "250ms")
        #expect(SimDuration.seconds(1.5).description == "1500ms")   // largest unit that is whole
        #expect(SimDuration(nanoseconds: 1_500_000_001).description == "1500000001ns")
        #expect(SimDuration.minutes(10).description == "10min")
        #expect(SimDuration.hours(2).description == "2h")
        #expect(SimDuration.days(1).description == "1d")
        #expect(SimDuration.zero.description == "0s")
        // Times print as seconds since start, nanoseconds kept, so logs read naturally.
        #expect(SimTime(nanoseconds: 1_500).description == "t+0.0000015s")
        #expect(SimTime(nanoseconds: 10_836_744_617_944).description == "t+10836.744617944s")
        #expect(SimTime.zero.description == "t+0s")
        #expect(SimTime(nanoseconds: 3_000_000_000).description == "t+3s")
        var rng = Xoshiro256StarStar(seed: 1)
        for _ in 0..<2000 {
            let d = SimDuration(nanoseconds: Int64(rng.nextInt(below: 1 << 50)) - (1 << 49))
            #expect(try SimDuration(parsing: d.description) == d)
        }
    }
}
