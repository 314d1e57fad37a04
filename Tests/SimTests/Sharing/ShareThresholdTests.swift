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

    /// SystemConfig and the server's group set-up refuse exactly what the rule refuses.
    @Test func systemConfigAndServerAgreeWithTheRule() {
        for (k, n, s) in [(1, 1, 1), (2, 3, 3), (3, 3, 2), (0, 2, 2), (2, 3, 4), (2, 256, 3)] {
            let ok = ShareThreshold.violations(k: k, n: n, s: s).isEmpty
            var c = SystemConfig(devices: 2, servers: n, k: k, s: s)
            c.rebuild = .firstK
            #expect(((try? c.validate()) != nil) == ok, "SystemConfig f(\(k),\(n),\(s))")
        }
    }
}
