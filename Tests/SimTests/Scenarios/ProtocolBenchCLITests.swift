import Testing
import Scenarios
@testable import Format
@testable import Catalogs
@testable import ScenarioFile
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore

/// `bench protocol` runs one deterministic Grouper run (its speed is not asserted): the same
/// options give the same fingerprint and counts in two processes.
@Test func benchProtocolIsOneDeterministicRun() throws {
    let args = ["bench", "protocol", "--devices", "4", "--hours", "2", "--json"]
    let a = try CLIProcess.run(args), b = try CLIProcess.run(args)
    #expect(a.status == 0 && b.status == 0, "\(a.stderr)")
    let rowA = try JSONParser.parse(a.stdout), rowB = try JSONParser.parse(b.stdout)
    for key in ["fingerprint", "events", "messages_uploaded", "messages_rebuilt", "devices", "hours"] {
        #expect(rowA[key] != nil && rowA[key] == rowB[key], "\(key)")
    }
    guard case .number(let events, _)? = rowA["events"], case .number(let uploaded, _)? = rowA["messages_uploaded"] else {
        Issue.record("no counts in \(a.stdout)"); return
    }
    #expect(events > 100 && uploaded > 0)
    for key in ["max_rss_gb", "rebuilt_per_second", "cpu_seconds"] { #expect(rowA[key] != nil, "\(key)") }
    let bad = try CLIProcess.run(["bench", "protocol", "--devices", "1"])
    #expect(bad.status == 2 && bad.stderr.contains("--devices must be an integer in 2...1000"))
    let both = try CLIProcess.run(["bench", "protocol", "--hours", "24", "--days", "1"])
    #expect(both.status == 2 && both.stderr.contains("give --hours or --days, not both"))
}

/// `--days D` is the same run as `--hours 24·D`.
@Test func benchProtocolDaysAreTwentyFourHours() throws {
    let days = try CLIProcess.run(["bench", "protocol", "--devices", "3", "--days", "1", "--json"])
    let hours = try CLIProcess.run(["bench", "protocol", "--devices", "3", "--hours", "24", "--json"])
    let a = try JSONParser.parse(days.stdout), b = try JSONParser.parse(hours.stdout)
    #expect(a["fingerprint"] != nil && a["fingerprint"] == b["fingerprint"] && a["hours"] == b["hours"])
}
