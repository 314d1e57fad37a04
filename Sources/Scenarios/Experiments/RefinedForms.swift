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

    /// The parts of NU_i and UR_i the refined forms are made of; nil where there is no form.
    static func mix(_ p: EquationParameters) -> RefinedMix? {
        switch p.model {
        case .thesis:
            let v = thesis(p)
            return RefinedMix(normal: Double(p.updatesPerDevice), confirms: Double(p.confirms), resendRequests: 0,
                              firstCopies: v[4], repeatedCopies: 0, heldCopies: 0)
        case .protocol: return protocolMix(p)
        default: return nil
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
        guard p.offline > 0, p.devices > 1, let m = protocolMix(p) else {
            return [u + c, d * (u + c), d * (u + c), d * d * (u + c), 0, u + c, d * (u + c), d * (u + c)]
        }
        let ur = m.reUploads
        let nui = u + m.confirms + m.resendRequests + ur
        // Downloads: own uploads (re-uploads included), the others' multicasts minus the
        // confirms lost (a lost normal message comes back as one re-upload the receiver
        // rebuilds: a repeated copy replaces an unread one, a held one is skipped by its id),
        // and the resend requests addressed to the device that reach it: one per lossy pair (a
        // first ask that expired unseen is not rebuilt, the one asked again in its place is).
        let lostConfirms = (d - 1) * lossPerPair(p) * m.confirms
        let ndi = d * (u + m.confirms) + m.resendRequests + lossyPairs(p) + ur - lostConfirms
        return [nui, d * nui, ndi, d * ndi, ur, nui, d * nui, ndi]
    }

    /// (Return, writer) pairs per device per TTL in which the receiver lost ≥ 1 message.
    static func lossyPairs(_ p: EquationParameters) -> Double {
        let d = Double(p.devices), u = Double(p.updatesPerDevice), l = p.lOverT, pi = p.offline / d
        let spacing = 1 / u / l                           // T/U_i in units of L
        let lattice = (1 - exp(-spacing)) / spacing       // E[min(1, U_i·y)], y ~ Exp(l)
        return (d - 1) * p.offline / (l * d) * lossFraction(p) * ((1 - pi) * lattice + pi / 2)
    }

    /// Expected messages a receiver loses per TTL of one writer's writing (in TTLs):
    /// returns per TTL × L/T × E[(X − T + u − v)⁺]/L.
    static func lossPerPair(_ p: EquationParameters) -> Double {
        let d = Double(p.devices), lt = p.lOverT
        return p.offline / (lt * d) * lt * lossFraction(p)
    }

    /// E[(X − T + u − v)⁺]/L = e^(−T/L)·g(p/L)·h(s/L).
    static func lossFraction(_ p: EquationParameters) -> Double {
        let lt = p.lOverT
        let pull = ThesisEquations.pullPeriod(p).seconds / p.ttl.seconds / lt
        let sweep = ThesisEquations.sweepPeriod(p).seconds / p.ttl.seconds / lt
        let g = (exp(pull) - 1) / pull, h = (1 - exp(-sweep)) / sweep
        return exp(-1 / lt) * g * h
    }

    /// The protocol model's parts per device per TTL (docs/equations.md, Derivations), in TTL
    /// units: l = L/T, π = F̄/D (the chance a device is offline), m = l·(D − F̄)/F̄ (its mean
    /// online time), κ = 1/l + 1/m (so a device online now is offline r later with chance
    /// π·(1 − e^(−κr))), p = T/24 the pull period (no pushes: a copy waits for its requester's
    /// next pull, p on average after the ask when the writer is online).
    /// - first copies: every message a receiver loses is re-uploaded once for it;
    /// - requests: one per (return, writer) pair that lost ≥ 1 message — the writer saves in a
    ///   loss span of length y ~ Exp(l) its lattice (P = min(1, U_i·y)) when online at its
    ///   start, else only the burst of its own return if that falls in it (P = 1 − e^(−y/l)) —
    ///   plus one more ask where the first expired unseen (writer away longer than T after it,
    ///   having left less than T before it, so that its messages showed the gap);
    /// - the copies for a pair go unread when the receiver is away at its next pull after the
    ///   answer and stays away longer than T (e^(−1/l)): writer online at the ask (delay p);
    ///   writer away, back after r < T (delay r + p/2); first ask expired, asked again when the
    ///   writer is back (delay 1.5·p). Those copies are asked again: repeated copies;
    /// - held copies: when the copies go unread, or the receiver is away when the writer comes
    ///   back (its returning burst then expires too), the receiver's next request spans the
    ///   first hole, the writer's messages it received between them and the new hole: U_i
    ///   (the last T) when the writer was online at the ask, else U_i·(1 − l·(1 − e^(−1/l)))
    ///   (the writer's saves in the T before it left).
    static func protocolMix(_ p: EquationParameters) -> RefinedMix? {
        guard p.model == .protocol, p.offline > 0, p.devices > 1 else { return nil }
        let d = Double(p.devices), u = Double(p.updatesPerDevice), c = Double(p.confirms)
        let l = p.lOverT, fbar = p.offline, pi = fbar / d
        let pull = ThesisEquations.pullPeriod(p).seconds / p.ttl.seconds
        let online = l * (d - fbar) / fbar, kappa = 1 / l + 1 / online
        let returnsPerDevice = fbar / (l * d)             // returns per device per TTL
        let first = u * (d - 1) * lossPerPair(p)
        let lossy = lossyPairs(p)
        let recent = 1 - exp(-1 / l), expires = exp(-1 / l)
        let resend = lossy * (1 + pi * recent * expires)
        func offlineAfter(_ t: Double) -> Double { pi * (1 - exp(-kappa * t)) }
        // ∫_0^a (1/l)e^(−r/l)·π(1 − e^(−κ(r + shift))) dr: the writer back after r < a.
        func awayAtAnswer(_ a: Double, shift: Double) -> Double {
            let k = 1 / l + kappa
            return pi * ((1 - exp(-a / l)) - (1 / l) / k * (1 - exp(-a * k)) * exp(-kappa * shift))
        }
        let writerOnline = (1 - pi) * offlineAfter(pull)
        // First ask expired unseen, asked again when the writer is back and the receiver online.
        let askedAgain = pi * expires * (1 - pi) * (1 - exp(-1.5 * pull / online))
        let unread = writerOnline + pi * recent * awayAtAnswer(1, shift: pull / 2) + recent * askedAgain
        let repeated = first * expires * unread
        let spacing = 1 / u / l                           // T/U_i in units of L
        let lattice = (1 - exp(-spacing)) / spacing
        let between = u * (1 - l * (1 - exp(-1 / l)))
        let held = lossy * expires * (writerOnline * u * lattice
                                      + (pi * awayAtAnswer(.infinity, shift: pull / 2) + askedAgain) * between)
        let confirms = c * (1 - pi) + returnsPerDevice
        return RefinedMix(normal: u, confirms: confirms, resendRequests: resend, firstCopies: first,
                          repeatedCopies: repeated, heldCopies: held)
    }
}
