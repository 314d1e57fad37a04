import Testing
import Foundation
import SimKernel
@testable import Scenarios

@Suite struct ThesisEquationTests {
    /// With F = 0 both models match 6.1–6.4 (and 6.5–6.8, which reduce to them) exactly.
    @Test(arguments: [(3, 5, 1, 86_400), (4, 12, 2, 86_400), (1, 3, 1, 3_600), (6, 20, 3, 21_600), (2, 1, 0, 86_400)])
    func noOfflineDevicesMatchesExactly(_ d: Int, _ u: Int, _ c: Int, _ ttl: Int) throws {
        for model in [EquationAssumptions.protocol, .thesis] {
            var p = EquationParameters()
            p.devices = d; p.updatesPerDevice = u; p.confirms = c; p.ttl = .seconds(Int64(ttl)); p.replications = 2
            p.model = model
            for row in try ThesisEquations.evaluate(p) {
                #expect(row.simulated.mean == row.closedForm, "\(row.equation) D=\(d) U=\(u) C=\(c): \(row.simulated.mean) vs \(row.closedForm)")
                #expect(row.simulated.ci95HalfWidth == 0)
                #expect(row.refined == row.closedForm)
            }
        }
    }

    @Test func closedFormsOfTheWorkedCases() {
        var p = EquationParameters()
        let f0 = ThesisEquations.closedForms(p).map(\.3)
        #expect(f0 == [101, 1010, 1010, 10100, 0, 101, 1010, 1010])
        p.offline = 2
        let f2 = ThesisEquations.closedForms(p).map(\.3)
        #expect(f2[4] == 200 && f2[5] == 301 && f2[6] == 3010 && f2[7] == 3010)
        p.model = .thesis
        #expect(RefinedForms.values(p)! == [301, 3010, 3010, 30100, 200, 301, 3010, 3010])
    }

    /// `--model thesis` makes 6.5–6.7 come out exactly when F·L/T is whole (L = T, L > T, L < T),
    /// and 6.8 within 0.1% (a device away longer than T loses what expired: the refined form).
    @Test(arguments: [(5, 10, 1, 1.0, 1.0), (4, 8, 1, 1.0, 2.0), (4, 6, 2, 2.0, 0.5), (6, 5, 1, 2.0, 1.0)])
    func thesisModelIsExactForWholeOfflineCounts(_ d: Int, _ u: Int, _ c: Int, _ f: Double, _ lt: Double) throws {
        var p = EquationParameters()
        p.devices = d; p.updatesPerDevice = u; p.confirms = c; p.offline = f; p.model = .thesis
        p.offlineTime = .seconds(Int64(lt * 86_400)); p.replications = 2
        let rows = try ThesisEquations.evaluate(p)
        #expect(rows.map(\.equation) == ["6.5", "6.6", "6.7", "6.8", "6.1", "6.2", "6.3", "6.4"])
        for row in rows.prefix(3) {  // exact up to the rounding of a mean of batch means
            #expect(abs(row.simulated.mean - row.closedForm) <= 1e-9 * row.closedForm, "\(row.equation): \(row.simulated.mean) vs \(row.closedForm)")
        }
        let nd = rows[3]
        #expect(abs(nd.simulated.mean - nd.refined!) <= 0.001 * nd.refined!, "6.8: \(nd.simulated.mean) vs \(nd.refined!)")
        if lt <= 1 { #expect(nd.refined == nd.closedForm) }
    }

    /// The refined forms against the simulation over a grid of (D, U_i, C, F, L/T): each lies
    /// within the 95% CI or within 5% of the simulated mean beyond it. EQUATION_GRID=full runs
    /// more points with more replications.
    @Test func refinedFormsMatchTheSimulationOverAGrid() throws {
        let full = ProcessInfo.processInfo.environment["EQUATION_GRID"] == "full"
        var points: [(String, Int, Int, Int, Double, Double)] = [
            ("protocol", 4, 8, 1, 1, 0.5), ("protocol", 4, 8, 1, 1, 1), ("protocol", 4, 8, 1, 1, 2),
            ("protocol", 4, 8, 1, 1, 5), ("protocol", 5, 8, 1, 0.5, 1), ("protocol", 5, 8, 0, 1.5, 2),
            ("protocol", 3, 8, 1, 1, 0.5), ("protocol", 6, 6, 2, 2, 1), ("protocol", 5, 6, 3, 1, 4),
            ("thesis", 4, 8, 1, 1, 0.5), ("thesis", 5, 8, 0, 1.5, 2), ("thesis", 3, 8, 1, 1, 0.5),
        ]
        if full {
            points += [("protocol", 6, 20, 2, 2, 3), ("protocol", 8, 10, 1, 3, 1), ("protocol", 10, 20, 1, 2, 1),
                       ("protocol", 6, 15, 3, 1, 4), ("thesis", 6, 15, 3, 1, 4), ("thesis", 8, 10, 1, 3, 1)]
        }
        for (model, d, u, c, f, lt) in points {
            var p = EquationParameters()
            p.devices = d; p.updatesPerDevice = u; p.confirms = c; p.offline = f
            p.offlineTime = .seconds(Int64(lt * 86_400)); p.model = model == "thesis" ? .thesis : .protocol
            p.replications = full ? 16 : 2; p.jobs = 2
            for row in try ThesisEquations.evaluate(p) {
                let ref = try #require(row.refined), est = row.simulated
                #expect(abs(ref - est.mean) <= est.ci95HalfWidth + 0.05 * abs(est.mean),
                        "\(model) D=\(d) U=\(u) C=\(c) F=\(f) L/T=\(lt) \(row.equation): refined \(ref), simulated \(est.mean) ± \(est.ci95HalfWidth)")
            }
        }
    }

