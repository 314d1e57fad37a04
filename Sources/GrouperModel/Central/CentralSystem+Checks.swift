import SimKernel

extension CentralSystem {
    /// The checkers that apply to a central server (`check()` runs them).
    public static let checkers: [CheckerName] = [.convergence, .noPhantom]

    /// Runs the checkers that apply to a central server: convergence (liveness) and no-phantom
    /// (safety). Grouper's delivery, outbox and TTL checkers have nothing to judge here.
    public func check() -> CheckReport {
        CheckReport(findings: checkMembership() + checkConvergence() + checkNoPhantom(), nothingToCheck: world.writes.isEmpty)
    }

    /// Liveness (part of convergence), as for Grouper: a device whose invitation time has come
    /// but which is not a member (its invitation waits for the owner) is a finding.
    func checkMembership() -> [CheckFinding] {
        var want = Array(repeating: false, count: config.devices)
        for i in world.invitations where i.at <= sim.now { want[i.device] = true }
        let owner = world.deviceNodes[0]
        return want.indices.filter { want[$0] && !world.deviceNodes[$0].isMember }.map { d in
            let why = owner.pendingInvitations.contains(d)
                ? "its invitation waits for the owner \(deviceLabel(0)), offline since it was asked for"
                : "its invitation did not happen"
            return CheckFinding(checker: .convergence, kind: .liveness,
                                message: "\(deviceLabel(d)) is outside the group: \(why)", messageIDs: [])
        }
    }

    /// The last write of each object, by version (object ids sorted).
    func finalWrites() -> [ObjectWrite] {
        var last: [String: ObjectWrite] = [:]
        for w in world.writes where last[w.objectID].map({ $0.version < w.version }) ?? true { last[w.objectID] = w }
        return last.keys.sorted().map { last[$0]! }
    }

    /// Liveness: every member that was a member when an object was last written holds that
    /// final version (or, for a delete, does not hold the object); each finding says why not.
    public func checkConvergence() -> [CheckFinding] {
        var out: [CheckFinding] = []
        for (d, w, holds) in expectations() where !holds {
            let what = w.content == nil ? "delete" : "update"
            out.append(CheckFinding(checker: .convergence, kind: .liveness,
                                    message: "\(deviceLabel(d.index)) lacks \(what) of \(w.objectID) by \(deviceLabel(w.device)) "
                                        + "(message \(w.messageID)): \(reason(w, device: d.index))",
                                    messageIDs: [w.messageID]))
        }
        return out
    }

    /// (member, final write it was addressed, holds it) for every member the object's last write
    /// was addressed to (the members at that moment in event order) and its writer, members in
    /// index order, objects sorted.
    func expectations() -> [(device: CentralDeviceNode, write: ObjectWrite, holds: Bool)] {
        let finals = finalWrites()
        var out: [(device: CentralDeviceNode, write: ObjectWrite, holds: Bool)] = []
        for d in world.deviceNodes where d.isMember {
            for w in finals where w.device == d.index || world.addressed[w.messageID]?.contains(d.index) == true {
                let entry = d.store[w.objectID]
                out.append((d, w, entry?.version == w.version || (w.content == nil && entry == nil)))
            }
        }
        return out
    }

    /// Fraction of (member, object) pairs holding the object's final state; nil when none.
    public var deliveryRatio: Double? {
        let e = expectations()
        return e.isEmpty ? nil : Double(e.filter(\.holds).count) / Double(e.count)
    }

    func reason(_ w: ObjectWrite, device d: Int) -> String {
        if !world.deviceNodes[d].online { return "\(deviceLabel(d)) is offline at the end of the run" }
        if world.deviceNodes[w.device].unsent.contains(where: { $0.messageID == w.messageID }) {
            return "never stored on the server; still queued on \(deviceLabel(w.device))"
        }
        guard let t = server.store.outbox.last(where: { $0.to == d && $0.messageID == w.messageID }) else { return "no transfer to \(deviceLabel(d)) on the server" }
        if t.lostInRestart { return "lost: the server restarted without its data before \(deviceLabel(d)) fetched it" }
        if t.expired { return "lost: the retention limit expired before \(deviceLabel(d)) fetched it (unattended)" }
        return "not fetched yet (transfer \(t.status.rawValue))"
    }

    /// Safety: every object version a device holds was written by some device, with that content.
    public func checkNoPhantom() -> [CheckFinding] {
        var byVersion: [ObjectVersion: ObjectWrite] = [:]
        for w in world.writes { byVersion[w.version] = w }
        var out: [CheckFinding] = []
        for d in world.deviceNodes {
            for id in d.store.keys.sorted() {
                let e = d.store[id]!
                guard let w = byVersion[e.version], w.objectID == id, w.content == e.content else {
                    out.append(CheckFinding(checker: .noPhantom, kind: .safety,
                                            message: "\(deviceLabel(d.index)) holds \(id) at version \(e.version), which no device wrote "
                                                + "with that content", messageIDs: []))
                    continue
                }
            }
        }
        return out
    }
}
