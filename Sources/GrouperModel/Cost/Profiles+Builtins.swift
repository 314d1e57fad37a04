/// The built-in profiles besides the thesis testbed (Profiles+Thesis.swift): the only place
/// their numbers are written. Scenarios' `ProfileCatalog` lists these values under these names
/// (`grouper-sim list`); docs/profiles.md explains them.
extension DeviceProfile {
    /// A recent phone: placeholder numbers of the right order of magnitude, not fitted to anything.
    public static let modern = DeviceProfile(name: "modern", nanosPerFieldOp: 5, nanosPerRandomByte: 10,
                                             nanosPerJSONByte: 50, nanosPerStoreWrite: 200_000,
                                             nanosPerRequest: 500_000, nanosPerAESByte: 2,
                                             nanosPerKDFIteration: 200)
    /// No CPU cost at all (isolates network effects).
    public static let instant = DeviceProfile(name: "instant", nanosPerFieldOp: 0, nanosPerRandomByte: 0,
                                              nanosPerJSONByte: 0, nanosPerStoreWrite: 0, nanosPerRequest: 0)
}

extension NetworkProfile {
    /// A mobile LTE link: 40 ms one way for every server, 1.5 MB/s, pushes after 1 s.
    public static let lte = NetworkProfile(name: "lte", latencyNanos: 40_000_000, latencyStepNanos: 0,
                                           bytesPerSecond: 1_500_000, overheadBytes: 400,
                                           pushLatencyNanos: 1_000_000_000)
    /// No latency, no headers and a 1 TB/s link.
    public static let ideal = NetworkProfile(name: "ideal", latencyNanos: 0, latencyStepNanos: 0,
                                             bytesPerSecond: 1e12, overheadBytes: 0, pushLatencyNanos: 0)
}

extension ServerProfile {
    /// A lightly loaded modern service: 2 ms per request, 0.2 ms per share.
    public static let fast = ServerProfile(name: "fast", nanosPerRequest: 2_000_000, nanosPerShare: 200_000)
    /// No server time.
    public static let instant = ServerProfile(name: "instant", nanosPerRequest: 0, nanosPerShare: 0)
}

/// A cost profile: plain numbers under a name.
public protocol NamedProfile {
    var name: String { get set }
}

extension NamedProfile {
    /// The same numbers under another name.
    public func renamed(_ name: String) -> Self { var p = self; p.name = name; return p }
}

extension DeviceProfile: NamedProfile {}
extension NetworkProfile: NamedProfile {}
extension ServerProfile: NamedProfile {}
