import SimKernel

/// `"series"`: values sampled every `every` of virtual time during each run, written to
/// `series.csv` and plotted over time (one line per sweep point, mean over replications).
public struct SeriesSpec: Equatable, Sendable {
    public var every: SimDuration
    /// What is sampled, in column order.
    public var metrics: [SeriesName]

    /// Sample times: every, 2·every, … up to and including `duration`.
    public func times(duration: SimDuration) -> [SimTime] {
        let count = Int(duration.nanoseconds / every.nanoseconds)
        return (1...max(count, 1)).map { SimTime.zero + SimDuration(nanoseconds: every.nanoseconds * Int64($0)) }
    }

    /// At most this many samples per run (memory of sweeps × replications × samples).
    public static let maxSamples = 10_000
}

/// What a series can sample. Counts since the start of the run (warm-up included),
/// or states at the sample time.
public enum SeriesCatalog {
    public static let all: [CatalogEntry<SeriesName>] = [
        .init(.sharesOnServers, unit: .shares, summary: "shares all servers hold (stored, not yet deleted by the TTL sweep)"),
        .init(.devicesOnline, unit: .devices, summary: "devices online"),
        .init(.unsentMessages, unit: .messages, summary: "messages waiting in devices' unsent queues"),
        .init(.messagesUploaded, unit: .messages, summary: "messages stored on ≥ s servers so far"),
        .init(.messagesRebuilt, unit: .messages, summary: "messages rebuilt by receivers so far"),
        .init(.resendRequests, unit: .messages, summary: "resend requests sent so far"),
        .init(.reuploads, unit: .messages, summary: "messages re-uploaded for resend requests so far"),
        .init(.bytesUploaded, unit: .bytes, summary: "bytes devices sent to servers so far"),
        .init(.bytesDownloaded, unit: .bytes, summary: "bytes devices received from servers so far"),
    ]

    public static func metric(_ id: SeriesName) -> CatalogEntry<SeriesName> { all.first { $0.id == id }! }
}
