import SimKernel

/// Turns the work a device does into CPU time (virtual nanoseconds).
///
/// Work comes from the real code paths: `SharingWork` from split/join, bytes of JSON
/// encoded/decoded, objects written to the store. Plain data; the scenario files name one.
public struct DeviceProfile: Equatable, Sendable {
    public var name: String
    /// Per field multiply-add in split/join.
    public var nanosPerFieldOp: Double
    /// Per random coefficient byte drawn.
    public var nanosPerRandomByte: Double
    /// Per byte of message JSON encoded or decoded (data sync).
    public var nanosPerJSONByte: Double
    /// Per object written to or deleted from the persistent store (data sync).
    public var nanosPerStoreWrite: Double
    /// Client overhead per HTTP request built or parsed (network stack, not wire time).
    public var nanosPerRequest: Double
    /// Per byte encrypted or decrypted with AES-256-CBC (an encrypted store, `DeviceStoreConfig`).
    public var nanosPerAESByte: Double
    /// Per PBKDF2 iteration of the store key's derivation.
    public var nanosPerKDFIteration: Double

    public init(name: String, nanosPerFieldOp: Double, nanosPerRandomByte: Double, nanosPerJSONByte: Double,
                nanosPerStoreWrite: Double, nanosPerRequest: Double, nanosPerAESByte: Double = 0,
                nanosPerKDFIteration: Double = 0) {
        self.name = name; self.nanosPerFieldOp = nanosPerFieldOp; self.nanosPerRandomByte = nanosPerRandomByte
        self.nanosPerJSONByte = nanosPerJSONByte; self.nanosPerStoreWrite = nanosPerStoreWrite
        self.nanosPerRequest = nanosPerRequest
        self.nanosPerAESByte = nanosPerAESByte; self.nanosPerKDFIteration = nanosPerKDFIteration
    }

    /// `modern` under the name "lab": the default of `SystemConfig` (see Profiles+Builtins.swift).
    public static let lab = DeviceProfile.modern.renamed("lab")

    /// CPU time of a split or join.
    public func sharingTime(_ w: SharingWork) -> SimDuration {
        .nanoseconds(Int64((Double(w.fieldMultiplyAdds) * nanosPerFieldOp
            + Double(w.randomBytes) * nanosPerRandomByte).rounded()))
    }
    /// CPU time of building one HTTP request and parsing its response (charged when it is sent).
    public var requestTime: SimDuration { .nanoseconds(Int64(nanosPerRequest.rounded())) }
    /// CPU time of encoding/decoding `bytes` of JSON plus `storeWrites` store operations.
    public func syncTime(jsonBytes: Int, storeWrites: Int) -> SimDuration {
        .nanoseconds(Int64((Double(jsonBytes) * nanosPerJSONByte
            + Double(storeWrites) * nanosPerStoreWrite).rounded()))
    }
}

/// Device↔server network: latency, device bandwidth shared by its transfers, timeouts.
public struct NetworkProfile: Equatable, Sendable {
    public var name: String
    /// One-way latency device↔server i is `latencyNanos + i * latencyStepNanos`.
    public var latencyNanos: Int64
    public var latencyStepNanos: Int64
    /// Each device's link, bytes per second, one direction; its transfers share it (FIFO).
    public var bytesPerSecond: Double
    /// Fixed protocol bytes per request and per response (HTTP headers, TLS records).
    public var overheadBytes: Int
    /// Delay of a push notification from a server to an online device.
    public var pushLatencyNanos: Int64

    public init(name: String, latencyNanos: Int64, latencyStepNanos: Int64, bytesPerSecond: Double,
                overheadBytes: Int, pushLatencyNanos: Int64) {
        self.name = name; self.latencyNanos = latencyNanos; self.latencyStepNanos = latencyStepNanos
        self.bytesPerSecond = bytesPerSecond; self.overheadBytes = overheadBytes
        self.pushLatencyNanos = pushLatencyNanos
    }

    /// `lab80211n` under the name "lab": the default of `SystemConfig`.
    public static let lab = NetworkProfile.lab80211n.renamed("lab")

    public func latency(server: Int) -> SimDuration {
        .nanoseconds(latencyNanos + Int64(server) * latencyStepNanos)
    }
    /// Wire time of `bytes` on one device link.
    public func transferTime(bytes: Int) -> SimDuration {
        .nanoseconds(Int64((Double(bytes + overheadBytes) / bytesPerSecond * 1e9).rounded()))
    }
}

/// Server-side processing time (web service + database).
public struct ServerProfile: Equatable, Sendable {
    public var name: String
    public var nanosPerRequest: Int64
    /// Per share stored, listed or returned.
    public var nanosPerShare: Int64

    public init(name: String, nanosPerRequest: Int64, nanosPerShare: Int64) {
        self.name = name; self.nanosPerRequest = nanosPerRequest; self.nanosPerShare = nanosPerShare
    }

    /// `fast` under the name "lab": the default of `SystemConfig`.
    public static let lab = ServerProfile.fast.renamed("lab")

    public func processingTime(shares: Int) -> SimDuration {
        .nanoseconds(nanosPerRequest + Int64(shares) * nanosPerShare)
    }
}
