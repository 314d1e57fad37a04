import SimKernel

/// Scenario settings that are valid but worth saying out loud (`validate` and `run` print
/// them to stderr as `warning:` lines; they do not change the exit code).
extension LoadedScenario {
    public var warnings: [String] {
        plaintextWarning + staleWarnings + scheduleWarnings + recoveryWarnings
    }

    /// The sweep points where `indices` hold, as a suffix for a warning ("" for a plain scenario).
    private func which(_ indices: [Int]) -> String {
        pointSpecs.count == 1 ? "" : " in sweep point(s) " + indices.map(String.init).joined(separator: ", ")
    }

    /// k = 1 on Grouper: every share is the message (the central server holds plaintext anyway).
    private var plaintextWarning: [String] {
        let plain = pointSpecs.indices.filter { pointSpecs[$0].group.k == 1 && pointSpecs[$0].architecture == .grouper }
        guard !plain.isEmpty else { return [] }
        return ["\(source.label): group.k: k = 1\(which(plain)): one share rebuilds the message, so every share is the "
                + "message itself and each server holds it in plaintext (no secrecy from the servers)"]
    }

    /// Settings under which recovery cannot work as meant: receivers that look less
    /// often than a re-upload lives, and check/correct receivers fed by uploads that may reach
    /// only k servers.
    var recoveryWarnings: [String] {
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

    /// `stale` serves the share a re-put replaced; only the as-built client's retries re-split a
    /// message with a fresh polynomial, every other variant re-shares it with the seed it was first
    /// split with, so there the replaced share is the same bytes.
    private var staleWarnings: [String] {
        base.faults.indices.compactMap { i -> String? in
            guard case .misbehave(.stale, _) = base.faults[i].kind else { return nil }
            let points = pointSpecs.indices.filter { pointSpecs[$0].protocolSpec.variant != .asBuilt }
            guard !points.isEmpty else { return nil }
            return "\(source.label): faults[\(i)]: \"stale\" changes nothing\(which(points)): only the as-built client "
                + "re-splits a message it puts again (its fresh-polynomial retries); every other variant re-shares it "
                + "with the polynomial it was first split with, so the share a re-put replaces is the same bytes"
        }
    }

    /// A schedule `offline` with no `online` after it (in time, then list order): the settle brings the
    /// device back (docs/scenarios.md, "Checkers: require and settle").
    private var scheduleWarnings: [String] {
        guard base.settle > .zero else { return [] }
        let quiet = base.duration - base.settle
        return ScheduledCommand.leftOffline(base.schedule).map { device, i in
            "\(source.label): schedule[\(i)]: device \(device) goes offline with no later \"online\"; it comes back "
                + "online at \(quiet), when the settle period starts (every device is online in it)"
        }
    }
}

extension ScheduledCommand {
    /// Devices whose last `offline`/`online` command in `commands` (in time, then list order) is
    /// `offline`, ascending, each with the list index of that command.
    package static func leftOffline(_ commands: [ScheduledCommand]) -> [(device: Int, index: Int)] {
        var last: [Int: (offline: Bool, index: Int)] = [:]
        let inTimeOrder = commands.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }
        for (i, c) in inTimeOrder {
            switch c.action {
            case .offline: last[c.device] = (true, i)
            case .online: last[c.device] = (false, i)
            default: break
            }
        }
        return last.keys.sorted().compactMap { d in last[d]!.offline ? (d, last[d]!.index) : nil }
    }
}
