import SimKernel
import GrouperModel
import Catalogs
import ScenarioFile
import Plan
import Execution

/// The binding of a scenario to the Grouper protocol model (GrouperModel):
/// ScenarioSpec → `SystemConfig` + workload/churn/fault commands → run →
/// metrics, checkers and fingerprint. This file and `GrouperDrivers.swift` are
/// the only places that know both sides.
///
/// Numbering: scenario devices and servers are 1-based, GrouperModel's 0-based.
public struct GrouperExecutor: RunExecutor {
    /// `SystemConfig.compactState` of every run (off only in tests that compare both).
    public var compactState: Bool
    /// A fault planted for explore's canary tests; nil in every real run.
    public var plantedBug: PlantedBug?
    /// Fill `RunOutcome.finalObjects` (explore's differential oracle).
    public var audits = false
    public init(compactState: Bool = true, plantedBug: PlantedBug? = nil, audits: Bool = false) {
        self.compactState = compactState; self.plantedBug = plantedBug; self.audits = audits
    }
    /// Called with the run's system before it starts (`grouper-sim timeline` observes it there).
    public var onSystem: (@Sendable (GrouperSystem) -> Void)? = nil

    /// The event kinds `--event-kinds` may name.
    public static var eventKinds: [String] { GrouperEvent.traceKinds }

    public func execute(_ run: ResolvedRun) throws -> RunOutcome {
        if run.spec.architecture == .central { return try CentralExecutor(audits: audits).execute(run) }
        let r = try played(run)
        let system = r.system
        let report = system.check()
        if run.tracePath != nil {
            try TraceFile.write(system.log.map(\.description).joined(separator: "\n") + "\n", run: run)
        }
        try r.events?.finish()
        let spec = run.spec
        var metrics = GrouperMetrics(system: system, spec: spec, atWarmup: r.atWarmup, report: report, latency: r.latency,
                                     propagation: r.propagation, trafficAtWarmup: r.trafficAtWarmup,
                                     exposureAtWarmup: r.exposureAtWarmup)
        metrics.byteSecondsAtWarmup = r.bytesAtWarmup
        metrics.reuploadPartsAtWarmup = r.partsAtWarmup
        let checkers = CheckerName.allCases.map { name -> CheckerVerdict in
            let found = report.findings(of: name)
            let vacuous = report.nothingToCheck && name.needsWrites && found.isEmpty
            return CheckerVerdict(name: name.rawValue, kind: name.isLiveness ? .liveness : .safety,
                                  passed: !found.contains { $0.kind != .server }, required: spec.require.contains(name),
                                  detail: vacuous ? "nothing to check: no device wrote anything"
                                      : found.prefix(5).map(\.message).joined(separator: "; ")
                                      + (found.count > 5 ? "; … \(found.count - 5) more" : ""))
        }
        var outcome = RunOutcome(metrics: metrics.all, checkers: checkers, fingerprint: system.fingerprint, series: r.series)
        let repeated = system.repeatedReuploads
        outcome.audit[RunOutcome.repeatedReuploads] = Double(repeated.count)
        outcome.auditExamples = repeated.examples
        if audits { outcome.finalObjects = system.finalObjects }
        return outcome
    }

    /// `execute(run).series` without what `execute` computes after the run — the checkers,
    /// metrics and fingerprint (about 6% of an `equations` replication) — for callers that
    /// read only the series (`ThesisEquations.simulate`). The same run, so the same rows
    /// (`ExecutorSeriesTests`); a run that writes a trace or events file goes through `execute`.
    public func series(_ run: ResolvedRun) throws -> [[Double]] {
        if run.spec.architecture == .central || run.tracePath != nil || run.events != nil { return try execute(run).series }
        return try played(run).series
    }

    /// A run played to its end, with what `execute` reads of it.
    private struct Played {
        let system: GrouperSystem
        let series: [[Double]]
        let events: EventTraceFile?
        let latency: LatencyRecorder
        let propagation: PropagationRecorder
        let atWarmup: ProtocolCounters
        let trafficAtWarmup: [DeviceTraffic]
        let exposureAtWarmup: Double
        let bytesAtWarmup: Double
        let partsAtWarmup: ReuploadParts
    }

