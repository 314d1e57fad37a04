import Foundation
import SimKernel
import Format
import Plan

/// A run record as JSON, exactly: metric and series values in shortest round-trip form, so
/// reading it back gives bit-identical doubles (shard.json, records.jsonl, kept records).
public enum RecordJSON {
    public struct ParseError: Error, CustomStringConvertible { public var description: String }

    public static func encode(_ r: RunRecord) -> JSONValue {
        func exact(_ v: Double) -> JSONValue { v.isFinite ? .number(v, text: "\(v)") : .null }
        var fields: [(String, JSONValue)] = [("run", .number(Double(r.index))), ("point", .number(Double(r.point))),
                 ("replication", .number(Double(r.replication))), ("seed", ResultSet.integer(r.seed)),
                 ("metrics", .array(r.metrics.map(exact))),
                 ("checkers", .array(r.checkers.map { c in
                    .object([("name", .string(c.name)), ("kind", .string(c.kind.rawValue)),
                             ("passed", .bool(c.passed)), ("required", .bool(c.required)),
                             ("detail", .string(c.detail))]) })),
                 ("fingerprint", .string(r.fingerprint.hex))]
        if !r.series.isEmpty { fields.append(("series", .array(r.series.map { .array($0.map(exact)) }))) }
        return .object(fields)
    }

    /// Reads one record; `bad` builds the error for a malformed one.
    public static func decode(_ r: JSONValue, bad: (String) -> Error) throws -> RunRecord {
        guard let i = int(r["run"]), let p = int(r["point"]), let rep = int(r["replication"]),
              case .number(_, let seedText)? = r["seed"], let s = UInt64(seedText),
              case .array(let ms)? = r["metrics"], case .array(let cs)? = r["checkers"],
              case .string(let fp)? = r["fingerprint"], let fpv = RunFingerprint(hex: fp) else { throw bad("malformed run") }
        func value(_ v: JSONValue) -> Double { if case .number(_, let t) = v { return Double(t) ?? .nan } else { return .nan } }
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
            guard case .bool(let required)? = c["required"] else {
                throw bad("checker \(n): missing \"required\" (expected true or false; written by an older grouper-sim?)")
            }
            return CheckerVerdict(name: n, kind: kind, passed: ok, required: required, detail: d)
        }
        return RunRecord(index: i, point: p, replication: rep, seed: s, metrics: ms.map(value), checkers: checkers,
                         fingerprint: fpv, series: series)
    }

    /// `records.jsonl`: one record per line, in run order.
    public static func lines(_ records: [RunRecord]) -> String {
        records.map { JSONWriter.compact(encode($0)) + "\n" }.joined()
    }

    /// Reads `records.jsonl` text; `where_` names it in errors.
    public static func parseLines(_ text: String, where where_: String) throws -> [RunRecord] {
        try text.split(separator: "\n").enumerated().map { n, line in
            let bad = { (why: String) in ParseError(description: "\(where_): line \(n + 1): \(why)") }
            guard let v = try? JSONParser.parse(String(line)) else { throw bad("invalid JSON") }
            return try decode(v, bad: bad)
        }
    }

    static func int(_ v: JSONValue?) -> Int? {
        if case .number(let d, _)? = v, d == d.rounded(), abs(d) < 1e15 { return Int(d) }
        return nil
    }
}
