import SimKernel
import GrouperModel
import Format
import ScenarioFile
import Reports
import Catalogs

/// What `protocol.resend_ranges` `"holes"` saves against `"span"` (docs/equations.md, "What
/// `"holes"` saves"): on the thesis's case 2 under `--model protocol`, and on a chunked
/// workload (`resend-holes-chunked`). Both sides of a comparison run with the same seeds, so
/// they draw the same writes and offline periods (common random numbers) and the saving is
/// estimated pair by pair: span − holes per batch of TTL windows (case 2, with the control
/// variates of `equations`) or per replication (the chunked scenario), with its 95 % CI.
/// `grouper-sim reproduce` writes it to `results/equations-holes.{md,csv}`.
public struct ResendHolesSaving: Sendable {
    public struct Row: Equatable, Sendable {
        public var quantity: String
        public var span: SteadyStateEstimate
        public var holes: SteadyStateEstimate
        /// span − holes, estimated from the pairs (not from the two estimates above).
        public var saving: SteadyStateEstimate
    }

    /// Case 2's parameters (under `"span"`), the replication pairs and windows per side.
    public var caseTwo: EquationParameters
    public var caseTwoRows: [Row]
    public var caseTwoPairs: Int
    public var caseTwoWindows: Int
    public var chunkedRows: [Row]
    public var chunkedPairs: Int

    /// The per-device-per-TTL values compared on case 2, as indices into `ThesisEquations.counts`.
    static let caseTwoQuantities: [(String, Int)] = [
        ("UR_i re-uploads per device (6.5)", 4), ("UR_i: copies of messages the requester held", 14),
        ("UR_i: first copies of lost messages", 12), ("UR_i: copies stored again for the same requester", 13),
        ("resend requests per device", 10), ("NU_i uploads per device (6.6)", 5), ("ND_i downloads per device (6.8)", 7),
    ]

    /// The metrics compared on the chunked workload (whole runs).
    static let chunkedMetrics: [MetricName] = [.reuploads, .reuploadsHeld, .resendRequests, .messagesUploaded, .bytesUploaded]

    /// Case 2: `span` and `holes` are the same parameters but for `model.resendHoles`; their
    /// first min(count) replications are paired (replication i has the same seed on both sides).
    static func caseTwo(span p: EquationParameters, _ spanReps: [ReplicationCounts],
                        holes q: EquationParameters, _ holesReps: [ReplicationCounts]) -> (rows: [Row], pairs: Int, windows: Int) {
        var same = q
        same.model.resendHoles = p.model.resendHoles
        same.replications = p.replications
        same.jobs = p.jobs
        precondition(!p.model.resendHoles && q.model.resendHoles && same == p, "a holes run paired with another span run")
        let n = min(spanReps.count, holesReps.count)
        let (_, batch, measured) = ThesisEquations.plan(p)
        let (ys, cs) = ThesisEquations.batchMeans(Array(spanReps[..<n]), batch: batch, measured: measured)
        let (yh, ch) = ThesisEquations.batchMeans(Array(holesReps[..<n]), batch: batch, measured: measured)
        let means = ThesisEquations.controlMeans(p)
        let rows = caseTwoQuantities.map { name, v in
            Row(quantity: name,
                span: SteadyStateEstimator.estimate(ys[v], controls: cs, means: means),
                holes: SteadyStateEstimator.estimate(yh[v], controls: ch, means: means),
                saving: SteadyStateEstimator.estimate(zip(ys[v], yh[v]).map { $0 - $1 }, controls: cs, means: means))
        }
        return (rows, n, n * measured)
    }

    /// The chunked workload: the scenario's two sweep points (`"span"`, `"holes"`), runs paired
    /// by replication; per metric the mean over replications and Student's t interval.
    static func chunked(_ result: ResultSet) -> (rows: [Row], pairs: Int) {
        let points = result.scenario.pointSpecs.map(\.protocolSpec.resendRanges)
        guard let s = points.firstIndex(of: .span), let h = points.firstIndex(of: .holes) else {
            preconditionFailure("the chunked comparison needs a span and a holes point")
        }
        let span = result.records.filter { $0.point == s }, holes = result.records.filter { $0.point == h }
        let pairs = span.compactMap { a in holes.first { $0.replication == a.replication }.map { (a, $0) } }
        let rows = chunkedMetrics.compactMap { m -> Row? in
            guard let i = result.scenario.base.metrics.firstIndex(of: m) else { return nil }
            return Row(quantity: m.rawValue, span: estimate(pairs.map { $0.0.metrics[i] }),
                       holes: estimate(pairs.map { $0.1.metrics[i] }),
                       saving: estimate(pairs.map { $0.0.metrics[i] - $0.1.metrics[i] }))
        }
        return (rows, pairs.count)
    }

    /// Mean and Student-t 95 % half-width of independent samples.
    static func estimate(_ xs: [Double]) -> SteadyStateEstimate {
        SteadyStateEstimator.estimate(xs, controls: [], means: nil)
    }

