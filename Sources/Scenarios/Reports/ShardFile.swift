import Foundation
import SimKernel
import Format
import Catalogs
import ScenarioFile
import Plan
import Execution
import GrouperBinding

/// The contents of one shard's output folder (`shard.json`): the scenario bytes,
/// the overrides and the exact records of the runs in the slice. Metric values are
/// written in shortest round-trip form, so a merge rebuilds bit-identical doubles.
public struct ShardFile: Sendable {
    public static let fileName = OutputSafety.shardFileName
    public var shard: Int
    public var of: Int
    public var source: ScenarioSource
    public var seed: UInt64?
    public var replications: Int?
    public var records: [RunRecord]
    /// The engine that ran the slice; `merge` refuses to mix engines.
    public var engine: Engine
    /// `--precision X`, if given.
    public var precision: Double?
    /// `--precision-metrics M,…`, if given.
    public var precisionMetrics: [MetricName]? = nil
    /// `--precision-stop S`, if given (a shard's points always stop per point).
    public var precisionStop: PrecisionSpec.Stop? = nil
    /// The model identities of the builds that ran the slice (`merge` refuses to mix them).
    public var models: [String]

    public init(shard: Int, of: Int, source: ScenarioSource, seed: UInt64?, replications: Int?, records: [RunRecord],
                engine: Engine = .grouper, precision: Double? = nil, models: [String]? = nil) {
        self.models = models ?? [ModelIdentity.current]
        self.shard = shard; self.of = of; self.source = source; self.seed = seed
        self.replications = replications; self.records = records; self.engine = engine; self.precision = precision
    }

    public func render() -> String {
        func opt(_ v: UInt64?) -> JSONValue { v.map(ResultSet.integer) ?? .null }
        let runs = records.map(RecordJSON.encode)
        return JSONWriter.pretty(.object([
            ("format", .string("grouper-sim-shard-1")), ("version", .string(Tool.version)),
            ("shard", .number(Double(shard))), ("of", .number(Double(of))), ("engine", .string(engine.rawValue)),
            ("scenario_file", .string(source.label)),
            ("scenario_base64", .string(Data(source.bytes).base64EncodedString())),
            ("seed_override", opt(seed)), ("replications_override", replications.map { .number(Double($0)) } ?? .null),
            ("runs", .array(runs)),
        ] + ModelIdentity.json(models) + (precision.map { [("precision_override", JSONValue.number($0, text: "\($0)"))] } ?? [])
          + (precisionMetrics.map { [("precision_metrics_override", JSONValue.array($0.map { .string($0.rawValue) }))] } ?? [])
          + (precisionStop.map { [("precision_stop_override", JSONValue.string($0.rawValue))] } ?? [])))
    }

    public struct ParseError: Error, CustomStringConvertible { public var description: String }

    /// Reads a `shard.json`; `where_` names it in errors.
    public static func parse(_ text: String, where where_: String) throws -> ShardFile {
        func bad(_ why: String) -> ParseError { ParseError(description: "\(where_): not a grouper-sim shard file (\(why))") }
        guard let root = try? JSONParser.parse(text) else { throw bad("invalid JSON") }
        guard root["format"] == .string("grouper-sim-shard-1") else { throw bad("unknown format") }
        guard root["version"] == .string(Tool.version) else {
            throw ParseError(description: "\(where_): written by grouper-sim \(root["version"]?.brief ?? "?"), this is \(Tool.version); rerun the shard")
        }
        guard let shard = int(root["shard"]), let of = int(root["of"]),
              case .string(let label)? = root["scenario_file"], case .string(let b64)? = root["scenario_base64"],
              let data = Data(base64Encoded: b64), case .array(let runs)? = root["runs"] else { throw bad("missing fields") }
        let seed: UInt64? = root["seed_override"].flatMap { if case .number(_, let t) = $0 { return UInt64(t) } else { return nil } }
        let reps = int(root["replications_override"] ?? .null)
        guard case .string(let engineName)? = root["engine"], let engine = Engine(rawValue: engineName) else { throw bad("missing or unknown engine") }
        let records = try runs.map { try RecordJSON.decode($0, bad: bad) }
        var precision: Double? = nil
        if case .number(_, let t)? = root["precision_override"] { precision = Double(t) }
        var file = ShardFile(shard: shard, of: of, source: ScenarioSource(label: label, bytes: Array(data)),
                             seed: seed, replications: reps, records: records, engine: engine, precision: precision,
                             models: ModelIdentity.read(root))
        if let v = root["precision_metrics_override"] {
            guard let names = PrecisionSpec.names(v) else { throw bad("precision_metrics_override is not a list of metric names") }
            file.precisionMetrics = names
        }
        if let v = root["precision_stop_override"] {
            guard let stop = PrecisionSpec.Stop(json: v) else { throw bad("precision_stop_override is not \"together\" or \"per-point\"") }
            file.precisionStop = stop
        }
        return file
    }

    private static func int(_ v: JSONValue?) -> Int? { RecordJSON.int(v) }
}
