import Foundation
import SimKernel
import Format
import Plan
import GrouperBinding

/// A finished result folder read back for `run --add-replications` and `run --resume`: what
/// its manifest says was run, and the exact records of `records.jsonl`.
public struct FinishedResult: Sendable {
    public var engine: Engine
    public var scenarioFile: String
    public var scenarioHash: UInt64
    public var seed: UInt64
    /// Replications per point; nil when the result was run with a precision target.
    public var replications: Int?
    public var records: [RunRecord]
    /// The model identities its manifest records (empty: none recorded).
    public var models: [String] = []

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    /// The result in `url`, or nil when the folder holds no grouper-sim manifest.
    public static func read(_ url: URL, label: String) throws -> FinishedResult? {
        let manifest = url.appendingPathComponent("manifest.json")
        guard let data = FileManager.default.contents(atPath: manifest.path),
              let root = try? JSONParser.parse(String(decoding: data, as: UTF8.self)),
              root["tool"] == .string("grouper-sim") else { return nil }
        let bad = { (why: String) in Failure(description: "\(label): \(why)") }
        guard root["version"] == .string(Tool.version) else {
            throw bad("written by grouper-sim \(root["version"]?.brief ?? "?"), this is \(Tool.version); its runs cannot be reused")
        }
        guard case .string(let e)? = root["engine"], let engine = Engine(rawValue: e),
              let scenario = root["scenario"], case .string(let file)? = scenario["file"],
              case .string(let hash)? = scenario["fnv1a64"], let h = UInt64(hash, radix: 16),
              case .number(_, let seedText)? = root["seed"], let seed = UInt64(seedText) else { throw bad("manifest.json lacks fields this tool writes") }
        let reps = root["precision"] == nil ? RecordJSON.int(root["replications"]) : nil
        let path = url.appendingPathComponent(ResultSet.recordsFileName).path
        guard let text = FileManager.default.contents(atPath: path) else {
            throw bad("has no \(ResultSet.recordsFileName) (the exact records of its runs), so it cannot be extended; run it again")
        }
        guard case .string(let listed)? = root["files"]?[ResultSet.recordsFileName],
              StableHash.hex(StableHash.fnv1a64(bytes: text)) == listed else {
            throw Failure(description: "\(label)/\(ResultSet.recordsFileName) does not match the FNV-1a 64 that \(label)/manifest.json holds for it "
                + "(it was changed after grouper-sim wrote it), so its runs cannot be reused; run the result again; nothing was written")
        }
        let records = try RecordJSON.parseLines(String(decoding: text, as: UTF8.self), where: label + "/" + ResultSet.recordsFileName)
        return FinishedResult(engine: engine, scenarioFile: file, scenarioHash: h, seed: seed, replications: reps, records: records,
                              models: ModelIdentity.read(root))
    }
}
