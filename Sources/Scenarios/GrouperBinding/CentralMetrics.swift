import SimKernel
import GrouperModel

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

    var all: [(name: String, value: Double)] { MetricCatalog.all.map { ($0.name, value($0.name)) } }

    func count(_ k: KeyPath<CentralCounters, Int>) -> Double {
        Double(system.counters[keyPath: k] - atWarmup.counters[keyPath: k])
    }

    var traffic: DeviceTraffic { GrouperMetrics.traffic(system.traffic, since: atWarmup.traffic) }

    func value(_ name: String) -> Double {
        switch name {
        case "converged":
            if report.nothingToCheck { return .nan }
            return report.findings(of: "convergence").isEmpty ? 1 : 0
        case "delivery_ratio": return system.deliveryRatio ?? .nan
        case "lost_messages": return GrouperMetrics.lostMessages(report)
        case "messages_uploaded": return count(\.uploads)
        case "updates_uploaded": return count(\.uploads) - count(\.deleteUploads)
        case "deletes_uploaded": return count(\.deleteUploads)
        case "confirms_uploaded", "resends_uploaded", "resend_requests", "reuploads", "corrupted_deliveries": return 0
        case "messages_rebuilt": return count(\.fetched)
        case "upload_failures": return count(\.uploadFailures)
        case "transfers_declined": return count(\.declined)
        case "transfers_expired": return count(\.expired)
        case "transfers_lost_in_restart": return count(\.lostInRestart)
        case "delivery_latency", "delivery_latency_p50", "delivery_latency_p95", "delivery_latency_max":
            return latency.metric(name)
        case "bytes_uploaded", "bytes_downloaded", "requests": return GrouperMetrics.trafficMetric(name, traffic)
        case "events": return Double(system.eventsProcessed)
        case "bytes_at_rest_mean": return (system.byteSecondsAtRest - atWarmup.byteSeconds) / (spec.duration - spec.warmup).seconds
        case "bytes_at_rest_max": return system.bytesAtRestMax
        case "plaintext_exposed_messages": return Double(system.plaintextExposedMessages)
        case "exposure_seconds_mean":
            return system.writes.isEmpty ? .nan : system.plaintextExposureSeconds / Double(system.writes.count)
        case "phantom_objects": return Double(report.findings(of: "no-phantom").count)
        default: return .nan
        }
    }

    /// A series value now (`SeriesCatalog`); NaN for the series about shares.
    static func series(_ name: String, of system: CentralSystem) -> Double {
        switch name {
        case "devices_online": return Double(system.devicesOnline)
        case "unsent_messages": return Double(system.unsentMessages)
        case "messages_uploaded": return Double(system.counters.uploads)
        case "messages_rebuilt": return Double(system.counters.fetched)
        case "resend_requests", "reuploads": return 0
        case "bytes_uploaded": return Double(system.traffic.reduce(0) { $0 + $1.bytesSent })
        case "bytes_downloaded": return Double(system.traffic.reduce(0) { $0 + $1.bytesReceived })
        default: return .nan
        }
    }
}
