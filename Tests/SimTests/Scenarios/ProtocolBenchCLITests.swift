import Testing
import Scenarios

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
    let bad = try CLIProcess.run(["bench", "protocol", "--devices", "1"])
    #expect(bad.status == 2 && bad.stderr.contains("--devices must be an integer in 2...1000"))
}
