import SimKernel
import Catalogs

/// Delivery latency of update messages, measured after warm-up.
///
/// The mean needs only a running sum and count. The nearest-rank quantiles need every sample
/// (a bounded sketch would change the committed p50/p95/max), so the samples are kept only
/// when the run reports one of them (`keepsSamples`): 8 bytes per delivered update, the one
/// record of a run that grows with deliveries rather than messages. A run that reports no
/// `delivery_latency*` metric records nothing (`isRecording` false): no per-message write
/// times, no observer on the devices.
package final class LatencyRecorder {
    var since = SimTime.zero
    private var writtenAt: [String: SimTime] = [:]
    private var indexed = 0
    private(set) var total = 0.0
    /// Latencies recorded (also when the samples are not kept).
    private(set) var count = 0
    /// Whether `samples` keeps every latency (needed for p50, p95, max).
    let keepsSamples: Bool
    /// Every latency recorded, in seconds, in delivery order (empty unless `keepsSamples`).
    private(set) var samples: [Double] = []

    static let quantileMetrics: Set<MetricName> = [.deliveryLatencyP50, .deliveryLatencyP95, .deliveryLatencyMax]

    /// Whether deliveries are recorded at all; false, every latency metric is NaN.
    let isRecording: Bool

    /// `keepsSamples` false: the quantile metrics are NaN (for runs that do not report them).
    package init(keepsSamples: Bool = true, isRecording: Bool = true) {
        self.keepsSamples = keepsSamples && isRecording
        self.isRecording = isRecording
    }

    /// A recorder that records only if `metrics` names a latency metric, and keeps samples only
    /// if it names a quantile.
    convenience init(reporting metrics: [MetricName]) {
        self.init(keepsSamples: metrics.contains { Self.quantileMetrics.contains($0) },
                  isRecording: metrics.contains { $0 == .deliveryLatency || Self.quantileMetrics.contains($0) })
    }

    /// Adds the latency of every update in `updates` (message ids), received now by one device.
    func record(_ updates: [String], on system: any DrivenSystem) {
        for id in updates {
            var written = writtenAt[id]
            if written == nil {
                let writes = system.writes
                while indexed < writes.count { writtenAt[writes[indexed].messageID] = writes[indexed].time; indexed += 1 }
                written = writtenAt[id]
            }
            guard let t = written, t >= since else { continue }
            let latency = (system.now - t).seconds
            total += latency
            count += 1
            if keepsSamples { samples.append(latency) }
        }
    }

    /// What the `delivery_latency` metrics report of the samples.
    enum Statistic { case mean, p50, p95, max }

    /// `delivery_latency` (mean) and its `_p50`, `_p95`, `_max`.
    func metric(_ statistic: Statistic) -> Double {
        switch statistic {
        case .p50: return quantile(0.5)
        case .p95: return quantile(0.95)
        case .max: return quantile(1)
        case .mean: return count == 0 || !isRecording ? .nan : total / Double(count)
        }
    }

    /// The nearest-rank `q`-quantile (0 < q ≤ 1) of the samples; NaN when there are none.
    func quantile(_ q: Double) -> Double {
        guard keepsSamples, !samples.isEmpty else { return .nan }
        let sorted = samples.sorted()
        let rank = Int((q * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
