import SimKernel

extension GrouperSystem {
    /// The TTL checker's findings about hostile servers: a `keep` server holds shares past the
    /// TTL and an `early-delete` server deletes them before it. Both are the server's doing,
    /// reported with kind `server`, which does not fail the checker.
    func serverTTLFindings() -> [CheckFinding] {
        var out: [CheckFinding] = []
        for s in world.serverNodes {
            for b in s.ttlMisbehaviours {
                let text: String
                switch b {
                case .keep:
                    let limit = config.ttl + config.sweepPeriod
                    let held = s.server.shares.filter { sim.now - $0.saveAt > limit }.count
                    text = "server \(serverNumber(s.index)) ignores the TTL (keep): served \(s.keptPastTTL) share(s) and holds \(held) "
                        + "past TTL + sweep period; a finding about the server, not a protocol failure"
                case .earlyDelete(let ttl):
                    text = "server \(serverNumber(s.index)) deletes shares after \(ttl), before the group TTL \(config.ttl) "
                        + "(early-delete); a finding about the server, not a protocol failure"
                default: continue
                }
                out.append(CheckFinding(checker: .ttl, kind: .server, message: text, messageIDs: []))
            }
        }
        return out
    }
}
