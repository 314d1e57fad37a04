import Foundation
import Testing
@testable import Scenarios
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
