import SimKernel
import GrouperModel
import Catalogs
import ScenarioFile

/// Computes every catalog metric of a finished run (see `MetricCatalog`).
struct GrouperMetrics {
    let system: GrouperSystem
    let spec: ScenarioSpec
    let atWarmup: ProtocolCounters
    let report: CheckReport
    let latency: LatencyRecorder
    let propagation: PropagationRecorder
    /// Per-device traffic at the end of warm-up.
    let trafficAtWarmup: [DeviceTraffic]
    /// `GrouperSystem.shareSecondsOnServers` at the end of warm-up.
    let exposureAtWarmup: Double
    /// `GrouperSystem.byteSecondsAtRest` at the end of warm-up.
    var byteSecondsAtWarmup = 0.0
    /// `GrouperSystem.reuploadParts` at the end of warm-up (nil: none before it).
    var reuploadPartsAtWarmup: ReuploadParts? = nil

    var all: [(name: MetricName, value: Double)] {
        MetricCatalog.all.map { ($0.id, value($0.id)) }
    }

    /// Counter total accumulated after warm-up.
    func count(_ k: CounterKind, _ type: MessageType? = nil) -> Double {
        Double(system.counters.total(k, type: type) - atWarmup.total(k, type: type))
    }

    func value(_ metric: MetricName) -> Double {
        switch metric {
        case .converged:
            if report.nothingToCheck { return .nan }  // no writes: nothing to converge on
            return report.findings(of: .convergence).isEmpty ? 1 : 0
        case .deliveryRatio: return system.deliveryRatio ?? .nan
        case .lostMessages: return Self.lostMessages(report)
        case .messagesUploaded: return count(.messagesUploaded)
        case .updatesUploaded: return count(.messagesUploaded, .update)
        case .deletesUploaded: return count(.messagesUploaded, .delete)
        case .confirmsUploaded: return count(.messagesUploaded, .confirm)
        case .resendsUploaded: return count(.messagesUploaded, .resend)
        case .resendRequests: return count(.resendRequests)
        case .reuploads: return count(.reUploads)
        case .reuploadsFirst: return part(.first)
        case .reuploadsRepeated: return part(.repeated)
        case .reuploadsHeld: return part(.held)
        case .sharePuts: return count(.sharesStored)
        case .messagesRebuilt: return count(.messagesRebuilt)
        case .unsentRetries: return count(.unsentRetries)
        case .uploadFailures: return count(.uploadFailures)
        case .uploadAttemptsFailed: return count(.uploadAttemptsFailed)
        case .failedUploadsRebuildable: return count(.failedButRebuildable)
        case .deliveryLatency, .deliveryLatencyP50, .deliveryLatencyP95, .deliveryLatencyMax,
             .bytesUploaded, .bytesDownloaded, .requests: return GrouperMetrics.deliveryOrTraffic(metric, latency, traffic)
        case .propagationLatency, .propagationLatencyMax, .propagationCensored: return propagation.metric(metric, system)
        case .sharesOnServersMean:
            return (system.shareSecondsOnServers - exposureAtWarmup) / (spec.duration - spec.warmup).seconds
        case .events: return Double(system.eventsProcessed)
        case .corruptedDeliveries: return count(.corruptedDeliveries)
        case .phantomObjects: return Double(report.findings(of: .noPhantom).count)
        case .tamperDetected: return count(.tamperDetected)
        case .tamperCorrected: return count(.tamperCorrected)
        case .messagesUnrecoverable: return Double(system.unrecoverableMessages)
        case .coalitionExposedMessages: return Double(system.coalitionExposedMessages)
        case .coalitionExposureSeconds: return system.coalitionExposureSeconds
        case .transfersDeclined, .transfersExpired, .transfersLostInRestart: return .nan   // central only
        case .devicePlaintextBytes: return system.devicePlaintextBytesMean ?? .nan
        case .bytesAtRestMean:
            guard system.config.trackExposure else { return .nan }
            return (system.byteSecondsAtRest - byteSecondsAtWarmup) / (spec.duration - spec.warmup).seconds
        case .bytesAtRestMax: return system.config.trackExposure ? system.bytesAtRestMax : .nan
        case .plaintextExposedMessages: return system.plaintextExposedMessages.map(Double.init) ?? .nan
        case .exposureSecondsMean:
            guard let s = system.plaintextExposureSeconds, !system.writes.isEmpty else { return .nan }
            return s / Double(system.writes.count)
        case .uploadTime: return timing(.upload, .total)
        case .uploadSyncTime: return timing(.upload, .dataSync)
        case .uploadSharingTime: return timing(.upload, .secretSharing)
        case .uploadNetworkTime: return timing(.upload, .network)
        case .downloadTime: return timing(.download, .total)
        case .downloadSyncTime: return timing(.download, .dataSync)
        case .downloadSharingTime: return timing(.download, .secretSharing)
        case .downloadNetworkTime: return timing(.download, .network)
        }
    }

