import SimKernel
import GrouperModel
import Catalogs
import ScenarioFile

/// Computes the catalog metrics of a finished central-server run. Metrics that count things the
/// central server never does (confirms, resends, re-uploads) are 0; metrics about things it does
/// not have (shares, rebuild timings, tampering, coalitions) are NaN.
struct CentralMetrics {
    /// Counts and traffic at the end of warm-up.
    struct Snapshot {
        var counters: CentralCounters
        var traffic: [DeviceTraffic]
        var byteSeconds: Double
        init(_ system: CentralSystem) {
            counters = system.counters; traffic = system.traffic; byteSeconds = system.byteSecondsAtRest
        }
    }

    let system: CentralSystem
    let spec: ScenarioSpec
    let atWarmup: Snapshot
    let report: CheckReport
    let latency: LatencyRecorder
    let propagation: PropagationRecorder

    var all: [(name: MetricName, value: Double)] { MetricCatalog.all.map { ($0.id, value($0.id)) } }

    func count(_ k: KeyPath<CentralCounters, Int>) -> Double {
        Double(system.counters[keyPath: k] - atWarmup.counters[keyPath: k])
    }

    var traffic: DeviceTraffic { GrouperMetrics.traffic(system.traffic, since: atWarmup.traffic) }

    func value(_ metric: MetricName) -> Double {
        switch metric {
        case .converged:
            if report.nothingToCheck { return .nan }
            return report.findings(of: .convergence).isEmpty ? 1 : 0
        case .deliveryRatio: return system.deliveryRatio ?? .nan
        case .lostMessages: return GrouperMetrics.lostMessages(report)
        case .messagesUploaded: return count(\.uploads)
        case .updatesUploaded: return count(\.uploads) - count(\.deleteUploads)
        case .deletesUploaded: return count(\.deleteUploads)
        case .confirmsUploaded, .resendsUploaded, .resendRequests, .reuploads, .reuploadsFirst, .reuploadsRepeated,
             .reuploadsHeld, .corruptedDeliveries: return 0
        case .messagesRebuilt: return count(\.fetched)
        case .uploadFailures: return count(\.uploadFailures)
        case .transfersDeclined: return count(\.declined)
        case .transfersExpired: return count(\.expired)
        case .transfersLostInRestart: return count(\.lostInRestart)
        case .deliveryLatency, .deliveryLatencyP50, .deliveryLatencyP95, .deliveryLatencyMax,
             .bytesUploaded, .bytesDownloaded, .requests: return GrouperMetrics.deliveryOrTraffic(metric, latency, traffic)
        case .propagationLatency, .propagationLatencyMax, .propagationCensored: return propagation.metric(metric, system)
        case .events: return Double(system.eventsProcessed)
        case .bytesAtRestMean: return (system.byteSecondsAtRest - atWarmup.byteSeconds) / (spec.duration - spec.warmup).seconds
        case .bytesAtRestMax: return system.bytesAtRestMax
        case .plaintextExposedMessages: return Double(system.plaintextExposedMessages)
        case .exposureSecondsMean:
            return system.writes.isEmpty ? .nan : system.plaintextExposureSeconds / Double(system.writes.count)
        case .phantomObjects: return Double(report.findings(of: .noPhantom).count)
        case .devicePlaintextBytes: return system.devicePlaintextBytesMean ?? .nan
        // What a central server does not have: shares, share puts, rebuild timings, tampering, coalitions.
        case .sharePuts, .unsentRetries, .uploadAttemptsFailed, .failedUploadsRebuildable, .sharesOnServersMean,
             .tamperDetected, .tamperCorrected, .messagesUnrecoverable, .coalitionExposedMessages,
             .coalitionExposureSeconds, .uploadTime, .uploadSyncTime, .uploadSharingTime, .uploadNetworkTime,
             .downloadTime, .downloadSyncTime, .downloadSharingTime, .downloadNetworkTime:
            return .nan
        }
    }

    /// A series value now (`SeriesCatalog`); NaN for the series about shares and TTL windows.
    static func series(_ name: SeriesName, of system: CentralSystem) -> Double {
        switch name {
        case .devicesOnline: return Double(system.devicesOnline)
        case .unsentMessages: return Double(system.unsentMessages)
        case .messagesUploaded: return Double(system.counters.uploads)
        case .messagesRebuilt: return Double(system.counters.fetched)
        case .resendRequests, .reuploads: return 0
        case .bytesUploaded: return Double(system.traffic.reduce(0) { $0 + $1.bytesSent })
        case .bytesDownloaded: return Double(system.traffic.reduce(0) { $0 + $1.bytesReceived })
        case .sharesOnServers, .windowUploadsNormal, .windowUploadsConfirm, .windowUploadsResend, .windowRebuilt,
             .windowRebuiltResend, .windowReuploads, .windowReuploadsFirst, .windowReuploadsRepeated, .windowReuploadsHeld:
            return .nan
        }
    }
}
