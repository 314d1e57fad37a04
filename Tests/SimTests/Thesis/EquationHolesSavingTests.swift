import Testing
import Foundation
import SimKernel
@testable import Scenarios
@testable import Reports
@testable import Experiments

/// `ResendHolesSaving` (results/equations-holes.{md,csv}): the saving of `resend_ranges`
/// `"holes"` against `"span"` is estimated from the pairs of runs with the same seeds, not
/// from the two sides' own estimates.
@Suite struct EquationHolesSavingTests {
    /// Case 2's parameters under the protocol model (`Reproduction.equationCases`).
    static func caseTwo() -> (span: EquationParameters, holes: EquationParameters) {
        let span = Reproduction.equationCases(jobs: 1)[2]
        var holes = span
        holes.model.resendHoles = true
        holes.replications = 1
        return (span, holes)
    }

    /// Replications whose windows vary (a fixed pseudo-random sequence) with control variates.
    static func replications(_ count: Int, measured: Int, shift: [Double] = Array(repeating: 0, count: 15),
                             seed: UInt64) -> [ReplicationCounts] {
        var rng = Xoshiro256StarStar(seed: seed)
        return (0..<count).map { _ in
            ReplicationCounts(windows: (0..<measured).map { _ in (0..<15).map { _ in 50 + 10 * rng.nextDouble() } },
                              controls: (0..<measured).map { _ in (0..<3).map { _ in rng.nextDouble() } })
        }.map { r in
            ReplicationCounts(windows: r.windows.map { w in zip(w, shift).map { $0 - $1 } }, controls: r.controls)
        }
    }

    /// Holes windows = span windows minus a constant per quantity: the paired saving is that
    /// constant with a zero interval, while each side alone has a spread. Pairing a span
    /// replication with the other replication's holes counts gives a saving with a spread:
    /// the pairs, not the two sides' estimates, make the saving. Pairs: the first min(count).
    @Test func savingIsEstimatedFromThePairs() throws {
        let (span, holes) = Self.caseTwo()
        let measured = ThesisEquations.plan(span).measured
        let shift = (0..<15).map { Double($0) / 4 }
        let s = Self.replications(2, measured: measured, seed: 1)
        let h = Self.replications(2, measured: measured, shift: shift, seed: 1)
        let paired = ResendHolesSaving.caseTwo(span: span, s, holes: holes, h)
        #expect(paired.pairs == 2 && paired.windows == 2 * measured)
        #expect(paired.rows.map(\.quantity) == ResendHolesSaving.caseTwoQuantities.map(\.0))
        for (row, (_, v)) in zip(paired.rows, ResendHolesSaving.caseTwoQuantities) {
            #expect(abs(row.saving.mean - shift[v]) < 1e-9 && row.saving.ci95HalfWidth == 0, "\(row)")
            #expect(row.span.ci95HalfWidth > 0 && row.holes.ci95HalfWidth > 0, "\(row)")
        }
        let crossed = ResendHolesSaving.caseTwo(span: span, s, holes: holes, Array(h.reversed()))
        #expect(crossed.rows.allSatisfy { $0.saving.ci95HalfWidth > 0 }, "unpaired replications leave a spread")
        let fewer = ResendHolesSaving.caseTwo(span: span, s, holes: holes, Array(h.prefix(1)))
        #expect(fewer.pairs == 1 && fewer.windows == measured)
    }

    /// The chunked comparison pairs the scenario's span and holes runs by replication: each
    /// row's saving is the mean of span − holes over the pairs (computed here from the
    /// records), and the tables name both comparisons. A shortened copy of the built-in.
    @Test func chunkedComparisonPairsTheRunsByReplication() throws {
        let text = BuiltinScenarios.resendHolesChunkedText
            .replacingOccurrences(of: "\"duration\": \"12h\"", with: "\"duration\": \"4h\"")
            .replacingOccurrences(of: "\"settle\": \"2h\"", with: "\"settle\": \"1h\"")
        #expect(text != BuiltinScenarios.resendHolesChunkedText)
        let result = try Reproduction.run(name: "resend-holes-chunked", text: text, jobs: 2, replications: 3)
        let c = ResendHolesSaving.chunked(result)
        #expect(c.pairs == 3)
        #expect(c.rows.map(\.quantity) == ResendHolesSaving.chunkedMetrics.map(\.rawValue))
        let ranges = result.scenario.pointSpecs.map(\.protocolSpec.resendRanges.rawValue)
        #expect(ranges == ["span", "holes"])
        for row in c.rows {
            let i = try #require(result.scenario.base.metrics.firstIndex { $0.rawValue == row.quantity })
            let value = { (p: Int, r: Int) in result.records.first { $0.point == p && $0.replication == r }!.metrics[i] }
            let diffs = (0..<3).map { value(0, $0) - value(1, $0) }
            let mean = diffs.reduce(0, +) / 3, ss = diffs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
            #expect(abs(row.saving.mean - mean) < 1e-9, "\(row.quantity)")
            let half = StudentT.quantile975(degreesOfFreedom: 2) * (ss / 2 / 3).squareRoot()
            #expect(abs(row.saving.ci95HalfWidth - half) <= 1e-9 * max(1, half), "\(row.quantity): the spread of the pairs' differences")
            #expect(abs(row.span.mean - (0..<3).map { value(0, $0) }.reduce(0, +) / 3) < 1e-9, "\(row.quantity)")
        }
        let held = try #require(c.rows.first { $0.quantity == "reuploads_held" })
        #expect(held.span.mean >= held.holes.mean, "holes never re-upload more held copies in these runs: \(held)")
        let saving = ResendHolesSaving.make(span: Self.caseTwo().span, Self.replications(1, measured: ThesisEquations.plan(Self.caseTwo().span).measured, seed: 2),
                                            holes: Self.caseTwo().holes, Self.replications(1, measured: ThesisEquations.plan(Self.caseTwo().span).measured, seed: 2),
                                            chunked: result)
        #expect(saving.markdown.contains("## Case 2 under --model protocol") && saving.markdown.contains("## Chunked workload"))
        let lines = saving.csv.split(separator: "\n")
        #expect(lines.first == "comparison,quantity,span_mean,span_ci95,holes_mean,holes_ci95,saving_mean,saving_ci95,pairs")
        #expect(lines.count == 1 + ResendHolesSaving.caseTwoQuantities.count + ResendHolesSaving.chunkedMetrics.count)
    }
}
