import SimKernel
import GrouperModel

/// What a profile field measures; decides how its JSON value is read.
public enum ProfileUnit: String, Sendable {
    /// A duration string (`"3ms"`), stored in seconds; ≥ 0.
    case duration
    /// Bytes per second, a positive number.
    case bytesPerSecond = "bytes/s"
    /// A whole number of bytes, ≥ 0.
    case bytes
}

/// One named built-in profile or a built-in with overrides.
///
/// `values` always holds every field of the kind, in the kind's field order,
/// in SI units (seconds, bytes/s).
public struct ProfileSpec: Equatable, Sendable {
    public enum Kind: String, CaseIterable, Sendable { case device, network, server }
    public var kind: Kind
    /// The built-in this profile starts from.
    public var base: String
    public var values: [Double]
    package init(kind: Kind, base: String, values: [Double]) {
        self.kind = kind; self.base = base; self.values = values
    }

    /// The value of `field` (a programmer error if the field does not exist).
    public subscript(field: String) -> Double {
        guard let i = ProfileCatalog.fields(kind).firstIndex(where: { $0.name == field }) else {
            preconditionFailure("no \(kind) profile field \(field)")
        }
        return values[i]
    }
}

public struct ProfileSet: Equatable, Sendable {
    public var device: ProfileSpec
    public var network: ProfileSpec
    public var server: ProfileSpec
    public init(device: ProfileSpec, network: ProfileSpec, server: ProfileSpec) {
        self.device = device; self.network = network; self.server = server
    }
    public static var defaults: ProfileSet {
        ProfileSet(device: ProfileCatalog.builtin(.device, "modern")!,
                   network: ProfileCatalog.builtin(.network, "lab-80211n")!,
                   server: ProfileCatalog.builtin(.server, "fast")!)
    }
}

/// The built-in profiles: GrouperModel's profile constants (`DeviceProfile.a5`, `.modern`,
/// `.instant`, `NetworkProfile.lab80211n`, `.lte`, `.ideal`, `ServerProfile.tomcatMySQL`,
/// `.fast`, `.instant`) read through the field table, so every number has one definition
/// (docs/profiles.md explains them).
public enum ProfileCatalog {
    /// One scenario field of a profile kind and the `SystemConfig` value it stands for:
    /// `read` gives the value in SI units (seconds, bytes/s, bytes), `apply` sets it.
    public struct Field: Sendable {
        public var name: String
        public var unit: ProfileUnit
        public var summary: String
        /// The longest value a `.duration` field takes: a per-operation cost is multiplied by
        /// counts (field operations, shares), a delay is added per server index, so both stay
        /// well below the scenario-wide bound and nothing the model forms from them overflows.
        public var longest: SimDuration = .days(1)
        let read: @Sendable (SystemConfig) -> Double
        let apply: @Sendable (inout SystemConfig, Double) -> Void
    }

    /// The fields of a kind, in the order of `ProfileSpec.values` and of `grouper-sim list`.
    public static func fields(_ kind: ProfileSpec.Kind) -> [Field] {
        switch kind {
        case .device: return [
            .nanos("field_op", \.device.nanosPerFieldOp, "CPU time per field multiply-add in split/join"),
            .nanos("random_byte", \.device.nanosPerRandomByte, "CPU time per random coefficient byte"),
            .nanos("json_byte", \.device.nanosPerJSONByte, "CPU time per byte marshalled or parsed"),
            .nanos("store_op", \.device.nanosPerStoreWrite, "CPU time per persistent-store operation"),
            .nanos("request", \.device.nanosPerRequest, "client CPU time per HTTP request built or parsed"),
            .nanos("aes_byte", \.device.nanosPerAESByte, "CPU time per byte encrypted at rest (AES-256-CBC)"),
            .nanos("kdf_iteration", \.device.nanosPerKDFIteration, "CPU time per PBKDF2 iteration of the store key"),
        ]
        case .network: return [
            .nanos("latency", \.network.latencyNanos, "one-way latency device↔server 1"),
            .nanos("latency_step", \.network.latencyStepNanos, "extra one-way latency per further server index"),
            .bandwidth("bandwidth", \.network.bytesPerSecond, "a device's link, shared by its concurrent transfers"),
            .timeout("timeout", \.requestTimeout, "request timeout (blackholed servers)"),
            .nanos("push_latency", \.network.pushLatencyNanos, "delay of a push notification"),
            .bytes("overhead", \.network.overheadBytes, "protocol bytes per request and per response (headers)"),
        ]
        case .server: return [
            .nanos("processing", \.server.nanosPerRequest, "server time per request"),
            .nanos("per_share", \.server.nanosPerShare, "server time per share stored or returned",
                  longest: .seconds(Int64(1))),
        ]
        }
    }

    /// Fields `resolved.json` writes only when they differ from the base profile (the base's
    /// value is what reading the file back gives them).
    public static let quietFields = ["aes_byte", "kdf_iteration"]

    /// Built-ins per kind, in listing order: (name, summary, values in field order).
    public static func builtins(_ kind: ProfileSpec.Kind) -> [(name: String, summary: String, values: [Double])] {
        switch kind {
        case .device: return [
            (DeviceProfile.a5, "iPhone 4s class (Apple A5, 800 MHz)"), (.modern, "a recent phone"),
            (.instant, "no CPU cost (isolates network effects)"),
        ].map { p, summary in row(kind, p.name, summary) { $0.device = p } }
        case .network: return [
            (NetworkProfile.lab80211n, "802.11n lab WLAN"), (.lte, "a mobile LTE link"),
            (.ideal, "no latency, very fast links"),
        ].map { p, summary in row(kind, p.name, summary) { $0.network = p } }
        case .server: return [
            (ServerProfile.tomcatMySQL, "Tomcat + MySQL web service (thesis setup)"),
            (.fast, "a lightly loaded modern service"), (.instant, "no server time"),
        ].map { p, summary in row(kind, p.name, summary) { $0.server = p } }
        }
    }

    public static func builtin(_ kind: ProfileSpec.Kind, _ name: String) -> ProfileSpec? {
        builtins(kind).first(where: { $0.name == name }).map { ProfileSpec(kind: kind, base: name, values: $0.values) }
    }

    /// A catalog row: the kind's fields read from a default `SystemConfig` with the profile set
    /// (a network row's `timeout` is `SystemConfig.defaultRequestTimeout`).
    private static func row(_ kind: ProfileSpec.Kind, _ name: String, _ summary: String,
                            _ set: (inout SystemConfig) -> Void) -> (name: String, summary: String, values: [Double]) {
        var c = SystemConfig()
        set(&c)
        return (name, summary, fields(kind).map { $0.read(c) })
    }
}