    /// Builds the run's system, plays its schedule to the end and checks it for internal failures.
    private func played(_ run: ResolvedRun) throws -> Played {
        let spec = run.spec
        var config = Self.config(spec, seed: run.seed)
        config.compactState = compactState
        config.plantedBug = plantedBug
        if plantedBug == .noRecoveryAsThesis && config.variant == .thesis { config.variant = .noRecovery }
        let grouper = try GrouperRun(config: config, runIndex: run.index, logging: run.tracePath != nil)
        let system = grouper.system
        onSystem?(system)
        system.timingsSince = SimTime.zero + spec.warmup
        let events = try run.events.map { try EventTraceFile(request: $0, run: run) }
        system.traceEvents(to: events?.sink)
        let latency = LatencyRecorder(reporting: spec.metrics)
        let propagation = PropagationRecorder(devices: spec.group.devices, reporting: spec.metrics)
        GrouperDrivers.schedule(spec, on: system, streams: RandomStreams(rootSeed: run.seed), latency: latency,
                                propagation: propagation)
        GrouperDrivers.play(spec.schedule, on: system,
                            settleStart: spec.settle > .zero ? SimTime.zero + spec.duration - spec.settle : nil)
        var sampler = GrouperSeries(spec: spec, system: system)
        system.eventLimit = run.eventBudget
        // Counts cover [warm-up, duration): the snapshot comes before any event at the warm-up time.
        let warmup = SimTime.zero + spec.warmup, end = SimTime.zero + spec.duration
        if warmup > .zero, !sampler.run(until: warmup - SimDuration(nanoseconds: 1), end: end, progress: run.onProgress,
                                          stop: run.shouldStop) {
            throw RunStopped(at: system.now)
        }
        let atWarmup = system.counters, trafficAtWarmup = system.traffic, exposureAtWarmup = system.shareSecondsOnServers
        let bytesAtWarmup = system.byteSecondsAtRest, partsAtWarmup = system.reuploadParts
        latency.since = warmup
        propagation.since = warmup
        if !sampler.run(until: end, end: end, progress: run.onProgress, stop: run.shouldStop) { throw RunStopped(at: system.now) }
        if system.exceededEventLimit, let budget = run.eventBudget { throw EventBudgetExceeded(budget: budget, at: system.now) }
        try grouper.checkInternalFailures()
        return Played(system: system, series: sampler.rows, events: events, latency: latency, propagation: propagation,
                      atWarmup: atWarmup, trafficAtWarmup: trafficAtWarmup, exposureAtWarmup: exposureAtWarmup,
                      bytesAtWarmup: bytesAtWarmup, partsAtWarmup: partsAtWarmup)
    }

    /// The protocol configuration of a scenario point.
    static func config(_ spec: ScenarioSpec, seed: UInt64) -> SystemConfig {
        let g = spec.group, p = spec.protocolSpec
        var c = SystemConfig(devices: g.devices, threshold: g.threshold, ttl: g.ttl,
                             variant: p.variant, scheme: spec.sharing, seed: seed)
        c.sweepPeriod = g.sweepPeriod
        c.alignedSweeps = g.alignedSweeps
        c.trackExposure = spec.metrics.contains(where: MetricCatalog.exposure.contains)
        if let m = g.members { c.members = m.map { $0 - 1 } }
        for profile in [spec.profiles.device, spec.profiles.network, spec.profiles.server] { profile.apply(to: &c) }
        switch p.confirm.mode {
        case .periodic: c.confirm = ConfirmPolicy(period: p.confirm.period, onReconnect: p.confirm.onReconnect)
        case .afterReceive:
            // The as-built client confirms after a successful receive, at most once per TTL, and
            // only while its confirm timer is set (the timer itself sends nothing): the period
            // must be there, or the policy would never confirm.
            c.confirm = ConfirmPolicy(period: p.confirm.period, onReconnect: p.confirm.onReconnect)
            c.asBuilt.confirmAfterReceiveOncePerTTL = true
        case .onReconnect: c.confirm = ConfirmPolicy(period: nil, onReconnect: true)
        case .never: c.confirm = ConfirmPolicy(period: nil, onReconnect: false)
        }
        if p.variant == .asBuilt && p.confirm.mode != .afterReceive { c.asBuilt.confirmAfterReceiveOncePerTTL = false }
        switch p.receive.mode {
        case .push: c.receive = ReceivePolicy(onPush: true, pullPeriod: nil, onReconnect: p.receive.onReconnect)
        case .poll: c.receive = ReceivePolicy(onPush: false, pullPeriod: p.receive.pollPeriod, onReconnect: p.receive.onReconnect)
        case .pushAndPoll: c.receive = ReceivePolicy(onPush: true, pullPeriod: p.receive.pollPeriod, onReconnect: p.receive.onReconnect)
        }
        c.unsent = UnsentRetryPolicy(onReconnect: true, period: p.unsentRetryPeriod)
        if p.variant == .asBuilt { c.asBuilt.retryOnlyOnLaunch = p.unsentRetryPeriod == nil }
        c.resendRetry = p.resendRetry
        c.resendMulticastAfter = p.resendMulticastAfter
        c.resendRanges = p.resendRanges
        c.rebuild = p.rebuild
        c.recovery = p.recovery
        c.chunking = spec.workload.chunking
        c.deviceStore = spec.deviceStore
        c.networkFaults = spec.networkFaults
        c.coalitions = spec.faults.compactMap { f -> Coalition? in
            guard case .collude(let name) = f.kind else { return nil }
            return Coalition(name: name, servers: (1...g.n).filter { f.servers.contains($0) }.map { $0 - 1 })
        }
        return c
    }

    static func nanos(_ seconds: Double) -> Int64 { ProfileCatalog.Field.roundedNanos(seconds) }
}
