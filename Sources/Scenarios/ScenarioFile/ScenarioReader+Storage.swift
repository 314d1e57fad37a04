import SimKernel
import GrouperModel
import Format

/// Large objects (`workload.chunking`) and the devices' store at rest (`device_store`).
extension ScenarioReader {
    /// `"chunking": {"chunk_size": bytes, "real_bytes": bytes}` inside `workload`; absent: no
    /// chunking. The chunk size defaults to 1 MiB and is at most the largest object one message
    /// may carry (`WorkloadSpec.maxObjectSize`); `real_bytes` (default 64) is at most the chunk size.
    func readChunking(_ n: Node) -> ChunkingConfig? {
        guard let o = ObjectReader(n, allowed: ["chunk_size", "real_bytes"]) else { return nil }
        let before = sink.count
        let chunk = o.optional("chunk_size").map { c -> Int? in
            guard case .number(let v, _) = c.value, v >= 1, v <= Double(WorkloadSpec.maxObjectSize), v == v.rounded() else {
                c.fail("a chunk size in bytes, an integer in 1...\(WorkloadSpec.maxObjectSize) (at most the 16 MiB one message may carry)")
                return nil
            }
            return Int(v)
        } ?? ChunkingConfig.defaultChunkBytes
        let real = o.optional("real_bytes").map { $0.int(in: 0...WorkloadSpec.maxObjectSize) } ?? ChunkingConfig.defaultRealBytesPerChunk
        if let chunk, let real, real > chunk {
            sink.add(n.key("real_bytes"), "got \(real), expected at most the chunk size (\(chunk)): a chunk carries at most its own bytes")
        }
        guard sink.count == before, let chunk, let real else { return nil }
        return ChunkingConfig(chunkBytes: chunk, realBytesPerChunk: real)
    }

    /// With chunking: sizes up to `maxChunkedObjectSize`, at most `maxChunksPerObject` chunks per
    /// object, and at most `maxEvents` chunk messages expected per run (the caps that keep a run
    /// from hanging).
    func checkChunkedSizes(_ n: Node, size: DistributionSpec, chunking c: ChunkingConfig, expectedUpdates: Double) {
        let largest = size.largestBound
        if largest > Double(WorkloadSpec.maxChunkedObjectSize) {
            sink.add(n.key("object_size"), "got sizes up to \(NumberFormat.shortest(largest)) bytes, expected at most \(WorkloadSpec.maxChunkedObjectSize) (4 GiB, chunked; larger draws of an unbounded distribution are cut to it)")
        } else if largest / Double(c.chunkBytes) > Double(WorkloadSpec.maxChunksPerObject) {
            sink.add(n.key("chunking") + ".chunk_size", "got \(c.chunkBytes) with objects up to \(NumberFormat.shortest(largest)) bytes, expected at most \(WorkloadSpec.maxChunksPerObject) chunks per object: a chunk size ≥ \(Int((largest / Double(WorkloadSpec.maxChunksPerObject)).rounded(.up)))")
        }
        let messages = expectedUpdates * (size.mean / Double(c.chunkBytes)).rounded(.up)
        if messages > Double(WorkloadSpec.maxEvents) {
            sink.add(n.key("chunking"), "expects about \(NumberFormat.shortest(messages.rounded())) chunk messages per run, expected at most \(WorkloadSpec.maxEvents): larger chunks, smaller objects or fewer updates")
        }
    }

    /// `"device_store": {"at_rest": "plain" | "aes256-cbc", "kdf_iterations": n}`; absent: plain.
    func readDeviceStore(_ n: Node?) -> DeviceStoreConfig? {
        guard let n else { return DeviceStoreConfig() }
        guard let o = ObjectReader(n, allowed: ["at_rest", "kdf_iterations"]) else { return nil }
        let before = sink.count
        let mode = o.optional("at_rest").map { $0.choice(AtRestMode.allCases.map(\.rawValue)).flatMap(AtRestMode.init(rawValue:)) } ?? .plain
        let iterations = o.optional("kdf_iterations").map { $0.int(in: 1...10_000_000) } ?? DeviceStoreConfig.defaultKDFIterations
        guard sink.count == before, let mode, let iterations else { return nil }
        return DeviceStoreConfig(atRest: mode, kdfIterations: iterations)
    }
}
