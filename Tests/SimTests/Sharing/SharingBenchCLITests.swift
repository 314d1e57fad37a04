import Foundation
import Testing

/// The bench runs and prints one JSON row per case (speed itself is not asserted).
@Test func benchSharingQuickJSONRows() throws {
    let r = try CLIProcess.run(["bench", "sharing", "--quick", "--json", "--seconds", "0.001"])
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n")
    #expect(lines.count == 8)
    for line in lines {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["bench"] as? String == "sharing")
        #expect(["gf256", "csss257"].contains(object["scheme"] as? String ?? ""))
        #expect(object["bytes"] as? Int == 656)
        #expect((object["splits_per_second"] as? Double ?? 0) > 0)
        #expect((object["joins_per_second"] as? Double ?? 0) > 0)
        #expect((object["checks_per_second"] as? Double ?? 0) > 0)
        #expect((object["corrects_per_second"] as? Double ?? 0) > 0)
        #expect(object["k"] is Int && object["n"] is Int)
    }
}

@Test func benchSharingRejectsBadOptions() throws {
    let bad = try CLIProcess.run(["bench", "sharing", "--scheme", "gf257"])
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("gf256, csss257"))
    let typo = try CLIProcess.run(["bench", "sharing", "--jsn"])
    #expect(typo.status == 2)
    #expect(typo.stderr.contains("--json"))
}
