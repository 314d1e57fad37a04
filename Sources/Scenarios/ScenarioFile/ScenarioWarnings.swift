/// Scenario settings that are valid but worth saying out loud (`validate` and `run` print
/// them to stderr as `warning:` lines; they do not change the exit code).
extension LoadedScenario {
    public var warnings: [String] {
        let plain = pointSpecs.indices.filter { pointSpecs[$0].group.k == 1 }
        guard !plain.isEmpty else { return recoveryWarnings }
        let which = pointSpecs.count == 1 ? ""
            : " in sweep point(s) " + plain.map(String.init).joined(separator: ", ")
        return ["\(source.label): group.k: k = 1\(which): one share rebuilds the message, so every share is the "
                + "message itself and each server holds it in plaintext (no secrecy from the servers)"] + recoveryWarnings
    }

    /// Settings under which recovery cannot work as meant (issue #26): receivers that look less
    /// often than a re-upload lives, and check/correct receivers fed by uploads that may reach
    /// only k servers.
    var recoveryWarnings: [String] {
        func which(_ points: [Int]) -> String {
            pointSpecs.count == 1 ? "" : " in sweep point(s) " + points.map(String.init).joined(separator: ", ")
        }
        let grouper = pointSpecs.indices.filter {
            pointSpecs[$0].architecture == .grouper && pointSpecs[$0].protocolSpec.variant != .noRecovery
        }
        var out: [String] = []
        let slow = grouper.filter {
            let p = pointSpecs[$0].protocolSpec.receive
            return p.mode == .poll && p.pollPeriod >= pointSpecs[$0].group.ttl
        }
        if !slow.isEmpty {
            out.append("\(source.label): protocol.receive: poll-only receivers with poll_period ≥ group.ttl\(which(slow)): "
                + "a re-upload lives one TTL and is not pushed, so a receiver may never look while it is there "
                + "and recovery cannot deliver (use a shorter poll_period or \"push-and-poll\")")
        }
        let thin = grouper.filter {
            pointSpecs[$0].protocolSpec.rebuild != .firstK && pointSpecs[$0].group.s == pointSpecs[$0].group.k
        }
        if !thin.isEmpty {
            out.append("\(source.label): protocol.rebuild: check/correct with s = k\(which(thin)): an upload may "
                + "reach only k servers while these receivers need k + 1 shares, so such messages arrive only "
                + "through a resend's re-upload")
        }
        return out
    }
}
