import Foundation
import SimKernel

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

    public init(shard: Int, of: Int, source: ScenarioSource, seed: UInt64?, replications: Int?, records: [RunRecord],
                engine: Engine = .grouper) {
        self.shard = shard; self.of = of; self.source = source; self.seed = seed
        self.replications = replications; self.records = records; self.engine = engine
    }

    public func render() -> String {
        func opt(_ v: UInt64?) -> JSONValue { v.map(ResultSet.integer) ?? .null }
        func exact(_ v: Double) -> JSONValue { v.isFinite ? .number(v, text: "\(v)") : .null }
        let runs: [JSONValue] = records.map { r in
            var fields: [(String, JSONValue)] = [("run", .number(Double(r.index))), ("point", .number(Double(r.point))),
                     ("replication", .number(Double(r.replication))), ("seed", ResultSet.integer(r.seed)),
                     ("metrics", .array(r.metrics.map(exact))),
                     ("checkers", .array(r.checkers.map { c in
                        .object([("name", .string(c.name)), ("kind", .string(c.kind.rawValue)),
                                 ("passed", .bool(c.passed)), ("detail", .string(c.detail))]) })),
                     ("fingerprint", .string(StableHash.hex(r.fingerprint)))]
            if !r.series.isEmpty { fields.append(("series", .array(r.series.map { .array($0.map(exact)) }))) }
            return .object(fields)
        }
        return JSONWriter.pretty(.object([
            ("format", .string("grouper-sim-shard-1")), ("version", .string(Tool.version)),
            ("shard", .number(Double(shard))), ("of", .number(Double(of))), ("engine", .string(engine.rawValue)),
            ("scenario_file", .string(source.label)),
            ("scenario_base64", .string(Data(source.bytes).base64EncodedString())),
            ("seed_override", opt(seed)), ("replications_override", replications.map { .number(Double($0)) } ?? .null),
            ("runs", .array(runs)),
        ]))
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
        let records = try runs.map { r -> RunRecord in
            guard let i = int(r["run"]), let p = int(r["point"]), let rep = int(r["replication"]),
                  case .number(_, let seedText)? = r["seed"], let s = UInt64(seedText),
                  case .array(let ms)? = r["metrics"], case .array(let cs)? = r["checkers"],
                  case .string(let fp)? = r["fingerprint"], let fpv = UInt64(fp, radix: 16) else { throw bad("malformed run") }
            func value(_ v: JSONValue) -> Double { if case .number(_, let t) = v { return Double(t) ?? .nan } else { return .nan } }
            let metrics = ms.map(value)
            var series: [[Double]] = []
            if let rows = r["series"] {
                guard case .array(let rs) = rows else { throw bad("malformed series") }
                series = try rs.map { row in
                    guard case .array(let vs) = row else { throw bad("malformed series row") }
                    return vs.map(value)
                }
            }
            let checkers = try cs.map { c -> CheckerVerdict in
                guard case .string(let n)? = c["name"], case .string(let k)? = c["kind"], let kind = CheckerVerdict.Kind(rawValue: k),
                      case .bool(let ok)? = c["passed"], case .string(let d)? = c["detail"] else { throw bad("malformed checker") }
                return CheckerVerdict(name: n, kind: kind, passed: ok, detail: d)
            }
            return RunRecord(index: i, point: p, replication: rep, seed: s, metrics: metrics, checkers: checkers, fingerprint: fpv,
                             series: series)
        }
        return ShardFile(shard: shard, of: of, source: ScenarioSource(label: label, bytes: Array(data)),
                         seed: seed, replications: reps, records: records, engine: engine)
    }

    private static func int(_ v: JSONValue?) -> Int? {
        if case .number(let d, _)? = v, d == d.rounded(), abs(d) < 1e15 { return Int(d) }
        return nil
    }
}
