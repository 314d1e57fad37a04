import Testing
import SimKernel
@testable import GrouperModel

/// `GroupDirectory.device(ofNode:)` (node ids numbered in device order, `StringNumbering`)
/// against the `deviceByNode` dictionary it replaces: every node id of runs of several sizes,
/// and ids that are no node's (fresh message ids, a node id with one byte changed, prefixes,
/// the empty string, non-ASCII strings).
@Suite struct NodeLookupTests {
    @Test(arguments: [1, 2, 10, 100, 300])
    func answersWhatTheDictionaryAnswers(devices: Int) throws {
        let config = try SystemConfig(devices: devices, servers: 3, k: 2, s: 2, ttl: .hours(1))
        let directory = GroupDirectory(config: config, scheme: config.scheme.makeScheme(),
                                       streams: RandomStreams(rootSeed: UInt64(devices)))
        var asked = directory.nodeIDs
        var rng = Xoshiro256StarStar(seed: 7)
        for id in directory.nodeIDs {
            var bytes = Array(id.utf8)
            bytes[Int(rng.next() % UInt64(bytes.count))] ^= 1
            asked += [String(decoding: bytes, as: UTF8.self), String(id.dropLast()), id + "0", id.lowercased()]
        }
        asked += (0..<200).map { _ in MessageIDGenerator.make(using: &rng) } + ["", "é", "e\u{301}", "*", directory.groupID]
        var found = 0
        for node in Set(asked) {
            #expect(directory.device(ofNode: node) == directory.deviceByNode[node], "\(node)")
            if directory.deviceByNode[node] != nil { found += 1 }
        }
        #expect(found == devices)
    }
}
