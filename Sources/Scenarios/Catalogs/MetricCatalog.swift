/// The metrics a scenario can report (`"metrics": [...]`), with units.
///
/// Counts are totals over the measured interval [warm-up, duration) summed over
/// devices; times are means in seconds over upload jobs / receive rounds that
/// started after warm-up.
public enum MetricCatalog {
    public struct Metric: Sendable, Equatable {
        public var name: String
        public var unit: String
        public var summary: String
    }

    public static let all: [Metric] = [
        Metric(name: "converged", unit: "0/1", summary: "1 if every device ends with the same objects (convergence checker)"),
        Metric(name: "delivery_ratio", unit: "fraction", summary: "(member, object) pairs holding the object's final version at the end"),
        Metric(name: "lost_messages", unit: "messages", summary: "final writes some member lacks at the end (convergence findings)"),
        Metric(name: "messages_uploaded", unit: "messages", summary: "messages stored on ≥ s servers (all types)"),
        Metric(name: "updates_uploaded", unit: "messages", summary: "update messages uploaded"),
        Metric(name: "deletes_uploaded", unit: "messages", summary: "delete messages uploaded"),
        Metric(name: "confirms_uploaded", unit: "messages", summary: "confirm messages uploaded"),
        Metric(name: "resends_uploaded", unit: "messages", summary: "resend messages uploaded"),
        Metric(name: "resend_requests", unit: "messages", summary: "resend requests sent by receivers"),
        Metric(name: "reuploads", unit: "messages", summary: "normal messages re-uploaded for resend requests"),
        Metric(name: "share_puts", unit: "shares", summary: "shares stored on servers"),
        Metric(name: "messages_rebuilt", unit: "messages", summary: "messages rebuilt by receivers (downloads)"),
        Metric(name: "unsent_retries", unit: "messages", summary: "uploads retried from the unsent queue"),
        Metric(name: "upload_failures", unit: "messages", summary: "messages whose upload reached fewer than s servers at least once (each counted once)"),
        Metric(name: "upload_attempts_failed", unit: "messages", summary: "failed upload attempts per message (a message that fails 3 times counts 3)"),
        Metric(name: "failed_uploads_rebuildable", unit: "messages", summary: "messages of failed upload attempts whose shares still reached ≥ k servers (late answers included): receivers can rebuild them"),
        Metric(name: "upload_time", unit: "s", summary: "mean duration of an upload job (sync + sharing + network)"),
        Metric(name: "upload_sync_time", unit: "s", summary: "mean data-sync time of an upload job"),
        Metric(name: "upload_sharing_time", unit: "s", summary: "mean secret-sharing time of an upload job"),
        Metric(name: "upload_network_time", unit: "s", summary: "mean network (and server) time of an upload job"),
        Metric(name: "download_time", unit: "s", summary: "mean duration of a receive round that rebuilt ≥ 1 message"),
        Metric(name: "download_sync_time", unit: "s", summary: "mean data-sync time of such a receive round"),
        Metric(name: "download_sharing_time", unit: "s", summary: "mean secret-sharing time of such a receive round"),
        Metric(name: "download_network_time", unit: "s", summary: "mean network (and server) time of such a receive round"),
        Metric(name: "delivery_latency", unit: "s", summary: "mean time from an update's write to its delivery on a receiver"),
        Metric(name: "delivery_latency_p50", unit: "s", summary: "median of those delivery times (nearest rank)"),
        Metric(name: "delivery_latency_p95", unit: "s", summary: "95th percentile of those delivery times (nearest rank)"),
        Metric(name: "delivery_latency_max", unit: "s", summary: "longest of those delivery times"),
        Metric(name: "bytes_uploaded", unit: "bytes", summary: "bytes devices sent to servers (requests, with per-transfer overhead)"),
        Metric(name: "bytes_downloaded", unit: "bytes", summary: "bytes devices received from servers (responses, with overhead)"),
        Metric(name: "requests", unit: "requests", summary: "requests devices sent to servers (refused and lost ones included)"),
        Metric(name: "shares_on_servers_mean", unit: "shares", summary: "time-average of the shares all servers hold (the exposure the TTL bounds)"),
        Metric(name: "events", unit: "events", summary: "simulation events processed"),
        Metric(name: "corrupted_deliveries", unit: "messages", summary: "rebuilt messages accepted with content no device sent (hostile servers)"),
        Metric(name: "phantom_objects", unit: "objects", summary: "(device, object) pairs held at the end with content nobody wrote (no-phantom findings)"),
        Metric(name: "tamper_detected", unit: "messages", summary: "(receiver, message) pairs whose shares check/correct found inconsistent"),
        Metric(name: "tamper_corrected", unit: "messages", summary: "(receiver, message) pairs correct rebuilt around bad shares"),
        Metric(name: "messages_unrecoverable", unit: "messages", summary: "(receiver, message) pairs left unrebuilt at the end because their shares disagree"),
        Metric(name: "coalition_exposed_messages", unit: "messages", summary: "messages a colluding coalition held shares of on ≥ k servers at some moment"),
        Metric(name: "coalition_exposure_seconds", unit: "s", summary: "Σ over coalitions and messages of the time the coalition held ≥ k of its shares"),
        Metric(name: "bytes_at_rest_mean", unit: "bytes", summary: "time-average of the bytes all servers hold (shares for Grouper, whole files for central)"),
        Metric(name: "bytes_at_rest_max", unit: "bytes", summary: "most bytes one server held at once (whole run)"),
        Metric(name: "plaintext_exposed_messages", unit: "messages", summary: "messages a single server could read at some moment (Grouper: held ≥ k shares; central: every file)"),
        Metric(name: "exposure_seconds_mean", unit: "s", summary: "Σ over servers and messages of the time that server alone could read the message, per message written"),
        Metric(name: "transfers_declined", unit: "transfers", summary: "central: transfers a receiver declined (it held a newer version); NaN for Grouper"),
        Metric(name: "transfers_expired", unit: "transfers", summary: "central: transfers given up at the retention limit (file lost for that receiver); NaN for Grouper"),
        Metric(name: "transfers_lost_in_restart", unit: "transfers", summary: "central: open transfers whose file a restart without data destroyed; NaN for Grouper"),
    ]

    /// Reported when a scenario has no `metrics` list.
    public static let defaults = ["converged", "delivery_ratio", "messages_uploaded", "messages_rebuilt",
                                  "reuploads", "upload_time", "download_time"]

    /// The metrics that need the exposure observations (`SystemConfig.trackExposure`).
    public static let exposure = ["bytes_at_rest_mean", "bytes_at_rest_max", "plaintext_exposed_messages", "exposure_seconds_mean"]

    public static func metric(named name: String) -> Metric? { all.first(where: { $0.name == name }) }
}
