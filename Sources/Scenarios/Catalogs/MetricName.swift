/// The metrics a scenario can report, in catalog order (`MetricCatalog.all`). Scenario
/// files and result files spell them by `rawValue`; the engines compute each case by an
/// exhaustive switch, so a metric cannot be listed without being computed.
public enum MetricName: String, CaseIterable, Sendable, CustomStringConvertible {
    case converged
    case deliveryRatio = "delivery_ratio"
    case lostMessages = "lost_messages"
    case messagesUploaded = "messages_uploaded"
    case updatesUploaded = "updates_uploaded"
    case deletesUploaded = "deletes_uploaded"
    case confirmsUploaded = "confirms_uploaded"
    case resendsUploaded = "resends_uploaded"
    case resendRequests = "resend_requests"
    case reuploads
    case reuploadsFirst = "reuploads_first"
    case reuploadsRepeated = "reuploads_repeated"
    case reuploadsHeld = "reuploads_held"
    case sharePuts = "share_puts"
    case messagesRebuilt = "messages_rebuilt"
    case unsentRetries = "unsent_retries"
    case uploadFailures = "upload_failures"
    case uploadAttemptsFailed = "upload_attempts_failed"
    case failedUploadsRebuildable = "failed_uploads_rebuildable"
    case uploadTime = "upload_time"
    case uploadSyncTime = "upload_sync_time"
    case uploadSharingTime = "upload_sharing_time"
    case uploadNetworkTime = "upload_network_time"
    case downloadTime = "download_time"
    case downloadSyncTime = "download_sync_time"
    case downloadSharingTime = "download_sharing_time"
    case downloadNetworkTime = "download_network_time"
    case deliveryLatency = "delivery_latency"
    case deliveryLatencyP50 = "delivery_latency_p50"
    case deliveryLatencyP95 = "delivery_latency_p95"
    case deliveryLatencyMax = "delivery_latency_max"
    case propagationLatency = "propagation_latency"
    case propagationLatencyMax = "propagation_latency_max"
    case propagationCensored = "propagation_censored"
    case bytesUploaded = "bytes_uploaded"
    case bytesDownloaded = "bytes_downloaded"
    case requests
    case sharesOnServersMean = "shares_on_servers_mean"
    case events
    case corruptedDeliveries = "corrupted_deliveries"
    case phantomObjects = "phantom_objects"
    case tamperDetected = "tamper_detected"
    case tamperCorrected = "tamper_corrected"
    case messagesUnrecoverable = "messages_unrecoverable"
    case coalitionExposedMessages = "coalition_exposed_messages"
    case coalitionExposureSeconds = "coalition_exposure_seconds"
    case bytesAtRestMean = "bytes_at_rest_mean"
    case bytesAtRestMax = "bytes_at_rest_max"
    case plaintextExposedMessages = "plaintext_exposed_messages"
    case exposureSecondsMean = "exposure_seconds_mean"
    case devicePlaintextBytes = "device_plaintext_bytes"
    case transfersDeclined = "transfers_declined"
    case transfersExpired = "transfers_expired"
    case transfersLostInRestart = "transfers_lost_in_restart"

    public var description: String { rawValue }
}

/// What a series can sample (`SeriesCatalog.all`, in that order), spelled by `rawValue`.
public enum SeriesName: String, CaseIterable, Sendable, CustomStringConvertible {
    case sharesOnServers = "shares_on_servers"
    case devicesOnline = "devices_online"
    case unsentMessages = "unsent_messages"
    case messagesUploaded = "messages_uploaded"
    case messagesRebuilt = "messages_rebuilt"
    case resendRequests = "resend_requests"
    case reuploads
    case bytesUploaded = "bytes_uploaded"
    case bytesDownloaded = "bytes_downloaded"
    case windowUploadsNormal = "ttl_window_uploads_normal"
    case windowUploadsConfirm = "ttl_window_uploads_confirm"
    case windowUploadsResend = "ttl_window_uploads_resend"
    case windowRebuilt = "ttl_window_rebuilt"
    case windowRebuiltResend = "ttl_window_rebuilt_resend"
    case windowReuploads = "ttl_window_reuploads"
    case windowReuploadsFirst = "ttl_window_reuploads_first"
    case windowReuploadsRepeated = "ttl_window_reuploads_repeated"
    case windowReuploadsHeld = "ttl_window_reuploads_held"

    public var description: String { rawValue }

    /// Counts of the last whole TTL window before the sample time (Grouper only).
    public var isPerTTLWindow: Bool { rawValue.hasPrefix("ttl_window_") }
}

/// What values a metric can take, so that its interval stays inside that range.
public enum MetricRange: Sendable, Equatable {
    /// 0 or 1 per run (`converged`): Wilson score interval of "k of n runs".
    case binary
    /// A fraction in [0, 1] per run (`delivery_ratio`).
    case fraction
    /// Counts, times, bytes: never below 0.
    case nonNegative
    /// Anything.
    case unbounded

    /// The range a unit (as printed) implies (`MetricUnit.range`); unbounded for no unit.
    public static func of(unit: String) -> MetricRange { MetricUnit(rawValue: unit)?.range ?? .unbounded }

    package var bounds: (lo: Double, hi: Double) {
        switch self {
        case .binary, .fraction: return (0, 1)
        case .nonNegative: return (0, .infinity)
        case .unbounded: return (-.infinity, .infinity)
        }
    }
}

/// The unit of a metric or series, spelled in tables and plots by `rawValue`.
public enum MetricUnit: String, CaseIterable, Sendable {
    case zeroOne = "0/1"
    case fraction, messages, shares
    case seconds = "s"
    case bytes, requests, events, devices, objects, transfers

    /// The values the unit allows, which bound a metric's interval and plot axis: every count,
    /// time and size is ≥ 0, fractions lie in [0, 1].
    public var range: MetricRange {
        switch self {
        case .zeroOne: .binary
        case .fraction: .fraction
        case .messages, .shares, .seconds, .bytes, .requests, .events, .devices, .objects, .transfers: .nonNegative
        }
    }
}

/// One name of a catalog (`MetricCatalog`, `SeriesCatalog`) with its unit and a one-line summary.
public struct CatalogEntry<ID>: Sendable, Equatable
where ID: RawRepresentable & CaseIterable & Sendable & Equatable, ID.RawValue == String {
    public var id: ID
    public var measure: MetricUnit
    public var summary: String
    public var name: String { id.rawValue }
    /// The unit as tables and plots print it.
    public var unit: String { measure.rawValue }
    init(_ id: ID, unit: MetricUnit, summary: String) { self.id = id; self.measure = unit; self.summary = summary }
}
