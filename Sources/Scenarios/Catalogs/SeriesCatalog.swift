import SimKernel

/// `"series"`: values sampled every `every` of virtual time during each run, written to
/// `series.csv` and plotted over time (one line per sweep point, mean over replications).
public struct SeriesSpec: Equatable, Sendable {
    public var every: SimDuration
    /// What is sampled, in column order.
    public var metrics: [SeriesName]
    public init(every: SimDuration, metrics: [SeriesName]) { self.every = every; self.metrics = metrics }

    /// Sample times: every, 2·every, … up to and including `duration`.
    public func times(duration: SimDuration) -> [SimTime] {
        let count = Int(duration.nanoseconds / every.nanoseconds)
        return (1...max(count, 1)).map { SimTime.zero + SimDuration(nanoseconds: every.nanoseconds * Int64($0)) }
    }

    /// At most this many samples per run (memory of sweeps × replications × samples).
    public static let maxSamples = 10_000
}

/// What a series can sample. Counts since the start of the run (warm-up included), states
/// at the sample time, or (`ttl_window_*`) counts of the last whole TTL window before it:
/// the model's counters keyed by ⌊event time / TTL⌋, window ⌊t / TTL⌋ − 1 at sample time t.
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
        .init(.windowUploadsNormal, unit: .messages, summary: "updates and deletes stored on ≥ s servers (re-uploads included) in the last whole TTL window"),
        .init(.windowUploadsConfirm, unit: .messages, summary: "confirm messages stored on ≥ s servers in the last whole TTL window"),
        .init(.windowUploadsResend, unit: .messages, summary: "resend requests stored on ≥ s servers in the last whole TTL window"),
        .init(.windowRebuilt, unit: .messages, summary: "messages of every type rebuilt by receivers in the last whole TTL window"),
        .init(.windowRebuiltResend, unit: .messages, summary: "resend requests rebuilt by receivers in the last whole TTL window"),
        .init(.windowReuploads, unit: .messages, summary: "messages re-uploaded for resend requests in the last whole TTL window"),
        .init(.windowReuploadsFirst, unit: .messages, summary: "of those, first copies of a message the requester missed (multicast re-uploads included)"),
        .init(.windowReuploadsRepeated, unit: .messages, summary: "of those, copies of a missed message stored again for the same requester"),
        .init(.windowReuploadsHeld, unit: .messages, summary: "of those, copies of a message the requester already held"),
    ]

    public static func metric(_ id: SeriesName) -> CatalogEntry<SeriesName> { all.first { $0.id == id }! }
}
