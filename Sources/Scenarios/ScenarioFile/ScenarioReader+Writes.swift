import SimKernel
import GrouperModel

/// One write at a given time: `{"device": 1, "at": "2h", "object": 3, "size": 323}` (an update)
/// or `{"device": 1, "at": "2h", "object": 3, "kind": "delete"}`.
public struct ExplicitWrite: Equatable, Sendable {
    public enum Kind: String, CaseIterable, Sendable { case update, delete }
    /// 1-based device number.
    public var device: Int
    public var at: SimDuration
    public var kind: Kind
    /// Object index: the write goes to object id `o<object>`.
    public var object: Int
    /// Record size in bytes (updates only; 0 for deletes).
    public var size: Int

    public init(device: Int, at: SimDuration, kind: Kind, object: Int, size: Int) {
        self.device = device; self.at = at; self.kind = kind; self.object = object; self.size = size
    }
}

extension ScenarioReader {
    /// `"writes": [{…}, …]` of the workload: device in the group, time before the end of the run,
    /// object below `objects`, size in 1…16 MiB, or with `chunking` up to 4 GiB and at most
    /// `WorkloadSpec.maxChunksPerObject` chunks (default: `object_size` when it is a constant).
    func readWrites(_ n: Node, devices: Int?, objects: Int?, size: DistributionSpec?, duration: SimDuration?,
                    chunking: ChunkingConfig?) -> [ExplicitWrite]? {
        guard case .array(let items) = n.value else {
            n.fail("a list of {\"device\", \"at\", \"object\", \"size\"} or {…, \"kind\": \"delete\"} writes"); return nil
        }
        let before = sink.count
        var out: [ExplicitWrite] = []
        for (i, item) in items.enumerated() {
            if let w = readWrite(Node(value: item, path: n.index(i), sink: sink), devices: devices, objects: objects,
                                 size: size, duration: duration, chunking: chunking) { out.append(w) }
        }
        return sink.count == before ? out : nil
    }

    private func readWrite(_ e: Node, devices: Int?, objects: Int?, size: DistributionSpec?, duration: SimDuration?,
                           chunking: ChunkingConfig?) -> ExplicitWrite? {
        guard let o = ObjectReader(e, allowed: ["device", "at", "kind", "object", "size"]) else { return nil }
        let device = o.required("device", "a device number in 1...\(devices.map(String.init) ?? "N")")
            .flatMap { $0.int(in: 1...(devices ?? 1000)) }
        let at = o.required("at", Node.durationHelp).flatMap { $0.duration(positive: false) }
        let kind = o.optional("kind").map { $0.choice(ExplicitWrite.Kind.allCases.map(\.rawValue)).flatMap(ExplicitWrite.Kind.init) }
            ?? .update
        let object = o.required("object", "an object number in 0...\((objects ?? 100) - 1) (the write goes to o<number>)")
            .flatMap { $0.int(in: 0...((objects ?? 100) - 1)) }
        if let at, let d = duration, at >= d {
            sink.add(e.key("at"), "got \"\(at)\", expected a time before the end of the run (\(d))")
        }
        var bytes = 0
        if kind == .delete {
            if o.has("size") { sink.add(e.key("size"), "a delete writes no record; drop 'size'") }
        } else if let s = o.optional("size") {
            bytes = readWriteSize(s, chunking: chunking) ?? 0
        } else if case .constant(let v)? = size {
            bytes = max(1, Int(v.rounded()))
        } else {
            sink.add(e.path, "an update needs 'size' (bytes) when workload.object_size is not a constant")
        }
        guard let device, let at, let kind, let object, kind == .delete || bytes > 0 else { return nil }
        return ExplicitWrite(device: device, at: at, kind: kind, object: object, size: bytes)
    }

    /// An explicit write's size: 1…16 MiB without chunking; with it, up to 4 GiB in at most
    /// `maxChunksPerObject` chunks (the same bounds as `object_size` draws).
    private func readWriteSize(_ s: Node, chunking: ChunkingConfig?) -> Int? {
        guard let c = chunking else {
            guard case .number(let v, _) = s.value, v > Double(WorkloadSpec.maxObjectSize), v == v.rounded() else {
                return s.int(in: 1...WorkloadSpec.maxObjectSize)
            }
            s.fail("a size in bytes, an integer in 1...\(WorkloadSpec.maxObjectSize) (16 MiB; larger objects need workload.chunking)")
            return nil
        }
        let cap = min(WorkloadSpec.maxChunkedObjectSize, c.chunkBytes * WorkloadSpec.maxChunksPerObject)
        guard case .number(let v, _) = s.value, v > Double(cap), v == v.rounded() else { return s.int(in: 1...cap) }
        s.fail("a size in bytes, an integer in 1...\(cap) (chunked: at most 4 GiB and \(WorkloadSpec.maxChunksPerObject) chunks of \(c.chunkBytes) bytes)")
        return nil
    }
}
