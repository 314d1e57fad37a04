import Foundation

/// Refined closed forms of 6.1–6.8 for the two models (derivation: docs/equations.md).
/// Values in row order 6.1 … 6.8; nil for the ablation's intermediate steps.
enum RefinedForms {
    static func values(_ p: EquationParameters) -> [Double]? {
        switch p.model {
        case .thesis: thesis(p)
        case .protocol: protocolModel(p)
        default: nil
        }
    }

    /// Thesis model (rotating schedule, in TTL units: a period of length l = L/T starts every
    /// s = 1/F, device m mod D takes period m, cycle P = D·s). A writer writes U_i per TTL
    /// evenly in its online time, so UR_i = U_i·Σ_k (l − o_k)/(P − l), o_k the overlap of the
    /// writer's own period with that of the device k slots away: U_i·(L/T)·F whenever F·L/T is
    /// whole. With l > 1 an away device cannot download what expired before its return: the
    /// others' writes in [a, a + l − 1) and the re-uploads of the returns in that span.
    static func thesis(_ p: EquationParameters) -> [Double] {
        let d = Double(p.devices), u = Double(p.updatesPerDevice), c = Double(p.confirms)
        guard p.offline > 0, p.devices > 1 else { return protocolModel(p) }
        let l = p.lOverT, slot = 1 / p.offline, cycle = d * slot
        func overlap(_ x0: Double, _ x1: Double, device k: Int) -> Double {
            (-2...2).reduce(0.0) { acc, j in
                let a = Double(k) * slot + Double(j) * cycle
                return acc + max(0, min(x1, a + l) - max(x0, a))
            }
        }
        let othersAway = (1..<p.devices).reduce(0.0) { $0 + l - overlap(0, l, device: $1) }
        let ur = u * othersAway / (cycle - l)
        let nui = u + c + ur
        var lost = 0.0
        if l > 1 {
            let writesLost = (1..<p.devices).reduce(0.0) { $0 + (l - 1) - overlap(0, l - 1, device: $1) } * (u + c) / (1 - l / cycle)
            let returns = (1..<p.devices).filter { m in
                let r = -Double(m) * slot + l
                return r > -1e-9 && r < l - 1 - 1e-9
            }.count
            lost = (writesLost + Double(returns) * ur * cycle) / cycle
        }
        let nd = d * nui - lost
        return [nui, d * nui, nd, d * nd, ur, nui, d * nui, nd]
    }

    /// Protocol model, F̄ = F time-average offline devices, exponential offline times (mean L),
    /// pull period p, sweep period s. A period of length x loses the messages saved in
    /// [a − u, a + x − T − v) (u: time since the last pull, v: since the last sweep), so with
    /// returns at rate F̄/L the expected loss per writer per TTL is
    /// U_i·F̄·(D−1)/D·e^(−T/L)·g(p/L)·h(s/L), g(z) = (e^z − 1)/z, h(z) = (1 − e^(−z))/z.
    static func protocolModel(_ p: EquationParameters) -> [Double] {
        let d = Double(p.devices), u = Double(p.updatesPerDevice), c = Double(p.confirms)
        guard p.offline > 0, p.devices > 1 else { return [u + c, d * (u + c), d * (u + c), d * d * (u + c), 0, u + c, d * (u + c), d * (u + c)] }
        let lt = p.lOverT, fbar = p.offline
        let pull = ThesisEquations.pullPeriod(p).seconds / p.ttl.seconds / lt
        let sweep = ThesisEquations.sweepPeriod(p).seconds / p.ttl.seconds / lt
        let g = (exp(pull) - 1) / pull, h = (1 - exp(-sweep)) / sweep
        let lossFraction = exp(-1 / lt) * g * h           // E[(X − T + u − v)⁺]/L
        let returnsPerDevice = fbar / (lt * d)            // returns per device per TTL
        let lostPerPair = returnsPerDevice * lt * lossFraction  // in TTLs of writing, per writer
        let ur = u * (d - 1) * lostPerPair
        let spacing = 1 / u / lt                          // T/U_i in units of L
        let resend = (d - 1) * returnsPerDevice * lossFraction * (1 - exp(-spacing)) / spacing
        let confirms = c * (1 - fbar / d) + returnsPerDevice
        let lostConfirms = (d - 1) * lostPerPair * confirms
        let nui = u + confirms + resend + ur
        let ndi = d * (u + confirms) + 2 * resend + ur - lostConfirms
        return [nui, d * nui, ndi, d * ndi, ur, nui, d * nui, ndi]
    }
}
