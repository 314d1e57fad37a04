import SimKernel

/// Safety: must never happen. Liveness: must eventually happen (given enough quiet time).
/// Server: a finding about a misbehaving server (docs/adversaries.md), not a protocol failure.
public enum CheckKind: String, Sendable { case safety, liveness, server }

/// One protocol failure found by a checker.
public struct CheckFinding: Equatable, Sendable, CustomStringConvertible {
    public var checker: CheckerName
    public var kind: CheckKind
    public var message: String
    /// The Grouper messages the finding is about (may be empty).
    public var messageIDs: [String]
    public var description: String { "[\(kind.rawValue)] \(checker): \(message)" }
}

/// Everything the checkers found at one moment of a run.
public struct CheckReport: Equatable, Sendable {
    public var findings: [CheckFinding]
    /// No device wrote anything: convergence and delivery hold vacuously, so say so rather
    /// than report them as met (`converged` and `delivery_ratio` are then undefined).
    public var nothingToCheck = false
    /// No protocol failure (findings about servers do not count).
    public var passed: Bool { !findings.contains { $0.kind != .server } }
    public var safetyFailed: Bool { findings.contains { $0.kind == .safety } }
    public var livenessFailed: Bool { findings.contains { $0.kind == .liveness } }
    public func findings(of checker: CheckerName) -> [CheckFinding] { findings.filter { $0.checker == checker } }
}

extension GrouperSystem {
    /// Runs every checker now. Convergence is meaningful only after faults stopped and every
    /// device has been online long enough (the caller's scenario arranges that).
    public func check() -> CheckReport {
        CheckReport(findings: checkConvergence() + checkDelivery() + checkOutbox() + checkNoPhantom() + checkTTL(),
                    nothingToCheck: world.writes.isEmpty)
    }

    /// Liveness: every member and member-to-be is a member, and holds the final state of every
    /// object (`holdsFinal`); each finding names the message that did not arrive and why.
    public func checkConvergence() -> [CheckFinding] {
        let expected = expectedFinal()
        var out = checkMembership()
        for d in world.deviceNodes where d.isMember {
            let entries = d.store.entries
            for id in expected.keys.sorted() {
                let w = expected[id]!
                if Self.holdsFinal(entries[id], w) { continue }
                if config.plantedBug == .checkerIgnoresChunks, config.chunking != nil,
                   (w.content.flatMap(Self.objectChunkCount) ?? 1) > 1 { continue }
                let why = reason(write: w, device: d.index)
                let what = w.content == nil ? "delete" : "update"
                out.append(CheckFinding(checker: .convergence, kind: .liveness,
                                        message: "\(deviceLabel(d.index)) lacks \(what) of \(id) by \(deviceLabel(w.device)) "
                                            + "(message \(w.messageID)): \(why)",
                                        messageIDs: [w.messageID]))
            }
        }
        return out
    }

    func reason(write w: ObjectWrite, device d: Int) -> String {
        // Only shares this device could fetch: a unicast copy for someone else does not count.
        let node = world.nodeIDs[d]
        let holding = world.serverNodes.filter {
            $0.server.holds(messageID: w.messageID, groupID: world.groupID, visibleTo: node)
        }.map(\.index)
        let holders = holding.count
        if !world.deviceNodes[d].online { return "\(deviceLabel(d)) is offline at the end of the run" }
        guard world.wasUploaded(w.messageID) else {
            let sender = world.deviceNodes[w.device]
            return "never stored on ≥ s servers; still queued on \(deviceLabel(w.device))"
                + (sender.online ? "" : ", which is offline") + (sender.wedged ? ", whose sender is wedged" : "")
        }
        switch config.variant {
        case .noRecovery:
            return "lost: \(lossCause(w, holding: holding)) before \(deviceLabel(d)) fetched it, and no-recovery never resends "
                + "(\(Wording.count(holders, "server")) still \(holders == 1 ? "holds" : "hold") it)"
        case .basicMulticast:
            return "lost: \(lossCause(w, holding: holding)) before \(deviceLabel(d)) fetched it; basic-multicast detects gaps only "
                + "from later messages (\(Wording.count(holders, "server")) still \(holders == 1 ? "holds" : "hold") it)"
        case .asBuilt:
            return "not delivered by the as-built client (\(Wording.count(holders, "server")) still \(holders == 1 ? "holds" : "hold") it)"
        case .thesis:
            return stallCause(w, device: d, holding: holding) + " (\(Wording.count(holders, "server")) still \(holders == 1 ? "holds" : "hold") it)"
        }
    }

