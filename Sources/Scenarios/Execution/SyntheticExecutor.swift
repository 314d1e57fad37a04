import SimKernel
import Catalogs
import Plan

/// A deterministic stand-in for the protocol (`--engine synthetic`): metric
/// values are drawn from the run seed around a simple function of the group,
/// every checker passes. It exercises sweeps, seeds, `--jobs`, shards, merge and
/// the output writers without simulating anything; its numbers mean nothing.
public struct SyntheticExecutor: RunExecutor {
    public init() {}

    public func execute(_ run: ResolvedRun) throws -> RunOutcome {
        let g = run.spec.group
        var metrics: [(name: MetricName, value: Double)] = []
        var fp = StableHash.fnv1a64("synthetic")
        for m in MetricCatalog.all {
            var rng = RandomStreams(rootSeed: run.seed).stream(named: "synthetic/" + m.name)
            let base = Double(g.k) * 0.5 + Double(g.n) * 0.25 + Double(g.devices)
            let value: Double
            switch m.measure {
            case .zeroOne: value = 1
            case .fraction: value = 1 - rng.nextDouble() * 0.01
            case .seconds: value = base * 0.01 * (1 + 0.1 * rng.nextDouble())
            case .messages, .shares, .bytes, .requests, .events, .devices, .objects, .transfers:
                value = Double(Int(base * 10) + rng.nextInt(below: 10))
            }
            metrics.append((m.id, value))
            fp = StableHash.fnv1a64(bytes: withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) }, seed: fp)
        }
        try TraceFile.write("synthetic run \(run.index) seed \(run.seed): no events (synthetic engine)\n", run: run)
        var series: [[Double]] = []
        if let spec = run.spec.series {
            var rng = RandomStreams(rootSeed: run.seed).stream(named: "synthetic/series")
            for (i, _) in spec.times(duration: run.spec.duration).enumerated() {
                series.append(spec.metrics.map { _ in Double(i + 1) * (1 + 0.1 * rng.nextDouble()) })
            }
        }
        return RunOutcome(metrics: metrics,
                          checkers: [CheckerVerdict(name: "synthetic", kind: .safety, passed: true)],
                          fingerprint: RunFingerprint(value: fp), series: series)
    }
}
