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
    public static var defaults: ProfileSet {
        ProfileSet(device: ProfileCatalog.builtin(.device, "modern")!,
                   network: ProfileCatalog.builtin(.network, "lab-80211n")!,
                   server: ProfileCatalog.builtin(.server, "fast")!)
    }
}

/// The built-in profiles. Constants are first estimates; issue 6 calibrates the
/// thesis ones (`a5`, `lab-80211n`, `tomcat-mysql`) in docs/profiles.md.
public enum ProfileCatalog {
    public struct Field: Sendable { public var name: String; public var unit: ProfileUnit; public var summary: String }

    public static func fields(_ kind: ProfileSpec.Kind) -> [Field] {
        switch kind {
        case .device: return [
            Field(name: "field_op", unit: .duration, summary: "CPU time per field multiply-add in split/join"),
            Field(name: "random_byte", unit: .duration, summary: "CPU time per random coefficient byte"),
            Field(name: "json_byte", unit: .duration, summary: "CPU time per byte marshalled or parsed"),
            Field(name: "store_op", unit: .duration, summary: "CPU time per persistent-store operation"),
            Field(name: "request", unit: .duration, summary: "client CPU time per HTTP request built or parsed"),
        ]
        case .network: return [
            Field(name: "latency", unit: .duration, summary: "one-way latency device↔server 1"),
            Field(name: "latency_step", unit: .duration, summary: "extra one-way latency per further server index"),
            Field(name: "bandwidth", unit: .bytesPerSecond, summary: "a device's link, shared by its concurrent transfers"),
            Field(name: "timeout", unit: .duration, summary: "request timeout (blackholed servers)"),
            Field(name: "push_latency", unit: .duration, summary: "delay of a push notification"),
            Field(name: "overhead", unit: .bytes, summary: "protocol bytes per request and per response (headers)"),
        ]
        case .server: return [
            Field(name: "processing", unit: .duration, summary: "server time per request"),
            Field(name: "per_share", unit: .duration, summary: "server time per share stored or returned"),
        ]
        }
    }

    /// Built-ins per kind, in listing order: (name, summary, values in field order).
    public static func builtins(_ kind: ProfileSpec.Kind) -> [(name: String, summary: String, values: [Double])] {
        switch kind {
        case .device: return [
            ("a5", "iPhone 4s class (Apple A5, 800 MHz)", [40e-9, 50e-9, 200e-9, 2e-3, 5e-3]),
            ("modern", "a recent phone", [5e-9, 10e-9, 50e-9, 200e-6, 500e-6]),
            ("instant", "no CPU cost (isolates network effects)", [0, 0, 0, 0, 0]),
        ]
        case .network: return [
            ("lab-80211n", "802.11n lab WLAN", [5e-3, 100e-6, 2_500_000, 60, 0.3, 400]),
            ("lte", "a mobile LTE link", [40e-3, 0, 1_500_000, 60, 1, 400]),
            ("ideal", "no latency, very fast links", [0, 0, 1e12, 60, 0, 0]),
        ]
        case .server: return [
            ("tomcat-mysql", "Tomcat + MySQL web service (thesis setup)", [5e-3, 1e-3]),
            ("fast", "a lightly loaded modern service", [2e-3, 200e-6]),
            ("instant", "no server time", [0, 0]),
        ]
        }
    }

    public static func builtin(_ kind: ProfileSpec.Kind, _ name: String) -> ProfileSpec? {
        builtins(kind).first(where: { $0.name == name }).map { ProfileSpec(kind: kind, base: name, values: $0.values) }
    }
}