    /// Safety: every object version a device holds was written by some device, with that content.
    public func checkNoPhantom() -> [CheckFinding] {
        var out: [CheckFinding] = []
        var sizes = FillerSizeMemo()
        for d in world.deviceNodes {
            let ids = d.store.storedIDs, objects = d.store.storedObjects
            for i in StringOrder.sortedIndices(ids) {   // object id order
                let id = ids[i], e = objects[i]
                guard let wi = world.writeIndex(of: e.version), world.writes[wi].objectID == id,
                      world.writes[wi].hasContent(e.content, sizes: &sizes) else {
                    out.append(CheckFinding(checker: .noPhantom, kind: .safety,
                                            message: "\(deviceLabel(d.index)) holds \(id) at version \(e.version), "
                                                + "which no device wrote with that content", messageIDs: []))
                    continue
                }
            }
        }
        return out
    }

    /// The hash of the fingerprint's line for each stored object (`plainStoreLines`), devices in
    /// order, each device's objects in object id order: each line hashed as it is read, each
    /// content once (`StoreDigest`).
    func storeLineHashes() -> [UInt64] {
        var out: [UInt64] = [], contents = ContentHashMemo()
        for d in world.deviceNodes {
            let ids = d.store.storedIDs, objects = d.store.storedObjects
            for i in StringOrder.sortedIndices(ids) {
                let e = objects[i]
                let content = e.content.map { contents.hash($0) } ?? 0
                out.append(StoreDigest.line(device: d.index, id: ids[i], version: e.version, contentHash: content))
            }
        }
        return out
    }

    /// The fingerprint's lines for the devices' stores as text, in the same order (the plain
    /// form `StoreDigestTests` compares `storeLineHashes` with).
    func plainStoreLines() -> [String] {
        var out: [String] = []
        for d in world.deviceNodes {
            let entries = d.store.entries
            for id in entries.keys.sorted() {
                let e = entries[id]!
                out.append("\(d.index)|\(id)|\(e.version)|\(e.content.map { StableHash.fnv1a64($0) } ?? 0)")
            }
        }
        return out
    }

    /// Safety: no share outlived TTL + sweep period on any server, up or down.
    public func checkTTL() -> [CheckFinding] {
        var out = world.ttlViolations.map {
            CheckFinding(checker: .ttl, kind: .safety, message: $0, messageIDs: [])
        }
        let limit = config.ttl + config.sweepPeriod
        out += serverTTLFindings()
        for s in world.serverNodes where !s.ttlMisbehaviours.contains(.keep) {
            if let oldest = s.server.oldestSaveAt, sim.now - oldest > limit {
                out.append(CheckFinding(checker: .ttl, kind: .safety,
                                        message: "server \(serverNumber(s.index)) holds a share saved at \(oldest) at \(sim.now), "
                                            + "older than TTL + sweep period \(limit)", messageIDs: []))
            }
        }
        return out
    }

    /// A stable hash of the run: event stream, every device's store and the counters.
    /// Equal across processes and machines for the same configuration and commands.
    public var fingerprint: RunFingerprint {
        var h = sim.eventStreamHash
        func mix(_ s: String) { h.mix(StableHash.fnv1a64(s)) }
        for line in storeLineHashes() { h.mix(line) }
        for row in world.counters.rows {
            mix("\(row.key.kind.rawValue)|\(row.key.device)|\(row.key.type.rawValue)|\(row.key.window)|\(row.value)")
        }
        return RunFingerprint(value: h.value)
    }
}
