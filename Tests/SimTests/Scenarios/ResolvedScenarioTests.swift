import Foundation
import Testing
@testable import Scenarios
@testable import Format
@testable import ScenarioFile
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore

/// `resolved.json`: every point's scenario with every default filled in, loadable on its own
/// and equal to the point that ran.
@Suite struct ResolvedScenarioTests {
    @Test func everyPointReadsBackAsTheSameScenario() throws {
        var sources = BuiltinScenarios.all.map { BuiltinScenarios.source(named: $0.name)! }
        sources += try ScenarioFixtures.docExamples().enumerated().map { ScenarioSource(label: "ex\($0.offset)", text: $0.element) }
        for source in sources {
            let s = try ScenarioLoader.load(source).overriding(seed: 99, replications: 2)
            let result = ResultSet(scenario: s, records: [])
            let root = try JSONParser.parse(result.resolvedJSON)
            guard case .array(let points)? = root["points"] else { Issue.record("no points"); continue }
            #expect(points.count == s.points.count)
            for (p, point) in points.enumerated() {
                let text = JSONWriter.pretty(try #require(point["scenario"]))
                let back = try ScenarioLoader.load(ScenarioSource(label: "\(source.label) point \(p)", text: text))
                var expected = s.pointSpecs[p]
                expected.sweep = []
                // "All devices" and the explicit list of all devices are the same group.
                if expected.group.members == nil {
                    #expect(back.base.group.members == Array(1...expected.group.devices))
                    expected.group.members = back.base.group.members
                }
                #expect(back.points.count == 1 && back.base == expected, "\(source.label) point \(p)")
                #expect(text.contains("\"sweep_period\"") && text.contains("\"profiles\"") && text.contains("\"seed\": 99"))
            }
        }
    }

    @Test func resultsCarryIt() throws {
        let dir = ScenarioFixtures.tempDir("resolved")
        #expect(runCLI(["run", "smoke", "--engine", "synthetic", "--out", dir.path]).code == 0)
        let manifest = try String(contentsOfFile: dir.path + "/manifest.json", encoding: .utf8)
        #expect(manifest.contains("\"resolved.json\""))
        let resolved = try String(contentsOfFile: dir.path + "/resolved.json", encoding: .utf8)
        #expect(resolved.contains("\"unsent_retry\": \"10min\"") && resolved.contains("\"require\": ["))
    }
}
