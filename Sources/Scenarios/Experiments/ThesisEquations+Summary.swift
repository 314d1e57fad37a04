import Foundation
import SimKernel
import GrouperModel
import Format

extension ThesisEquations {
    /// Batch means over every replication, then the steady-state estimate of each value.
    static func summarise(_ p: EquationParameters, _ reps: [ReplicationCounts], warmUp: Int, batch: Int,
                          measured: Int) -> EquationResult {
        let (ys, cs) = batchMeans(reps, batch: batch, measured: measured)
        let means = controlMeans(p)
        let est = ys.map { SteadyStateEstimator.estimate($0, controls: cs, means: means) }
        let refined = RefinedForms.values(p)
        var rows: [EquationRow] = []
        for (i, form) in closedForms(p).enumerated() {
            rows.append(EquationRow(equation: form.0, quantity: form.1, formula: form.2,
                                    thesisFor: i < 4 ? "F = 0" : "F > 0", closedForm: form.3,
                                    refined: refined?[i], simulated: est[i], thesisApplies: i >= 4 || p.offline == 0))
        }
        if p.offline > 0 { rows = Array(rows[4...] + rows[..<4]) }
        return EquationResult(rows: rows, mix: UploadMix(normal: est[8], confirms: est[9], resendRequests: est[10],
                                                         reUploads: est[11], firstCopies: est[12], repeatedCopies: est[13],
                                                         heldCopies: est[14]),
                              refinedMix: RefinedForms.mix(p),
                              replications: reps.count, windows: reps.count * measured, warmUpWindows: warmUp,
                              batchWindows: batch)
    }

    /// Per value (the 15 of `counts`), the batch means over every replication, and each
    /// batch's control variates (the three of the offline periods, then the normal first uploads).
    static func batchMeans(_ reps: [ReplicationCounts], batch: Int, measured: Int) -> (ys: [[Double]], cs: [[Double]]) {
        var ys = Array(repeating: [Double](), count: 15), cs: [[Double]] = []
        for r in reps {
            for b in stride(from: 0, to: measured, by: batch) {
                let ws = r.windows[b..<(b + batch)], ctl = r.controls[b..<(b + batch)]
                for v in 0..<15 { ys[v].append(ws.reduce(0) { $0 + $1[v] } / Double(batch)) }
                cs.append([0, 1, 2].map { j in ctl.reduce(0) { $0 + $1[j] } / Double(batch) }
                          + [ws.reduce(0) { $0 + $1[8] } / Double(batch)])
            }
        }
        return (ys, cs)
    }

    /// Known means of the control variates per window (exponential offline times only):
    /// returns per TTL F̄·T/L, so E[Σ x/T] = F̄, E[Σ (x − T)⁺/T] = F̄·e^(−T/L), and the saves
    /// of the others in [a, b − T) per device F̄·(D − 1)/D·U_i·e^(−T/L) (a stationary writer
    /// saves U_i per T on average, independently of the offline device). The fourth is an
    /// output with a known mean: every write is uploaded once, so normal first uploads per
    /// device per TTL average exactly U_i in steady state.
    static func controlMeans(_ p: EquationParameters) -> [Double]? {
        guard p.offline > 0, !p.model.scheduledOffline else { return nil }
        let avg = p.model.averageOffline(f: p.offline, lOverT: p.lOverT)
        let d = Double(p.devices), tail = exp(-1 / p.lOverT)
        return [avg, avg * tail, avg * (d - 1) / d * Double(p.updatesPerDevice) * tail, Double(p.updatesPerDevice)]
    }

    /// Exit non-zero instead of printing a table the simulation cannot stand behind.
    static func checkRealisable(_ p: EquationParameters) throws {
        func fail(_ s: String) -> UnrealisableParameters { UnrealisableParameters(description: "equations: cannot realise these parameters: " + s) }
        if p.updatesPerDevice == 0 && p.confirms > 0 {
            throw fail("with U_i = 0 a device never confirms (the protocol sends no confirm before its first normal message), so 6.1 would read 0, not C = \(p.confirms)")
        }
        let avg = p.model.averageOffline(f: p.offline, lOverT: p.lOverT)
        if p.offline > 0 && avg >= Double(p.devices) - 1e-9 {
            throw fail("F·L/T = \(NumberFormat.shortest(avg)) devices offline on average needs F·L/T < D = \(p.devices) under --model \(p.model.modelName)")
        }
        if p.offline > 0 && p.devices < 2 { throw fail("F > 0 needs D ≥ 2 (someone must write while a device is away)") }
        try checkUploadRate(p)
    }

    /// A short run with every device online: can every device upload U_i + C messages per T?
    static func checkUploadRate(_ p: EquationParameters) throws {
        var q = p
        q.offline = 0
        let counts = try simulate(q, seed: p.seed, warmUp: 1, measured: 1).windows[0]
        let want = Double(p.updatesPerDevice + p.confirms)
        if counts[0] < want - 1e-9 {
            throw UnrealisableParameters(description: "equations: cannot realise these parameters: a device writes \(p.updatesPerDevice) normal messages and \(p.confirms) confirms per T = \(p.ttl), but in a run with every device online only \(NumberFormat.fixed(counts[0], digits: 2)) per device per T got uploaded (the simulated device, network and servers are too slow for that rate); use a longer --T or a smaller --U")
        }
    }
}
