import Testing
import Foundation
import SimKernel
@testable import Scenarios

@Suite struct ThesisEquationTests {
    /// With F = 0 the thesis variant matches 6.1–6.4 (and 6.5–6.8, which reduce to them) exactly.
    @Test(arguments: [(3, 5, 1, 86_400), (4, 12, 2, 86_400), (1, 3, 1, 3_600), (6, 20, 3, 21_600), (2, 1, 0, 86_400)])
    func noOfflineDevicesMatchesExactly(_ d: Int, _ u: Int, _ c: Int, _ ttl: Int) throws {
        var p = EquationParameters()
        p.devices = d; p.updatesPerDevice = u; p.confirms = c; p.ttl = .seconds(Int64(ttl)); p.replications = 2
        for row in try ThesisEquations.evaluate(p) {
            #expect(row.simulated.mean == row.closedForm, "\(row.equation) D=\(d) U=\(u) C=\(c): \(row.simulated.mean) vs \(row.closedForm)")
            #expect(row.simulated.ci95HalfWidth == 0)
        }
    }

    @Test func closedFormsOfTheWorkedCases() {
        var p = EquationParameters()
        let f0 = ThesisEquations.closedForms(p).map(\.3)
        #expect(f0 == [101, 1010, 1010, 10100, 0, 101, 1010, 1010])
        p.offline = 2
        let f2 = ThesisEquations.closedForms(p).map(\.3)
        #expect(f2[4] == 200 && f2[5] == 301 && f2[6] == 3010 && f2[7] == 3010)
    }

    /// With offline devices the run uploads more than U_i + C (catch-up and recovery).
    @Test func offlineDevicesAreMeasuredNotAssumed() throws {
        var p = EquationParameters()
        p.devices = 4; p.updatesPerDevice = 10; p.offline = 1; p.replications = 3
        p.offlineTime = .seconds(Int64(2 * 86_400))
        let rows = try ThesisEquations.evaluate(p)
        #expect(rows.count == 8)
        #expect(rows.allSatisfy { $0.simulated.mean.isFinite })
    }

    @Test func badArgumentsExitTwoNamingTheOption() throws {
        for (args, name) in [(["--D", "0"], "--D"), (["--F", "10"], "--F"), (["--T", "abc"], "--T"),
                             (["--variant", "x"], "--variant"), (["--Q", "1"], "--Q")] {
            let r = try CLIProcess.run(["equations"] + args)
            #expect(r.status == 2, "\(args)")
            #expect(r.stderr.contains(name), "\(args): \(r.stderr)")
        }
    }

    @Test func jsonLinesCarryTheFields() throws {
        let r = try CLIProcess.run(["equations", "--D", "2", "--U", "3", "--replications", "2", "--json"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 8)
        #expect(lines.first?.contains("\"equation\":\"6.1\"") == true)
        #expect(lines.first?.contains("\"closed_form\":4") == true)
        #expect(lines.first?.contains("\"simulated_mean\":4") == true)
    }
}
