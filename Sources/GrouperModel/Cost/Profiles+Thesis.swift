/// The thesis testbed (chapter 6) as cost profiles. Estimates from public hardware facts,
/// not fitted to the thesis's figures; the rationale of every constant is in docs/profiles.md.
/// These constants are the only definition of the numbers: Scenarios' `ProfileCatalog` builds
/// its `a5`, `lab-80211n` and `tomcat-mysql` rows from them.
extension DeviceProfile {
    /// iPhone 4s / iPod touch 5th gen: Apple A5, dual Cortex-A9 at 800 MHz, 512 MB RAM.
    /// 40 ns per field multiply-add (~32 cycles incl. the mod-257 reduction and loads),
    /// 50 ns per random byte, 200 ns per JSON byte (~5 MB/s), 2 ms per Core Data write,
    /// 5 ms client CPU per HTTP request; 35 ns per AES-256-CBC byte and 2 µs per PBKDF2
    /// iteration (no crypto instructions; docs/profiles.md gives the sources).
    public static let a5 = DeviceProfile(name: "a5", nanosPerFieldOp: 40, nanosPerRandomByte: 50,
                                         nanosPerJSONByte: 200, nanosPerStoreWrite: 2_000_000,
                                         nanosPerRequest: 5_000_000, nanosPerAESByte: 35,
                                         nanosPerKDFIteration: 2_000)
}

extension NetworkProfile {
    /// A lab 802.11n WLAN (one 2.4 GHz stream, 65 Mb/s PHY, ~20 Mb/s TCP goodput):
    /// 5 ms one way (+0.1 ms per further server), 2.5 MB/s per device, 400 B of headers.
    public static let lab80211n = NetworkProfile(name: "lab-80211n", latencyNanos: 5_000_000,
                                                 latencyStepNanos: 100_000, bytesPerSecond: 2_500_000,
                                                 overheadBytes: 400, pushLatencyNanos: 300_000_000)
}

extension ServerProfile {
    /// Tomcat servlet + MySQL (InnoDB) on commodity hosts, 30 web services on 3 hosts:
    /// 5 ms per request (servlet dispatch, JDBC round trip, commit), 1 ms per share row.
    public static let tomcatMySQL = ServerProfile(name: "tomcat-mysql", nanosPerRequest: 5_000_000,
                                                  nanosPerShare: 1_000_000)
}
