import Testing
import GrouperModel

/// The rule 1 ≤ k ≤ s ≤ n ≤ 255, written once in `ShareThreshold`, seen from each layer that
/// takes k, n and s.
@Suite struct ShareThresholdTests {
    @Test func everyBrokenPartIsNamedAndGoodValuesPass() throws {
        #expect(ShareThreshold.violations(k: 2, n: 3, s: 3).isEmpty)
        #expect(try ShareThreshold(k: 2, n: 3, s: 3).description == "f(2,3,3)")
        #expect(ShareThreshold.violations(k: 0, n: 3, s: 3).map(\.parameter) == ["k"])
        #expect(ShareThreshold.violations(k: 3, n: 3, s: 2).map(\.parameter) == ["k"])
        #expect(ShareThreshold.violations(k: 2, n: 3, s: 4).map(\.parameter) == ["s"])
        #expect(ShareThreshold.violations(k: 2, n: 256, s: 3).map(\.parameter) == ["n"])
        #expect(ShareThreshold.violations(k: 5, n: 300, s: 400).map(\.parameter) == ["s", "n"])
        #expect(throws: ShareThreshold.Violation.self) { try ShareThreshold(k: 3, n: 3, s: 2) }
    }

    /// A SystemConfig carries one checked f(k, n, s): made from separate numbers, it refuses
    /// exactly what the rule refuses, naming the field (`servers` for n).
    @Test func systemConfigAgreesWithTheRule() throws {
        for (k, n, s) in [(1, 1, 1), (2, 3, 3), (3, 3, 2), (0, 2, 2), (2, 3, 4), (2, 256, 3)] {
            let violations = ShareThreshold.violations(k: k, n: n, s: s)
            let field = violations.first.map { $0.parameter == "n" ? "servers" : $0.parameter }
            switch Result(catching: { () throws(SystemConfigError) in try SystemConfig(devices: 2, servers: n, k: k, s: s) }) {
            case .success(let c):
                #expect(violations.isEmpty, "SystemConfig f(\(k),\(n),\(s)) was made")
                #expect(c.threshold.description == "f(\(k),\(n),\(s))" && c.k == k && c.servers == n && c.s == s)
                try c.validate()
            case .failure(let error):
                #expect(error.field == field, "SystemConfig f(\(k),\(n),\(s)): \(error)")
            }
        }
        #expect(SystemConfig().threshold.description == "f(2,3,3)")
    }
}
