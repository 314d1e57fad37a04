import SimKernel
import GrouperModel
import Format
import Catalogs
import ScenarioFile
import Reports

/// The equations' replications as scenarios: the setup is a scenario document read by the
/// scenario reader (validated like a file: a parameter it rejects is an error, not a run), the
/// schedule computed first (`EquationSchedule`) becomes its `workload.writes` and `schedule`,
/// and the per-TTL-window counts come back as `ttl_window_*` series sampled every TTL.
extension ThesisEquations {
    /// Payload bytes of every write.
    static let messageBytes = 16

    /// What the replication samples every TTL, in the order `counts` reads them.
    static let windowSeries: [SeriesName] = [.windowUploadsNormal, .windowUploadsConfirm, .windowUploadsResend,
                                             .windowRebuilt, .windowRebuiltResend, .windowReuploads,
                                             .windowReuploadsFirst, .windowReuploadsRepeated, .windowReuploadsHeld]

    /// Replication `i`'s seed: its run's seed and its schedule's.
    static func replicationSeed(_ p: EquationParameters, _ i: Int) -> UInt64 {
        RandomStreams(rootSeed: p.seed).childSeed(named: "equations/replication-\(i)")
    }

    /// The scenario replication `replication` of `run(p)` runs (`equations --write-scenario`),
    /// and that run's seed. `grouper-sim run` gives a file's runs their own seeds, so running
    /// the file replays this schedule with other draws inside the model (server sweep phases
    /// unless aligned, devices' random choices): another replication of the same schedule.
    public static func replicationScenario(_ p: EquationParameters, replication: Int = 0) throws
        -> (spec: ScenarioSpec, runSeed: UInt64) {
        try checkRealisable(p)
        let (warmUp, _, measured) = plan(p)
        let seed = replicationSeed(p, replication), end = Int64(warmUp + measured) * p.ttl.nanoseconds
        return (try scenario(p, schedule(p, end: end, seed: seed), windows: warmUp + measured, warmUp: warmUp), seed)
    }

    /// The scenario of one replication: `windows` TTLs of which the first `warmUp` are warm-up.
    static func scenario(_ p: EquationParameters, _ s: EquationSchedule, windows: Int, warmUp: Int) throws -> ScenarioSpec {
        let end = Int64(windows) * p.ttl.nanoseconds
        let sink = IssueSink(file: "equations scenario")
        guard var spec = ScenarioReader(sink: sink).read(setup(p, windows: windows, warmUp: warmUp)), sink.isEmpty else {
            throw UnrealisableParameters(description: "the equations' scenario is invalid: "
                + sink.issues.map(\.description).joined(separator: "; "))
        }
        spec.workload.writes = s.scenarioWrites()
        spec.schedule = s.commands(p, end: end)
        return spec
    }

    /// Everything but the writes and the schedule, as a scenario document. One server,
    /// k = s = 1: with every server up the counts do not depend on (k, n, s) and a run is
    /// about three times cheaper than f(2, 3, 3). Receivers only pull (`pullPeriod`), the
    /// servers sweep every `sweepPeriod` (aligned for the thesis schedule), devices confirm
    /// every T/C unless the thesis schedule places the confirms itself.
    static func setup(_ p: EquationParameters, windows: Int, warmUp: Int) -> JSONValue {
        func duration(_ d: SimDuration) -> JSONValue { .string(d.description) }
        func int(_ v: Int) -> JSONValue { .number(Double(v), text: String(v)) }
        let a = p.model, t = p.ttl.nanoseconds
        var group: [(String, JSONValue)] = [("devices", int(p.devices)), ("k", int(1)), ("n", int(1)), ("s", int(1)),
                                            ("ttl", duration(p.ttl)), ("sweep_period", duration(sweepPeriod(p)))]
        if alignsSweeps(p) { group.append(("aligned_sweeps", .bool(true))) }
        let timerConfirms = p.confirms > 0 && !(a.scheduledOffline && p.offline > 0)
        let onReconnect = p.offline > 0 && a.controlMessagesCounted
        // The as-built client confirms only after a successful receive, at most once per TTL
        // (its timer sends nothing and it never confirms on reconnect), and retries unsent
        // messages only when it is launched again.
        let asBuilt = p.variant == .asBuilt
        let confirm: [(String, JSONValue)] = timerConfirms
            ? [("policy", .string(asBuilt ? "after-receive" : "periodic")), ("period", duration(.nanoseconds(t / Int64(p.confirms)))),
               ("on_reconnect", .bool(onReconnect && !asBuilt))]
            : [("policy", .string(onReconnect && !asBuilt ? "on-reconnect" : "never"))]
        let recovery: [(String, JSONValue)] = [("receiver_asks", .bool(!a.resendEverythingWrittenAway)),
                                               ("sender_checks_servers", .bool(!a.resendEverythingWrittenAway)),
                                               ("multicast_reuploads", .bool(a.multicastReuploads))]
        let proto: [(String, JSONValue)] = [
            ("variant", .string(p.variant.rawValue)), ("confirm", .object(confirm)),
            ("receive", .object([("policy", .string("poll")), ("poll_period", duration(pullPeriod(p))), ("on_reconnect", .bool(true))])),
            ("resend_retry", duration(.nanoseconds(t / 2))), ("unsent_retry", asBuilt ? .string("on-reconnect") : duration(.minutes(5))),
            ("recovery", .object(recovery)),
        ] + (a.resendHoles ? [("resend_ranges", .string(ResendRanges.holes.rawValue))] : [])
        return .object([
            ("format", int(1)), ("name", .string("equations-\(a.modelName)")),
            ("description", .string(description(p))), ("seed", ResultSet.integer(p.seed)), ("replications", int(1)),
            ("duration", duration(.nanoseconds(Int64(windows) * t))), ("warmup", duration(.nanoseconds(Int64(warmUp) * t))),
            ("group", .object(group)), ("protocol", .object(proto)), ("sharing", .string("gf256")),
            ("workload", .object([("objects", int(p.devices * 50)), ("object_size", int(messageBytes))])),
            ("metrics", .array(["messages_uploaded", "messages_rebuilt", "reuploads"].map { .string($0) })),
            ("series", .object([("every", duration(p.ttl)), ("metrics", .array(windowSeries.map { .string($0.rawValue) }))])),
            ("require", .array([])),
        ])
    }

    static func description(_ p: EquationParameters) -> String {
        "Equations 6.1–6.8, --model \(p.model.modelName): D = \(p.devices), T = \(p.ttl), U_i = \(p.updatesPerDevice), "
            + "C = \(p.confirms), F = \(NumberFormat.shortest(p.offline)), L = \(p.offlineTime); one replication's "
            + "writes and schedule (grouper-sim equations --write-scenario). Counts per TTL window: series.csv."
    }
}
