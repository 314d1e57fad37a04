import Testing
import Scenarios
@testable import Format
@testable import Catalogs
@testable import ScenarioFile
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore
import SimJSON

/// `bench codec` prints one JSON row per message (speed itself is not asserted); the rows
/// are read back with the project's own parser.
@Test func benchCodecJSONRows() throws {
    let r = try CLIProcess.run(["bench", "codec", "--json", "--seconds", "0.001"])
    #expect(r.status == 0, "\(r.stderr)")
    let rows = try r.stdout.split(separator: "\n").map { line throws(JSONSyntaxError) in try JSONParser.parse(String(line)) }
    #expect(rows.map { $0["message"] } == [.string("update"), .string("confirm")])
    #expect(rows.map { $0["bench"] } == [.string("codec"), .string("codec")])
    #expect(rows.first?["bytes"] == .number(701))
    for row in rows {
        for key in ["decodes_per_second", "encodes_per_second", "decodes_per_cpu_second"] {
            guard case .number(let v, _)? = row[key] else { Issue.record("no \(key) in \(row.brief)"); continue }
            #expect(v > 0)
        }
    }
    let bad = try CLIProcess.run(["bench", "codec", "--seconds", "0"])
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("(0, 60]"))
}
