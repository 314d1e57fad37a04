import Foundation
import Testing
@testable import Scenarios
@testable import Format
@testable import ScenarioFile
@testable import Plan
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore
@testable import GrouperSimCLI

/// Progress inside runs: reported as fractions of virtual time, changing nothing in the runs.
@Suite struct RunProgressTests {
    final class Log: @unchecked Sendable {
        let lock = NSLock()
        var values: [Double] = []
        func add(_ v: Double) { lock.lock(); values.append(v); lock.unlock() }
    }

    @Test func partialProgressClimbsToTheRunCountAndChangesNothing() throws {
        let text = ScenarioFixtures.sweepText.replacingOccurrences(of: "\"replications\": 3", with: "\"replications\": 2")
        let s = try ScenarioLoader.load(ScenarioSource(label: "p.json", text: text))
        let runs = Array(RunPlan(s).runs.prefix(3))
        let log = Log()
        let with = try ParallelRunner.execute(runs, executor: GrouperExecutor(), jobs: 1, partial: { done, total in
            #expect(total == 3)
            log.add(done)
        })
        let without = try ParallelRunner.execute(runs, executor: GrouperExecutor(), jobs: 1)
        #expect(with == without)
        let v = log.values
        #expect(v.count >= 3 * 100, "about 100 reports per run, got \(v.count)")
        #expect(zip(v, v.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(v.first! > 0 && abs(v.last! - 3) < 1e-9)
        #expect(v.contains { $0 > 0.4 && $0 < 0.6 }, "halfway through the first run")
    }

    @Test func barShowsFractionsOfRuns() {
        let c = CapturedOutput()
        let bar = ProgressBar(label: "x", enabled: true, io: c.io)
        bar.updatePartial(0.5, 2)
        #expect(c.err.contains("x [#######.......................] 0/2 runs 25%"))
        bar.update(2, 2)
        #expect(c.err.hasSuffix("] 2/2 runs 100%  elapsed 0:00  ETA 0:00\u{1B}[K"))
        bar.finish()
    }
}
