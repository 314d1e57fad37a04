import SimKernel
import GrouperModel

/// How a profile field maps to `SystemConfig`. The conversions are exactly the ones runs have
/// always used, so results do not move: Double nanoseconds are scaled without rounding,
/// Int64 nanoseconds are rounded to the nearest nanosecond.
extension ProfileCatalog.Field {
    typealias Path<Value> = WritableKeyPath<SystemConfig, Value> & Sendable

    /// Seconds to whole nanoseconds, rounded to nearest.
    package static func roundedNanos(_ seconds: Double) -> Int64 { Int64((seconds * 1e9).rounded()) }

    /// A duration the model keeps as Double nanoseconds (a cost per operation: at most 1 s).
    static func nanos(_ name: String, _ path: Path<Double>, _ summary: String) -> Self {
        Self(name: name, unit: .duration, summary: summary, longest: .seconds(Int64(1)),
             read: { $0[keyPath: path] / 1e9 }, apply: { $0[keyPath: path] = $1 * 1e9 })
    }
    /// A duration the model keeps as Int64 nanoseconds.
    static func nanos(_ name: String, _ path: Path<Int64>, _ summary: String, longest: SimDuration = .days(1)) -> Self {
        Self(name: name, unit: .duration, summary: summary, longest: longest,
             read: { Double($0[keyPath: path]) / 1e9 }, apply: { $0[keyPath: path] = roundedNanos($1) })
    }
    /// A timeout: a `SimDuration` of at least 1 ns (0 would time every request out at once).
    static func timeout(_ name: String, _ path: Path<SimDuration>, _ summary: String) -> Self {
        Self(name: name, unit: .duration, summary: summary,
             read: { Double($0[keyPath: path].nanoseconds) / 1e9 },
             apply: { $0[keyPath: path] = .nanoseconds(max(1, roundedNanos($1))) })
    }
    /// Bytes per second, as is.
    static func bandwidth(_ name: String, _ path: Path<Double>, _ summary: String) -> Self {
        Self(name: name, unit: .bytesPerSecond, summary: summary,
             read: { $0[keyPath: path] }, apply: { $0[keyPath: path] = $1 })
    }
    /// A whole number of bytes.
    static func bytes(_ name: String, _ path: Path<Int>, _ summary: String) -> Self {
        Self(name: name, unit: .bytes, summary: summary,
             read: { Double($0[keyPath: path]) }, apply: { $0[keyPath: path] = Int($1) })
    }
}

extension ProfileSpec {
    /// Sets every field of this profile in `config`, and names the model profile after `base`.
    public func apply(to config: inout SystemConfig) {
        for (field, value) in zip(ProfileCatalog.fields(kind), values) { field.apply(&config, value) }
        switch kind {
        case .device: config.device.name = base
        case .network: config.network.name = base
        case .server: config.server.name = base
        }
    }
}