    public var markdown: String {
        var s = "# What resend requests that list only the holes save (`protocol.resend_ranges` \"holes\" against \"span\")\n\n"
        s += "Each comparison runs both settings with the same seeds, so both draw the same writes and offline periods "
            + "(common random numbers), and the saving (span − holes) is estimated pair by pair, with its own 95 % CI "
            + "(narrower than the two sides' intervals suggest). docs/equations.md, \"What `\"holes\"` saves\", explains.\n\n"
        s += "## Case 2 under --model protocol\n\n"
        s += "Parameters: " + EquationReport.parameterPairs(caseTwo).filter { $0.0 != "model" && $0.0 != "replications" }
            .map { "\($0.0)=\($0.1)" }.joined(separator: ", ")
            + "; per device per TTL; \(caseTwoPairs) replication pair(s), \(caseTwoWindows) TTL windows on each side\n\n"
        s += table(caseTwoRows)
        s += "\n## Chunked workload (`grouper-sim run resend-holes-chunked`)\n\n"
        s += "\(ResendHolesSaving.chunkedSummary); per run (every run's whole count); \(chunkedPairs) replication pairs\n\n"
        s += table(chunkedRows)
        return s
    }

    func table(_ rows: [Row]) -> String {
        var s = "| quantity | span | holes | saving (span − holes) | saving, share of span |\n|---|---|---|---|---|\n"
        for r in rows {
            let share = r.span.mean == 0 ? "—" : NumberFormat.fixed(100 * r.saving.mean / r.span.mean, digits: 1) + " %"
            s += "| \(r.quantity) | \(Self.cell(r.span)) | \(Self.cell(r.holes)) | \(Self.cell(r.saving)) | \(share) |\n"
        }
        return s
    }

    static func cell(_ e: SteadyStateEstimate) -> String { NumberFormat.plusMinus(e.mean, e.ci95HalfWidth) }

    public var csv: String {
        var s = "comparison,quantity,span_mean,span_ci95,holes_mean,holes_ci95,saving_mean,saving_ci95,pairs\n"
        for (name, rows, pairs) in [("case-2", caseTwoRows, caseTwoPairs), ("resend-holes-chunked", chunkedRows, chunkedPairs)] {
            for r in rows {
                s += "\(name),\"\(r.quantity)\"," + [r.span, r.holes, r.saving].map {
                    "\(EquationReport.num($0.mean)),\(EquationReport.num($0.ci95HalfWidth))"
                }.joined(separator: ",") + ",\(pairs)\n"
            }
        }
        return s
    }
}

extension BuiltinScenarios {
    static let resendHoles: [(name: String, summary: String, text: String)] = [
        ("resend-holes-chunked", ResendHolesSaving.chunkedSummary, resendHolesChunkedText),
    ]

    static let resendHolesChunkedText = """
    {
      "format": 1,
      "name": "resend-holes-chunked",
      "description": "What resend requests that list only the holes save on a chunked workload: six devices, f(2,3,3), TTL 1 h, 4 MiB objects in 1 MiB chunks (an update every 20 min per device on average), devices online 1 h and offline 1 h on average, 12 h and a 2 h settle. Swept: protocol.resend_ranges span (the thesis) or holes; the replications pair the two (same seeds). reproduce writes the saving to results/equations-holes.md.",
      "seed": 12,
      "replications": 16,
      "duration": "12h",
      "settle": "2h",
      "group": {"devices": 6, "k": 2, "n": 3, "s": 3, "ttl": "1h"},
      "workload": {"update": {"every": {"dist": "exponential", "mean": "20min"}}, "objects": 10,
                   "object_size": 4194304, "chunking": {"chunk_size": 1048576}},
      "churn": {"online": {"dist": "exponential", "mean": "1h"}, "offline": {"dist": "exponential", "mean": "1h"}},
      "sweep": [{"path": "protocol.resend_ranges", "values": ["span", "holes"]}],
      "metrics": ["reuploads", "reuploads_first", "reuploads_repeated", "reuploads_held", "resend_requests",
                  "messages_uploaded", "bytes_uploaded", "converged", "delivery_ratio"]
    }

    """
}

extension ResendHolesSaving {
    static let chunkedSummary = "6 devices, f(2,3,3), TTL 1 h, 4 MiB objects in 1 MiB chunks under churn (online 1 h, offline 1 h): resend_ranges span vs holes"
}

extension ResendHolesSaving {
    /// Both comparisons: case 2 (`span` and `holes` with their kept replications, paired over
    /// the first min(count)) and the chunked scenario's result.
    static func make(span p: EquationParameters, _ spanReps: [ReplicationCounts], holes q: EquationParameters,
                     _ holesReps: [ReplicationCounts], chunked result: ResultSet) -> ResendHolesSaving {
        let two = caseTwo(span: p, spanReps, holes: q, holesReps)
        let c = chunked(result)
        return ResendHolesSaving(caseTwo: p, caseTwoRows: two.rows, caseTwoPairs: two.pairs, caseTwoWindows: two.windows,
                                 chunkedRows: c.rows, chunkedPairs: c.pairs)
    }
}
