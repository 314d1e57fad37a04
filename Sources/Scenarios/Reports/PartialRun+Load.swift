import Foundation
import SimKernel
import Catalogs
import Format
import ScenarioFile
import Plan
import Execution
import GrouperBinding

extension PartialRun.Header {
    var json: JSONValue {
        .object([
            ("format", .string(PartialRun.format)), ("tool", .string("grouper-sim")), ("version", .string(Tool.version)),
            ("note", .string("an unfinished run: `grouper-sim run --resume DIR` continues it (DIR: this folder without .partial)")),
            ("engine", .string(engine.rawValue)),
            ("scenario", .object([("file", .string(scenarioFile)), ("bytes", ScenarioSpec.int(scenarioBytes)),
                                  ("fnv1a64", .string(StableHash.hex(scenarioHash)))])),
            ("seed", ResultSet.integer(seed)),
            ("replications", replications.map(ScenarioSpec.int) ?? .null),
            ("precision_relative_ci95", precision.map { .number($0, text: "\($0)") } ?? .null),
        ] + (precisionMetrics.map { [("precision_metrics", .array($0.map { .string($0.rawValue) }))] } ?? [])
          + (precisionStop.map { [("precision_stop", .string($0.rawValue))] } ?? [])
          + ModelIdentity.json(models) + (shard.map { [("shard", $0.json)] } ?? []))
    }

    /// Reads a header; nil when `root` is not one.
    init?(json root: JSONValue) {
        guard root["format"] == .string(PartialRun.format), root["tool"] == .string("grouper-sim"),
              case .string(let e)? = root["engine"], let engine = Engine(rawValue: e),
              let scenario = root["scenario"], case .string(let file)? = scenario["file"],
              let bytes = RecordJSON.int(scenario["bytes"]),
              case .string(let hash)? = scenario["fnv1a64"], let h = UInt64(hash, radix: 16),
              case .number(_, let seedText)? = root["seed"], let seed = UInt64(seedText) else { return nil }
        var precision: Double? = nil
        if case .number(_, let t)? = root["precision_relative_ci95"] { precision = Double(t) }
        let reps = RecordJSON.int(root["replications"])
        guard (reps == nil) != (precision == nil) else { return nil }
        self.init(engine: engine, scenarioFile: file, scenarioBytes: bytes, scenarioHash: h, seed: seed,
                  replications: reps, precision: precision)
        if let v = root["shard"] {
            guard let slice = PartialRun.Shard(json: v) else { return nil }
            shard = slice
        }
        if let v = root["precision_metrics"] {
            guard let names = PrecisionSpec.names(v) else { return nil }
            precisionMetrics = names
        }
        if let v = root["precision_stop"] {
            guard let stop = PrecisionSpec.Stop(json: v) else { return nil }
            precisionStop = stop
        }
        models = ModelIdentity.read(root)
    }
}

extension PartialRun.Shard {
    var json: JSONValue {
        var fields: [(String, JSONValue)] = [
            ("index", ScenarioSpec.int(index)), ("of", ScenarioSpec.int(count)),
            ("seed_override", seedOverride.map(ResultSet.integer) ?? .null),
            ("replications_override", replicationsOverride.map(ScenarioSpec.int) ?? .null),
            ("precision_override", precisionOverride.map { .number($0, text: "\($0)") } ?? .null),
        ]
        if let names = precisionMetricsOverride {
            fields.append(("precision_metrics_override", .array(names.map { JSONValue.string($0.rawValue) })))
        }
        if let stop = precisionStopOverride { fields.append(("precision_stop_override", .string(stop.rawValue))) }
        return .object(fields)
    }

    init?(json v: JSONValue) {
        guard let index = RecordJSON.int(v["index"]), let count = RecordJSON.int(v["of"]), 1 <= index, index <= count else { return nil }
        var seed: UInt64? = nil, precision: Double? = nil
        switch v["seed_override"] {
        case .number(_, let t)?: guard let s = UInt64(t) else { return nil }; seed = s
        case .null?: break
        default: return nil
        }
        switch v["precision_override"] {
        case .number(_, let t)?: guard let p = Double(t) else { return nil }; precision = p
        case .null?: break
        default: return nil
        }
        let reps: Int?
        switch v["replications_override"] {
        case .null?: reps = nil
        case let r?: guard let n = RecordJSON.int(r) else { return nil }; reps = n
        case nil: return nil
        }
        self.init(index: index, count: count, seedOverride: seed, replicationsOverride: reps, precisionOverride: precision)
        if let m = v["precision_metrics_override"] {
            guard let names = PrecisionSpec.names(m) else { return nil }
            precisionMetricsOverride = names
        }
        if let s = v["precision_stop_override"] {
            guard let stop = PrecisionSpec.Stop(json: s) else { return nil }
            precisionStopOverride = stop
        }
    }
}

extension PartialRun {
    /// The folder's header and every whole record in it. Nil when `url` is not a partial run
    /// (absent, or holding anything this tool does not write there).
    public static func open(at url: URL) throws -> (run: PartialRun, header: Header, records: [RunRecord])? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path).sorted(),
              names.contains(headerName), names.allSatisfy(isOurs),
              let data = FileManager.default.contents(atPath: url.appendingPathComponent(headerName).path),
              let root = try? JSONParser.parse(String(decoding: data, as: UTF8.self)) else { return nil }
        guard root["version"] == .string(Tool.version) else {
            throw Failure(description: "\(url.path) was written by grouper-sim \(root["version"]?.brief ?? "?"), this is \(Tool.version); its runs cannot be reused (remove it and start again)")
        }
        guard let header = Header(json: root) else { return nil }
        var records: [RunRecord] = []
        for name in names where name.hasPrefix("run-p") {
            let path = url.appendingPathComponent(name).path
            let bad = { (why: String) in Failure(description: "\(path): \(why)") }
            guard let d = FileManager.default.contents(atPath: path), let v = try? JSONParser.parse(String(decoding: d, as: UTF8.self)) else {
                throw bad("not a readable run record")
            }
            guard case .string(let sum)? = v["fnv1a64"], let kept = v["record"] else {
                throw bad("not a run record with a checksum (written by another build?); remove it to run that run again; nothing was written")
            }
            let r = try RecordJSON.decode(kept, bad: bad)
            guard checksum(r) == sum else {
                throw bad("the record does not match its checksum (FNV-1a 64 \(sum)): it was changed after grouper-sim wrote it. "
                    + "Remove the file to run that run again; nothing was written")
            }
            guard recordName(RunKey(point: r.point, replication: r.replication)) == name else { throw bad("its name does not match its run") }
            records.append(r)
        }
        return (PartialRun(url: url), header, records.sorted { RunKey(point: $0.point, replication: $0.replication) < RunKey(point: $1.point, replication: $1.replication) })
    }

    /// Whether something (ours or not) is at `url`.
    public static func exists(_ url: URL) -> Bool { OutputSafety.kind(of: url) != nil || OutputSafety.isSymlink(url) }
}
