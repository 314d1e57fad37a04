import Testing
import SimKernel
import GrouperModel
@testable import Scenarios
@testable import Format
@testable import ScenarioFile
@testable import Execution
@testable import GrouperBinding
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore
@testable import Catalogs
@testable import GrouperSimCLI

/// The scenario catalog's profile rows are GrouperModel's constants read through one field table.
@Suite struct ThesisProfileTests {
    /// Applying a catalog row to a config gives back exactly the model constant it was read from.
    @Test func catalogRowsAreTheModelConstants() throws {
        func config(_ kind: ProfileSpec.Kind, _ name: String) throws -> SystemConfig {
            var c = SystemConfig()
            try #require(ProfileCatalog.builtin(kind, name)).apply(to: &c)
            return c
        }
        for p in [DeviceProfile.a5, .modern, .instant] { #expect(try config(.device, p.name).device == p) }
        for p in [NetworkProfile.lab80211n, .lte, .ideal] {
            let c = try config(.network, p.name)
            #expect(c.network == p && c.requestTimeout == SystemConfig.defaultRequestTimeout)
        }
        for p in [ServerProfile.tomcatMySQL, .fast, .instant] { #expect(try config(.server, p.name).server == p) }
        #expect(ProfileCatalog.builtins(.device).map(\.name) == ["a5", "modern", "instant"])
        #expect(ProfileCatalog.builtins(.network).map(\.name) == ["lab-80211n", "lte", "ideal"])
        #expect(ProfileCatalog.builtins(.server).map(\.name) == ["tomcat-mysql", "fast", "instant"])
    }

    /// Every field reads back what it applies, and no two fields set the same config value.
    @Test(arguments: ProfileSpec.Kind.allCases) func everyFieldMapsToItsOwnConfigValue(kind: ProfileSpec.Kind) {
        let fields = ProfileCatalog.fields(kind)
        let values = fields.indices.map { fields[$0].unit == .duration ? Double($0 + 1) * 0.125 : Double(1000 + $0) }
        var c = SystemConfig()
        ProfileSpec(kind: kind, base: "probe", values: values).apply(to: &c)
        #expect(fields.map { $0.read(c) } == values)
    }

    /// The thesis testbed numbers as `grouper-sim list` prints them (and docs/profiles.md states).
    @Test func listShowsTheThesisNumbers() {
        let list = GrouperCLI.listing
        #expect(list.contains("a5            iPhone 4s class (Apple A5, 800 MHz): field_op=40ns random_byte=50ns "
                              + "json_byte=200ns store_op=2ms request=5ms aes_byte=35ns kdf_iteration=2us\n"))
        #expect(list.contains("lab-80211n    802.11n lab WLAN: latency=5ms latency_step=100us bandwidth=2500000 "
                              + "timeout=1min push_latency=300ms overhead=400\n"))
        #expect(list.contains("tomcat-mysql  Tomcat + MySQL web service (thesis setup): processing=5ms per_share=1ms\n"))
    }

    /// `SystemConfig`'s default profiles are the catalog's `modern`, `lab-80211n` and `fast` numbers.
    @Test func labProfilesAreCatalogRowsUnderAnotherName() {
        let c = SystemConfig()
        #expect(c.device == DeviceProfile.modern.renamed("lab"))
        #expect(c.network == NetworkProfile.lab80211n.renamed("lab"))
        #expect(c.server == ServerProfile.fast.renamed("lab"))
    }
}