    /// A refined form that is wrong by 40% must fail the grid check at these CIs (the check can fail).
    @Test func gridCheckCatchesAWrongForm() throws {
        var p = EquationParameters()
        p.devices = 4; p.updatesPerDevice = 10; p.offline = 1; p.offlineTime = .seconds(Int64(2 * 86_400))
        p.replications = 8; p.jobs = 2
        let ur = try ThesisEquations.evaluate(p).first { $0.equation == "6.5" }!
        let wrong = ur.refined! * 1.4
        #expect(abs(wrong - ur.simulated.mean) > ur.simulated.ci95HalfWidth + 0.05 * ur.simulated.mean)
    }

    @Test func badArgumentsExitTwoNamingTheOption() throws {
        for (args, name) in [(["--D", "0"], "--D"), (["--F", "10"], "--F"), (["--T", "abc"], "--T"),
                             (["--variant", "x"], "--variant"), (["--Q", "1"], "--Q"), (["--model", "x"], "--model")] {
            let r = try CLIProcess.run(["equations"] + args)
            #expect(r.status == 2, "\(args)")
            #expect(r.stderr.contains(name), "\(args): \(r.stderr)")
        }
    }

    /// Parameters the simulation cannot realise are refused, not printed as a wrong table.
    @Test func unrealisableParametersExitNonZero() throws {
        for (args, words) in [(["--U", "0"], "U_i = 0"), (["--D", "2", "--U", "10000", "--T", "1s"], "too slow"),
                              (["--model", "thesis", "--D", "4", "--F", "2", "--L", "2d"], "F·L/T")] {
            let r = try CLIProcess.run(["equations"] + args)
            #expect(r.status != 0, "\(args)")
            #expect(r.stderr.contains("cannot realise") && r.stderr.contains(words), "\(args): \(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
    }

    @Test func jsonLinesCarryTheFieldsAndDoNotDependOnJobs() throws {
        let args = ["equations", "--D", "3", "--U", "4", "--F", "1", "--replications", "4", "--json"]
        let r = try CLIProcess.run(args + ["--jobs", "1"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 8)
        #expect(lines.first?.contains("\"equation\":\"6.5\"") == true)
        for key in ["closed_form", "simulated_mean", "ci95", "refined_form", "\"model\":\"protocol\"", "windows", "thesis_for"] {
            #expect(lines.first?.contains(key) == true, "\(key)")
        }
        #expect(try CLIProcess.run(args + ["--jobs", "2"]).stdout == r.stdout)
    }

    @Test func ablationGoesFromThesisToProtocol() throws {
        let r = try CLIProcess.run(["equations", "--ablation", "--D", "3", "--U", "4", "--F", "1", "--replications", "2"])
        #expect(r.status == 0)
        let rows = r.stdout.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| step") }
        #expect(rows.count == 7)
        #expect(rows[1].contains("--model thesis") && rows[1].contains("| 4 ± 0 |"))
        #expect(rows.last?.contains("--model protocol") == true)
    }
}
