import Foundation
import Testing

/// `bench codec` prints one JSON row per message (speed itself is not asserted).
@Test func benchCodecJSONRows() throws {
    let r = try CLIProcess.run(["bench", "codec", "--json", "--seconds", "0.001"])
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n")
    #expect(lines.count == 2)
    for line in lines {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["bench"] as? String == "codec")
        #expect(["update", "confirm"].contains(object["message"] as? String ?? ""))
        #expect((object["decodes_per_second"] as? Double ?? 0) > 0)
        #expect((object["encodes_per_second"] as? Double ?? 0) > 0)
    }
    #expect(r.stdout.contains("\"bytes\":701"))
    let bad = try CLIProcess.run(["bench", "codec", "--seconds", "0"])
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("(0, 60]"))
}
