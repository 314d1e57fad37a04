import Testing
import Foundation
import SimKernel
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

/// What `equations` prints next to what: thesis values only for the F they are given for, and
/// the ablation table's replications per row.
@Suite struct EquationReportTests {
    static func params(offline: Double) -> EquationParameters {
        var p = EquationParameters()
        p.devices = 4; p.updatesPerDevice = 3; p.confirms = 1; p.offline = offline; p.replications = 2
        p.model = .thesis
        return p
    }

    @Test func fAboveZeroMarksTheFZeroRowsNotApplicable() throws {
        let p = Self.params(offline: 1)
        let r = try ThesisEquations.run(p)
        let md = EquationReport.markdown(r, p)
        for eq in ["6.1", "6.2", "6.3", "6.4"] {
            let line = try #require(md.split(separator: "\n").first { $0.hasPrefix("| \(eq) |") })
            #expect(line.contains("| n/a (for F = 0) |"), "\(line)")
        }
        for eq in ["6.5", "6.6", "6.7", "6.8"] {
            let line = try #require(md.split(separator: "\n").first { $0.hasPrefix("| \(eq) |") })
            #expect(!line.contains("n/a"), "\(line)")
        }
        #expect(r.rows.filter { !$0.thesisApplies }.map(\.equation) == ["6.1", "6.2", "6.3", "6.4"])
        #expect(r.rows.filter { !$0.thesisApplies }.allSatisfy { $0.difference.isNaN })
        let csv = EquationReport.csv(r, p).split(separator: "\n")
        let row61 = try #require(csv.first { $0.hasPrefix("6.1,") }).split(separator: ",", omittingEmptySubsequences: false)
        #expect(row61[2].isEmpty && row61[6].isEmpty, "no closed form or difference for 6.1 at F > 0: \(row61)")
        #expect(EquationReport.jsonLines(r, p).contains("\"closed_form\":null"))
        // At F = 0 every thesis value applies (6.5–6.8 reduce to 6.1–6.4).
        let p0 = Self.params(offline: 0)
        let r0 = try ThesisEquations.run(p0)
        #expect(r0.rows.allSatisfy(\.thesisApplies) && !EquationReport.markdown(r0, p0).contains("n/a"))
        #expect(r0.replications == 1, "the F = 0 shortcut: one replication is exact")
    }

    @Test(.tags(.slow)) func ablationRowsSayHowManyReplicationsTheyUsed() throws {
        var p = Self.params(offline: 1)
        p.model = .protocol
        p.replications = 1
        // A known full-precision end with 4 replications, as `reproduce` passes it.
        var q = p
        q.replications = 4
        let known = try ThesisEquations.run(q)
        #expect(known.replications == 4)
        let a = try EquationAblation.run(p, known: [(.protocol, known)])
        let md = a.markdown
        #expect(!md.contains("replications=1"), "\(md)")
        #expect(md.contains("| replications | windows |"))
        let rows = md.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| step") && !$0.hasPrefix("| thesis closed") }
        #expect(rows.count == a.steps.count)
        for (row, step) in zip(rows, a.steps) {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(cells[cells.count - 2] == String(step.result.replications), "\(row)")
        }
        let protocolStep = try #require(a.steps.first { $0.label.hasPrefix("= --model protocol") })
        #expect(protocolStep.result.replications == 4 && a.steps.first!.result.replications == 1)
        #expect(a.steps.last!.label.contains("resend_ranges \"holes\"") && a.steps.last!.result.replications == 1)
        #expect(a.csv.hasPrefix("step,label,equation,simulated_mean,ci95,replications,windows\n"))
    }

    /// `equations` prints each part of UR_i and NU_i beside its refined value; the simulated
    /// parts add up to the simulated re-uploads (the regression is linear in the counts).
    @Test func partsOfTheCountsAddUpAndArePrinted() throws {
        var p = Self.params(offline: 1)
        p.model = .protocol; p.devices = 4; p.updatesPerDevice = 8; p.replications = 4
        let r = try ThesisEquations.run(p)
        let m = r.mix, f = try #require(r.refinedMix)
        #expect(abs(m.firstCopies.mean + m.repeatedCopies.mean + m.heldCopies.mean - m.reUploads.mean) <= 1e-9 * max(1, m.reUploads.mean))
        #expect(m.reUploads.mean > 0 && m.firstCopies.mean > 0)
        let ur = try #require(r.rows.first { $0.equation == "6.5" })
        #expect(ur.refined == f.reUploads && ur.simulated == m.reUploads)
        let nu = try #require(r.rows.first { $0.equation == "6.6" })
        #expect(abs(nu.refined! - (f.normal + f.confirms + f.resendRequests + f.reUploads)) <= 1e-9 * nu.refined!)
        // Per window of a replication with all three parts (F̄/D = 1/2): they add up.
        var q = p
        q.devices = 6; q.updatesPerDevice = 6; q.confirms = 2; q.offline = 3
        let counts = try ThesisEquations.simulate(q, seed: 3, warmUp: 2, measured: 60)
        for w in counts.windows { #expect(abs(w[12] + w[13] + w[14] - w[11]) <= 1e-9, "\(w)") }
        #expect(counts.windows.reduce(0) { $0 + $1[13] } > 0 && counts.windows.reduce(0) { $0 + $1[14] } > 0,
                "repeated and held copies occur")
        let md = EquationReport.markdown(r, p)
        for part in ["normal first uploads", "confirms", "resend requests", "UR_i: first copies of lost messages",
                     "UR_i: copies stored again for the same requester", "UR_i: copies of messages the requester held",
                     "UR_i re-uploads (6.5)"] {
            #expect(md.contains("\n| \(part) | "), "\(part)")
        }
        // The thesis model: every re-upload is a multicast, so a first copy.
        p.model = .thesis
        let t = try ThesisEquations.run(p)
        #expect(t.mix.firstCopies.mean == t.mix.reUploads.mean && t.mix.heldCopies.mean == 0 && t.mix.repeatedCopies.mean == 0)
    }
}
