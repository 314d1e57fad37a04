import SimKernel
import GrouperModel

/// Computes every catalog metric of a finished run (see `MetricCatalog`).
struct GrouperMetrics {
    let system: GrouperSystem
    let spec: ScenarioSpec
    let atWarmup: ProtocolCounters
    let report: CheckReport
    let latency: LatencyRecorder
    /// Per-device traffic at the end of warm-up.
    let trafficAtWarmup: [DeviceTraffic]
    /// `GrouperSystem.shareSecondsOnServers` at the end of warm-up.
    let exposureAtWarmup: Double
    /// `GrouperSystem.byteSecondsAtRest` at the end of warm-up.
    var byteSecondsAtWarmup = 0.0

    var all: [(name: String, value: Double)] {
        MetricCatalog.all.map { ($0.name, value($0.name)) }
    }

    /// Counter total accumulated after warm-up.
    func count(_ k: CounterKind, _ type: MessageType? = nil) -> Double {
        Double(system.counters.total(k, type: type) - atWarmup.total(k, type: type))
    }

    func value(_ name: String) -> Double {
        switch name {
        case "converged":
            if report.nothingToCheck { return .nan }  // no writes: nothing to converge on
            return report.findings(of: "convergence").isEmpty ? 1 : 0
        case "delivery_ratio": return system.deliveryRatio ?? .nan
        case "lost_messages": return Self.lostMessages(report)
        case "messages_uploaded": return count(.messagesUploaded)
        case "updates_uploaded": return count(.messagesUploaded, .update)
        case "deletes_uploaded": return count(.messagesUploaded, .delete)
        case "confirms_uploaded": return count(.messagesUploaded, .confirm)
        case "resends_uploaded": return count(.messagesUploaded, .resend)
        case "resend_requests": return count(.resendRequests)
        case "reuploads": return count(.reUploads)
        case "share_puts": return count(.sharePuts)
        case "messages_rebuilt": return count(.messagesRebuilt)
        case "unsent_retries": return count(.unsentRetries)
        case "upload_failures": return count(.uploadFailures)
        case "upload_attempts_failed": return count(.uploadAttemptsFailed)
        case "failed_uploads_rebuildable": return count(.failedButRebuildable)
        case "delivery_latency", "delivery_latency_p50", "delivery_latency_p95", "delivery_latency_max":
            return latency.metric(name)
        case "bytes_uploaded", "bytes_downloaded", "requests": return Self.trafficMetric(name, traffic)
        case "shares_on_servers_mean":
            return (system.shareSecondsOnServers - exposureAtWarmup) / (spec.duration - spec.warmup).seconds
        case "events": return Double(system.eventsProcessed)
        case "corrupted_deliveries": return count(.corruptedDeliveries)
        case "phantom_objects": return Double(report.findings(of: "no-phantom").count)
        case "tamper_detected": return count(.tamperDetected)
        case "tamper_corrected": return count(.tamperCorrected)
        case "messages_unrecoverable": return Double(system.unrecoverableMessages)
        case "coalition_exposed_messages": return Double(system.coalitionExposedMessages)
        case "coalition_exposure_seconds": return system.coalitionExposureSeconds
        case "transfers_declined", "transfers_expired", "transfers_lost_in_restart": return .nan   // central only
        case "bytes_at_rest_mean":
            guard system.config.trackExposure else { return .nan }
            return (system.byteSecondsAtRest - byteSecondsAtWarmup) / (spec.duration - spec.warmup).seconds
        case "bytes_at_rest_max": return system.config.trackExposure ? system.bytesAtRestMax : .nan
        case "plaintext_exposed_messages": return system.plaintextExposedMessages.map(Double.init) ?? .nan
        case "exposure_seconds_mean":
            guard let s = system.plaintextExposureSeconds, !system.writes.isEmpty else { return .nan }
            return s / Double(system.writes.count)
        default: return timing(name)
        }
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

    static func trafficMetric(_ name: String, _ t: DeviceTraffic) -> Double {
        Double(name == "bytes_uploaded" ? t.bytesSent : name == "bytes_downloaded" ? t.bytesReceived : t.requests)
    }

    /// Distinct messages named by the convergence findings.
    static func lostMessages(_ report: CheckReport) -> Double {
        var ids: [String] = []
        for f in report.findings(of: "convergence") { for id in f.messageIDs where !ids.contains(id) { ids.append(id) } }
        return Double(ids.count)
    }

    /// Means over upload jobs, or receive rounds that rebuilt something, started after warm-up:
    /// from the system's running means, or from the records when it keeps them (the
    /// uncompacted switch; both give the same doubles).
    func timing(_ name: String) -> Double {
        let upload = name.hasPrefix("upload_")
        let part: TimingStats.Part = switch name.dropFirst(upload ? 7 : 9) {
        case "sync_time": .dataSync
        case "sharing_time": .secretSharing
        case "network_time": .network
        default: .total
        }
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
    let names: [String]
    let times: [SimTime]
    /// Runs the system up to and including a time; the system's clock now.
    let advance: (SimTime) -> Void
    let clock: () -> SimTime
    /// A series value of the system now.
    let sample: (String) -> Double
    private var next = 0
    private(set) var rows: [[Double]] = []

    init(spec: ScenarioSpec, system: GrouperSystem) {
        self.init(spec: spec, advance: { system.run(until: $0) }, clock: { system.now },
                  sample: { Self.value($0, of: system) })
    }

    init(spec: ScenarioSpec, advance: @escaping (SimTime) -> Void, clock: @escaping () -> SimTime,
         sample: @escaping (String) -> Double) {
        names = spec.series?.metrics ?? []
        times = spec.series?.times(duration: spec.duration) ?? []
        self.advance = advance; self.clock = clock; self.sample = sample
        rows.reserveCapacity(times.count)
    }

    /// Runs every event up to and including `time`, sampling at each sample time on the way.
    /// With `progress`, runs in steps of 1% of `end` and reports the fraction done after each
    /// (stepping, like sampling, processes exactly the same events).
    mutating func run(until time: SimTime, end: SimTime, progress: (@Sendable (Double) -> Void)?) {
        guard let progress, end > .zero else { return run(until: time) }
        let step = max(1, end.nanoseconds / 100)
        var t = clock()
        while t < time {
            t = min(time, SimTime.zero + SimDuration(nanoseconds: (t.nanoseconds / step + 1) * step))
            run(until: t)
            progress(Double(t.nanoseconds) / Double(end.nanoseconds))
        }
    }

    mutating func run(until time: SimTime) {
        while next < times.count && times[next] <= time {
            advance(times[next])
            rows.append(names.map(sample))
            next += 1
        }
        advance(time)
    }

    /// A series value now (`SeriesCatalog`): counts since the start of the run, or states.
    static func value(_ name: String, of system: GrouperSystem) -> Double {
        switch name {
        case "shares_on_servers": return Double(system.sharesOnServers)
        case "devices_online": return Double(system.devicesOnline)
        case "unsent_messages": return Double(system.unsentMessages)
        case "messages_uploaded": return Double(system.counters.total(.messagesUploaded))
        case "messages_rebuilt": return Double(system.counters.total(.messagesRebuilt))
        case "resend_requests": return Double(system.counters.total(.resendRequests))
        case "reuploads": return Double(system.counters.total(.reUploads))
        case "bytes_uploaded": return Double(system.traffic.reduce(0) { $0 + $1.bytesSent })
        case "bytes_downloaded": return Double(system.traffic.reduce(0) { $0 + $1.bytesReceived })
        default: preconditionFailure("series '\(name)' is in SeriesCatalog but not sampled")
        }
    }
}
