/// The metrics a scenario can report (`"metrics": [...]`), with units.
///
/// Counts are totals over the measured interval [warm-up, duration) summed over
/// devices; times are means in seconds over upload jobs / receive rounds that
/// started after warm-up.
public enum MetricCatalog {
    public typealias Metric = CatalogEntry<MetricName>

    public static let all: [Metric] = [
        Metric(.converged, unit: .zeroOne, summary: "1 if every device ends with the same objects (convergence checker)"),
        Metric(.deliveryRatio, unit: .fraction, summary: "(member, object) pairs holding the object's final version at the end"),
        Metric(.lostMessages, unit: .messages, summary: "final writes some member lacks at the end (convergence findings)"),
        Metric(.messagesUploaded, unit: .messages, summary: "messages stored on ≥ s servers (all types)"),
        Metric(.updatesUploaded, unit: .messages, summary: "update messages uploaded"),
        Metric(.deletesUploaded, unit: .messages, summary: "delete messages uploaded"),
        Metric(.confirmsUploaded, unit: .messages, summary: "confirm messages uploaded"),
        Metric(.resendsUploaded, unit: .messages, summary: "resend messages uploaded"),
        Metric(.resendRequests, unit: .messages, summary: "resend requests sent by receivers"),
        Metric(.reuploads, unit: .messages, summary: "normal messages re-uploaded for resend requests"),
        Metric(.reuploadsFirst, unit: .messages, summary: "re-uploads that were the first copy for their requester of a message it missed (multicast re-uploads included)"),
        Metric(.reuploadsRepeated, unit: .messages, summary: "re-uploads of a message the requester missed for which an earlier copy for it had been stored"),
        Metric(.reuploadsHeld, unit: .messages, summary: "re-uploads of a message the requester already held (a resend range over held messages)"),
        Metric(.sharePuts, unit: .shares, summary: "shares servers acknowledged storing (refused, lost and unanswered puts excluded)"),
        Metric(.messagesRebuilt, unit: .messages, summary: "messages rebuilt by receivers (downloads)"),
        Metric(.unsentRetries, unit: .messages, summary: "uploads retried from the unsent queue"),
        Metric(.uploadFailures, unit: .messages, summary: "messages whose upload reached fewer than s servers at least once (each counted once)"),
        Metric(.uploadAttemptsFailed, unit: .messages, summary: "failed upload attempts per message (a message that fails 3 times counts 3)"),
        Metric(.failedUploadsRebuildable, unit: .messages, summary: "messages with a failed upload attempt whose shares still reached ≥ k servers (late answers included; each message once): receivers can rebuild them"),
        Metric(.uploadTime, unit: .seconds, summary: "mean duration of an upload job (sync + sharing + network)"),
        Metric(.uploadSyncTime, unit: .seconds, summary: "mean data-sync time of an upload job"),
        Metric(.uploadSharingTime, unit: .seconds, summary: "mean secret-sharing time of an upload job"),
        Metric(.uploadNetworkTime, unit: .seconds, summary: "mean network (and server) time of an upload job"),
        Metric(.downloadTime, unit: .seconds, summary: "mean duration of a receive round that rebuilt ≥ 1 message"),
        Metric(.downloadSyncTime, unit: .seconds, summary: "mean data-sync time of such a receive round"),
        Metric(.downloadSharingTime, unit: .seconds, summary: "mean secret-sharing time of such a receive round"),
        Metric(.downloadNetworkTime, unit: .seconds, summary: "mean network (and server) time of such a receive round"),
        Metric(.deliveryLatency, unit: .seconds, summary: "mean time from an update's write to its delivery on a receiver"),
        Metric(.deliveryLatencyP50, unit: .seconds, summary: "median of those delivery times (nearest rank)"),
        Metric(.deliveryLatencyP95, unit: .seconds, summary: "95th percentile of those delivery times (nearest rank)"),
        Metric(.deliveryLatencyMax, unit: .seconds, summary: "longest of those delivery times"),
        Metric(.propagationLatency, unit: .seconds, summary: "mean over (member, write) pairs of the time until the member holds that version of the object or a newer one; a pair not reached by the end counts its time up to the end"),
        Metric(.propagationLatencyMax, unit: .seconds, summary: "longest of those times (a pair not reached: its time up to the end)"),
        Metric(.propagationCensored, unit: .fraction, summary: "fraction of those (member, write) pairs not reached by the end of the run"),
        Metric(.bytesUploaded, unit: .bytes, summary: "bytes devices sent to servers (requests, with per-transfer overhead)"),
        Metric(.bytesDownloaded, unit: .bytes, summary: "bytes devices received from servers (responses, with overhead)"),
        Metric(.requests, unit: .requests, summary: "requests devices sent to servers (refused and lost ones included)"),
        Metric(.sharesOnServersMean, unit: .shares, summary: "time-average of the shares all servers hold (the exposure the TTL bounds)"),
        Metric(.events, unit: .events, summary: "simulation events processed"),
        Metric(.corruptedDeliveries, unit: .messages, summary: "rebuilt messages accepted with content no device sent (hostile servers)"),
        Metric(.phantomObjects, unit: .objects, summary: "(device, object) pairs held at the end with content nobody wrote (no-phantom findings)"),
        Metric(.tamperDetected, unit: .messages, summary: "(receiver, message) pairs whose shares check/correct found inconsistent"),
        Metric(.tamperCorrected, unit: .messages, summary: "(receiver, message) pairs correct rebuilt around bad shares"),
        Metric(.messagesUnrecoverable, unit: .messages, summary: "(receiver, message) pairs left unrebuilt at the end because their shares disagree"),
        Metric(.coalitionExposedMessages, unit: .messages, summary: "messages a colluding coalition held shares of on ≥ k servers at some moment"),
        Metric(.coalitionExposureSeconds, unit: .seconds, summary: "Σ over coalitions and messages of the time the coalition held ≥ k of its shares"),
        Metric(.bytesAtRestMean, unit: .bytes, summary: "time-average of the bytes all servers hold (shares for Grouper, whole files for central)"),
        Metric(.bytesAtRestMax, unit: .bytes, summary: "most bytes one server held at once (whole run)"),
        Metric(.plaintextExposedMessages, unit: .messages, summary: "messages a single server could read at some moment (Grouper: held ≥ k shares; central: every file)"),
        Metric(.exposureSecondsMean, unit: .seconds, summary: "Σ over servers and messages of the time that server alone could read the message, per message written"),
        Metric(.devicePlaintextBytes, unit: .bytes, summary: "plaintext a stolen device would expose at the end (mean over members; 0 with an aes256-cbc store)"),
        Metric(.transfersDeclined, unit: .transfers, summary: "central: transfers a receiver declined (it held a newer version); NaN for Grouper"),
        Metric(.transfersExpired, unit: .transfers, summary: "central: transfers given up at the retention limit (file lost for that receiver); NaN for Grouper"),
        Metric(.transfersLostInRestart, unit: .transfers, summary: "central: open transfers whose file a restart without data destroyed; NaN for Grouper"),
    ]

    /// Reported when a scenario has no `metrics` list.
    public static let defaults: [MetricName] = [.converged, .deliveryRatio, .messagesUploaded, .messagesRebuilt,
                                                .reuploads, .uploadTime, .downloadTime]

    /// The metrics that need the exposure observations (`SystemConfig.trackExposure`).
    public static let exposure: [MetricName] = [.bytesAtRestMean, .bytesAtRestMax, .plaintextExposedMessages, .exposureSecondsMean]

    public static func metric(named name: String) -> Metric? { all.first(where: { $0.name == name }) }
    public static func metric(_ id: MetricName) -> Metric { all.first(where: { $0.id == id })! }
}
