import Foundation
import Testing
import SimKernel
import GrouperModel
@testable import Scenarios

/// Devices are numbered from 1 wherever a person reads them, as scenario files number them:
/// checker findings, shrink descriptions, `--trace` and `--events`.
@Suite struct DeviceNumberingTests {
    /// Device 4 writes o1 at 7 h while device 5 is away (6 h to 24 h); the TTL (6 h) deletes the
    /// only share before device 5 is back, and no-recovery never resends it. Devices 2 and 3
    /// and device 2's short window are noise that shrinking removes.
    static let lost = """
    {
      "format": 1, "name": "numbering", "duration": "2d", "settle": "12h",
      "group": {"devices": 5, "k": 1, "n": 1, "s": 1, "ttl": "6h"},
      "protocol": {"variant": "no-recovery"},
      "workload": {"writes": [{"device": 4, "at": "7h", "object": 1, "size": 100},
                              {"device": 2, "at": "1h", "object": 2, "size": 100}]},
      "churn": {"windows": [{"device": 5, "start": "6h", "end": "24h"}, {"device": 2, "start": "2h", "end": "3h"}]},
      "require": ["convergence"]
    }
    """

    @Test(.tags(.slow)) func aShrunkFindingNamesTheDevicesAsTheFilesDo() throws {
        let dir = ScenarioFixtures.tempDir("numbering-shrink")
        let file = try ShrinkTests.write(Self.lost, dir, "numbering.json")
        let out = dir.appendingPathComponent("small.json").path
        let r = runCLI(["shrink", file, "--point", "0", "--replication", "0", "--out", out, "--jobs", "1"])
        #expect(r.code == 0, "\(r.err)")
        // The original's finding, as the original file numbers its devices.
        #expect(r.err.contains("fails convergence: D5 lacks update of o1 by D4 "), "\(r.err)")
        let small = try ScenarioLoader.load(ScenarioSource.read(path: out)).base
        #expect(small.description.contains("(D5 lacks update of o1 by D4 "), "\(small.description)")
        // The shrunk file renumbers its devices; its own run's finding follows the shrunk file.
        let writer = try #require(small.workload.writes.first).device
        let away = try #require(small.churn.windows.first).device
        #expect(small.group.devices == 3 && writer != away && writer > 1 && away > 1)
        let again = runCLI(["run", out, "--out", dir.appendingPathComponent("res").path, "--progress", "never"])
        #expect(again.code == 4)
        #expect(again.err.contains("D\(away) lacks update of o1 by D\(writer) "), "\(again.err)")
    }

    @Test func tracesAndEventsNumberDevicesFromOne() throws {
        let dir = ScenarioFixtures.tempDir("numbering-trace")
        let trace = dir.appendingPathComponent("t.txt").path, events = dir.appendingPathComponent("e.jsonl").path
        let r = runCLI(["run", "smoke", "--point", "0", "--replication", "0", "--trace", trace, "--events", events])
        #expect(r.code == 0, "\(r.err)")
        // smoke has 3 devices: D1 (the owner) creates the group and invites D2 and D3.
        let log = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(log.first?.hasSuffix(" D1 create group") == true, "\(log.prefix(3))")
        #expect(log.contains { $0.hasSuffix(" D1 invite D3: 3 keys, 0 messages") }, "\(log.prefix(6))")
        let devices = Set(log.compactMap { $0.split(separator: " ").dropFirst().first.map(String.init) })
        #expect(devices == ["D1", "D2", "D3"])
        let names = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").dropFirst().flatMap { line in
            let e = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let fields = e["fields"] as? [String: String] ?? [:]
            return [e["component"] as? String, fields["from"], fields["invitee"], fields["requester"]].compactMap { $0 }
        }
        #expect(Set(names.filter { $0.hasPrefix("device-") }) == ["device-1", "device-2", "device-3"])
    }
}
