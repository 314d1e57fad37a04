import Testing
import GrouperModel
@testable import Scenarios

/// The thesis profiles in GrouperModel and the scenario catalog carry the same numbers.
@Suite struct ThesisProfileTests {
    @Test func catalogMatchesModelProfiles() throws {
        let d = try #require(ProfileCatalog.builtin(.device, "a5"))
        let a5 = DeviceProfile.a5
        #expect([d["field_op"], d["random_byte"], d["json_byte"], d["store_op"], d["request"]].map { ($0 * 1e9).rounded() }
                == [a5.nanosPerFieldOp, a5.nanosPerRandomByte, a5.nanosPerJSONByte, a5.nanosPerStoreWrite, a5.nanosPerRequest])
        let n = try #require(ProfileCatalog.builtin(.network, "lab-80211n"))
        let lab = NetworkProfile.lab80211n
        #expect(Int64((n["latency"] * 1e9).rounded()) == lab.latencyNanos)
        #expect(Int64((n["latency_step"] * 1e9).rounded()) == lab.latencyStepNanos)
        #expect(n["bandwidth"] == lab.bytesPerSecond && Int(n["overhead"]) == lab.overheadBytes)
        #expect(Int64((n["push_latency"] * 1e9).rounded()) == lab.pushLatencyNanos)
        let s = try #require(ProfileCatalog.builtin(.server, "tomcat-mysql"))
        #expect(Int64((s["processing"] * 1e9).rounded()) == ServerProfile.tomcatMySQL.nanosPerRequest)
        #expect(Int64((s["per_share"] * 1e9).rounded()) == ServerProfile.tomcatMySQL.nanosPerShare)
    }
}
