import SimKernel
import GrouperModel
import ScenarioFile
import Plan
import Execution

/// The binding of a scenario with `"architecture": "central"` to the central-server model
/// (`CentralSystem`): the same devices, workload, churn, faults (server 1), profiles and
/// receive/retry policies as a Grouper run of the same scenario.
struct CentralExecutor {
    /// Fill `RunOutcome.finalObjects` (explore's differential oracle).
    var audits = false

    static func config(_ spec: ScenarioSpec, seed: UInt64) -> CentralConfig {
        var c = CentralConfig(devices: spec.group.devices, members: spec.group.members.map { $0.map { $0 - 1 } }, seed: seed)
        let g = GrouperExecutor.config(spec, seed: seed)   // the profiles and policies, resolved the same way
        c.device = g.device; c.network = g.network; c.server = g.server
        c.receive = g.receive
        c.unsentRetryPeriod = g.unsent.period
        c.requestTimeout = g.requestTimeout
        c.retention = spec.central.retention
        c.chunking = g.chunking
        c.deviceStore = g.deviceStore
        c.networkFaults = g.networkFaults
        return c
    }

    func execute(_ run: ResolvedRun) throws -> RunOutcome {
        let spec = run.spec
        let system: CentralSystem
        do { system = try CentralSystem(config: Self.config(spec, seed: run.seed)) } catch {
            throw RunFailure(runIndex: run.index, message: "the central-server model rejected the configuration: \(error)")
        }
        let events = try run.events.map { try EventTraceFile(request: $0, run: run) }
        system.traceEvents(to: events?.sink)
        let latency = LatencyRecorder(reporting: spec.metrics)
        let propagation = PropagationRecorder(devices: spec.group.devices, reporting: spec.metrics)
        GrouperDrivers.schedule(spec, on: system, streams: RandomStreams(rootSeed: run.seed), latency: latency,
                                propagation: propagation)
        var sampler = GrouperSeries(spec: spec, advance: { time, stop in
            guard let stop else { system.run(until: time); return true }
            return system.run(until: time, stop: stop, every: GrouperSeries.stopSlice)
        }, clock: { system.now },
                                    sample: { CentralMetrics.series($0, of: system) })
        let warmup = SimTime.zero + spec.warmup, end = SimTime.zero + spec.duration
        system.eventLimit = run.eventBudget
        if warmup > .zero, !sampler.run(until: warmup - SimDuration(nanoseconds: 1), end: end, progress: run.onProgress,
                                          stop: run.shouldStop) {
            throw RunStopped(at: system.now)
        }
        let atWarmup = CentralMetrics.Snapshot(system)
        latency.since = warmup
        propagation.since = warmup
        if !sampler.run(until: end, end: end, progress: run.onProgress, stop: run.shouldStop) { throw RunStopped(at: system.now) }
        if system.exceededEventLimit, let budget = run.eventBudget { throw EventBudgetExceeded(budget: budget, at: system.now) }
        let report = system.check()
        try TraceFile.write("", run: run)   // no protocol log for the central model
        try events?.finish()
        let metrics = CentralMetrics(system: system, spec: spec, atWarmup: atWarmup, report: report, latency: latency,
                                     propagation: propagation)
        let checkers = CheckerName.allCases.map { name -> CheckerVerdict in
            let found = report.findings(of: name)
            let applies = CentralSystem.checkers.contains(name)
            return CheckerVerdict(name: name.rawValue, kind: name.isLiveness ? .liveness : .safety,
                                  passed: found.isEmpty, required: spec.require.contains(name),
                                  detail: !applies ? "not applicable to the central architecture"
                                      : report.nothingToCheck && found.isEmpty ? "nothing to check: no device wrote anything"
                                      : found.prefix(5).map(\.message).joined(separator: "; ")
                                      + (found.count > 5 ? "; … \(found.count - 5) more" : ""))
        }
        var outcome = RunOutcome(metrics: metrics.all, checkers: checkers, fingerprint: system.fingerprint, series: sampler.rows)
        if audits { outcome.finalObjects = system.finalObjects }
        return outcome
    }
}
