import Foundation
import Testing
@testable import Scenarios
@testable import Format
@testable import ScenarioFile
@testable import Plan
@testable import GrouperBinding
@testable import Timelines
@testable import Shrink
@testable import Experiments
@testable import Explore
@testable import Reports
import SimKernel

/// The model identity every result records (docs/cli.md, "Which model made a result").
@Suite struct ModelIdentityTests {
    @Test func everyReferenceScenarioRunsCleanly() throws {
        for (name, text) in ModelIdentity.references {
            let clock = ContinuousClock.now
            let records = try ModelIdentity.records(text, name: name, executor: GrouperExecutor())
            print("reference \(name): \(records.count) runs in \(ContinuousClock.now - clock)")
            #expect(!records.isEmpty)
        }
    }
}

/// A protocol model that reports one metric of one run a hair higher: another build.
private struct NudgedExecutor: RunExecutor {
    var metric: MetricName
    func execute(_ run: ResolvedRun) throws -> RunOutcome {
        var o = try GrouperExecutor().execute(run)
        if run.index == 0, let i = o.metrics.firstIndex(where: { $0.name == metric }) { o.metrics[i].value += 1e-9 }
        return o
    }
}

/// A protocol model whose runs end in another state (fingerprint): another build.
private struct OtherStateExecutor: RunExecutor {
    func execute(_ run: ResolvedRun) throws -> RunOutcome {
        var o = try GrouperExecutor().execute(run)
        o.fingerprint = RunFingerprint(value: o.fingerprint.value ^ 1)
        return o
    }
}

extension ModelIdentityTests {
    @Test func theIdentityIsStableAndChangesWithBehaviour() throws {
        let a = ModelIdentity.compute(), b = ModelIdentity.compute()
        #expect(a == b && a.count == 16)
        if ProcessInfo.processInfo.environment[ModelIdentity.testVariable] == nil { #expect(ModelIdentity.current == a) }
        #expect(ModelIdentity.compute(executor: OtherStateExecutor()) != a)
        #expect(ModelIdentity.compute(executor: NudgedExecutor(metric: "delivery_latency")) != a)
        #expect(ModelIdentity.compute(executor: NudgedExecutor(metric: MetricCatalog.all.last!.id)) != a)
    }
}
