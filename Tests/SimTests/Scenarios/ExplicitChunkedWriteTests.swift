import Testing
@testable import Scenarios
@testable import Format
@testable import Catalogs
@testable import ScenarioFile
@testable import Execution
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore
@testable import GrouperBinding
import GrouperModel
import SimKernel

/// Explicit writes take the same size bounds as `object_size` draws: 16 MiB without chunking,
/// up to 4 GiB (and 65,536 chunks) with it, and a chunked explicit write is delivered whole.
@Suite struct ExplicitChunkedWriteTests {
    static func text(size: Int, chunking: Bool) -> String {
        """
        {"format": 1, "name": "big-write", "seed": 5, "duration": "2h",
         "group": {"devices": 3, "k": 2, "n": 3, "s": 3, "ttl": "1d"},
         "workload": {\(chunking ? "\"chunking\": {\"chunk_size\": 1048576}," : "")
                      "writes": [{"device": 1, "at": "1min", "object": 0, "size": \(size)}]}}
        """
    }

    @Test func aChunkedExplicitWriteAbove16MiBIsDeliveredWhole() throws {
        let size = 40 << 20
        let spec = try ScenarioLoader.load(ScenarioSource(label: "big.json", text: Self.text(size: size, chunking: true))).base
        #expect(spec.workload.writes.map(\.size) == [size])
        let system = try GrouperSystem(config: GrouperExecutor.config(spec, seed: 5))
        GrouperDrivers.schedule(spec, on: system, streams: RandomStreams(rootSeed: 5), latency: LatencyRecorder())
        system.run(until: SimTime.zero + .hours(2))
        #expect(system.counters.total(.messagesUploaded, type: .update) == 40, "one message per 1 MiB chunk")
        #expect(system.deliveryRatio == 1)
        for d in 1..<3 {
            let contents = system.objects(device: d).compactMap(\.content)
            #expect(contents.count == 1 && contents.first.flatMap(ChunkRecord.objectSize) == size, "device \(d + 1)")
        }
    }

    @Test func theSameWriteWithoutChunkingIsRefusedWithItsPath() {
        #expect(throws: (any Error).self) {
            try ScenarioLoader.load(ScenarioSource(label: "big.json", text: Self.text(size: 40 << 20, chunking: false)))
        }
        do {
            _ = try ScenarioLoader.load(ScenarioSource(label: "big.json", text: Self.text(size: 40 << 20, chunking: false)))
        } catch {
            #expect("\(error)".contains("workload.writes[0].size") && "\(error)".contains("workload.chunking"))
        }
    }
}