    /// Re-uploads of one part stored after warm-up.
    func part(_ p: ReuploadPart) -> Double {
        Double(system.reuploadParts.total(p) - (reuploadPartsAtWarmup?.total(p) ?? 0))
    }

    /// Traffic summed over devices since warm-up.
    var traffic: DeviceTraffic { Self.traffic(system.traffic, since: trafficAtWarmup) }

    /// Traffic summed over devices between two snapshots.
    static func traffic(_ now: [DeviceTraffic], since before: [DeviceTraffic]) -> DeviceTraffic {
        zip(now, before).reduce(into: DeviceTraffic()) { sum, pair in
            let d = pair.0 - pair.1
            sum.bytesSent += d.bytesSent; sum.bytesReceived += d.bytesReceived; sum.requests += d.requests
        }
    }

    /// The delivery-latency and traffic metrics, computed alike for every architecture.
    static func deliveryOrTraffic(_ metric: MetricName, _ latency: LatencyRecorder, _ traffic: DeviceTraffic) -> Double {
        switch metric {
        case .deliveryLatency: return latency.metric(.mean)
        case .deliveryLatencyP50: return latency.metric(.p50)
        case .deliveryLatencyP95: return latency.metric(.p95)
        case .deliveryLatencyMax: return latency.metric(.max)
        case .bytesUploaded: return Double(traffic.bytesSent)
        case .bytesDownloaded: return Double(traffic.bytesReceived)
        case .requests: return Double(traffic.requests)
        default: preconditionFailure("\(metric) is neither a delivery-latency nor a traffic metric")
        }
    }

    /// Distinct messages named by the convergence findings.
    static func lostMessages(_ report: CheckReport) -> Double {
        var ids: [String] = []
        for f in report.findings(of: .convergence) { for id in f.messageIDs where !ids.contains(id) { ids.append(id) } }
        return Double(ids.count)
    }

    /// Means over upload jobs, or receive rounds that rebuilt something, started after warm-up:
    /// from the system's running means, or from the records when it keeps them (the
    /// uncompacted switch; both give the same doubles).
    func timing(_ direction: TransferDirection, _ part: TimingStats.Part) -> Double {
        let upload = direction == .upload
        guard system.keepsTimingRecords else { return system.timingStats.mean(upload ? .upload : .download, part) }
        let since = SimTime.zero + spec.warmup
        let jobs = system.timings.filter {
            $0.direction == (upload ? .upload : .download) && $0.start >= since && (upload || $0.messages > 0)
        }
        guard !jobs.isEmpty else { return .nan }
        return jobs.reduce(0.0) { $0 + TimingStats.value($1, part).seconds } / Double(jobs.count)
    }

}

/// Advances a run while sampling the spec's `series` at its sample times. Sampling only
/// reads the system, so a run with series processes the same events as one without.
struct GrouperSeries {
    let names: [SeriesName]
    let times: [SimTime]
    /// Runs the system up to and including a time, asking the function (if any) after every
    /// `stopSlice` events whether to give up; false when it did. The system's clock now.
    let advance: (SimTime, (() -> Bool)?) -> Bool
    let clock: () -> SimTime
    /// A series value of the system now.
    let sample: (SeriesName) -> Double
    private var next = 0
    private(set) var rows: [[Double]] = []

    /// Events between two questions to `stop` inside a step: a heavy run gives up within about
    /// this many events of its deadline (tens of milliseconds), not at the end of its step.
    static let stopSlice: UInt64 = 1 << 16

    init(spec: ScenarioSpec, system: GrouperSystem, stopSlice: UInt64 = Self.stopSlice) {
        self.init(spec: spec, advance: { time, stop in
            guard let stop else { system.run(until: time); return true }
            return system.run(until: time, stop: stop, every: stopSlice)
        }, clock: { system.now }, sample: { Self.value($0, of: system) })
    }

    init(spec: ScenarioSpec, advance: @escaping (SimTime, (() -> Bool)?) -> Bool, clock: @escaping () -> SimTime,
         sample: @escaping (SeriesName) -> Double) {
        names = spec.series?.metrics ?? []
        times = spec.series?.times(duration: spec.duration) ?? []
        self.advance = advance; self.clock = clock; self.sample = sample
        rows.reserveCapacity(times.count)
    }

    /// Runs every event up to and including `time`, sampling at each sample time on the way.
    /// With `progress` or `stop`, runs in steps of 1% of `end`, reports the fraction done after
    /// each and asks `stop` whether to give up, before each step and after every `stopSlice`
    /// events inside one (stepping, like sampling, processes exactly the same events). Returns
    /// false when `stop` gave the run up before `time`.
    @discardableResult
    mutating func run(until time: SimTime, end: SimTime, progress: (@Sendable (Double) -> Void)?,
                      stop: (@Sendable () -> Bool)? = nil) -> Bool {
        guard progress != nil || stop != nil, end > .zero else { run(until: time); return true }
        let step = max(1, end.nanoseconds / 100)
        var t = clock()
        while t < time {
            if stop?() == true { return false }
            t = min(time, SimTime.zero + SimDuration(nanoseconds: (t.nanoseconds / step + 1) * step))
            if !run(until: t, stop: stop) { return false }
            progress?(Double(t.nanoseconds) / Double(end.nanoseconds))
        }
        return true
    }

    /// `run(until:end:progress:stop:)` without progress; false when `stop` gave the run up.
    @discardableResult
    mutating func run(until time: SimTime, stop: (() -> Bool)? = nil) -> Bool {
        while next < times.count && times[next] <= time {
            guard advance(times[next], stop) else { return false }
            rows.append(names.map(sample))
            next += 1
        }
        return advance(time, stop)
    }

    /// A series value now (`SeriesCatalog`): counts since the start of the run, or states.
    static func value(_ name: SeriesName, of system: GrouperSystem) -> Double {
        switch name {
        case .sharesOnServers: return Double(system.sharesOnServers)
        case .devicesOnline: return Double(system.devicesOnline)
        case .unsentMessages: return Double(system.unsentMessages)
        case .messagesUploaded: return Double(system.counters.total(.messagesUploaded))
        case .messagesRebuilt: return Double(system.counters.total(.messagesRebuilt))
        case .resendRequests: return Double(system.counters.total(.resendRequests))
        case .reuploads: return Double(system.counters.total(.reUploads))
        case .bytesUploaded: return Double(system.traffic.reduce(0) { $0 + $1.bytesSent })
        case .bytesDownloaded: return Double(system.traffic.reduce(0) { $0 + $1.bytesReceived })
        case .windowUploadsNormal, .windowUploadsConfirm, .windowUploadsResend, .windowRebuilt, .windowRebuiltResend,
             .windowReuploads, .windowReuploadsFirst, .windowReuploadsRepeated, .windowReuploadsHeld:
            return windowCount(name, of: system)
        }
    }
}
