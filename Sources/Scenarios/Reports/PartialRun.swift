import Foundation
import SimKernel
import Catalogs
import Format
import ScenarioFile
import Plan
import Execution
import GrouperBinding

/// The folder where a `run` keeps each finished run's record while it is under way:
/// `<DIR>.partial/` next to the output folder DIR, holding `incomplete.json` (what is being
/// run) and one `run-p<P>-r<R>.json` per finished run, each written to a hidden temporary
/// name and renamed, so a record on disk is always whole, and holding the FNV-1a 64 of the
/// record's exact JSON, so a record changed on disk is refused rather than reused. DIR itself is written only when
/// every run has finished, so a partial result never looks complete; `run --resume DIR`
/// continues from the kept records and the folder is removed once DIR is written.
public struct PartialRun: Sendable {
    public static let headerName = "incomplete.json"
    public static let format = "grouper-sim-partial-1"
    public let url: URL

    /// What runs: enough to rebuild the run plan from the scenario file and to refuse another one.
    public struct Header: Equatable, Sendable {
        public var engine: Engine
        public var scenarioFile: String
        public var scenarioBytes: Int
        public var scenarioHash: UInt64
        public var seed: UInt64
        /// Fixed replications per point, or nil with a precision target.
        public var replications: Int?
        /// The precision target's relative half-width (nil with fixed replications).
        public var precision: Double?
        /// The metrics the precision target is checked on (nil with fixed replications).
        public var precisionMetrics: [MetricName]? = nil
        /// Whether the precision target's points stop together (nil with fixed replications).
        public var precisionStop: PrecisionSpec.Stop? = nil
        /// A `--shard i/N` run: which slice, and the overrides its `shard.json` records.
        public var shard: Shard? = nil
        /// The model identities of the builds that ran the kept records (and will run the rest).
        public var models: [String] = []

        /// The header of `scenario` (overrides applied) run by `engine`.
        public init(_ scenario: LoadedScenario, engine: Engine) {
            self.engine = engine
            scenarioFile = scenario.source.fileName
            scenarioBytes = scenario.source.bytes.count
            scenarioHash = StableHash.fnv1a64(bytes: scenario.source.bytes)
            seed = scenario.base.seed
            replications = scenario.base.precision == nil ? scenario.base.replications : nil
            precision = scenario.base.precision?.relativeCI95
            precisionMetrics = scenario.base.precision?.metrics
            precisionStop = scenario.base.precision?.stop
            models = [ModelIdentity.current]
        }

        init(engine: Engine, scenarioFile: String, scenarioBytes: Int, scenarioHash: UInt64, seed: UInt64,
             replications: Int?, precision: Double?) {
            self.engine = engine; self.scenarioFile = scenarioFile; self.scenarioBytes = scenarioBytes
            self.scenarioHash = scenarioHash; self.seed = seed; self.replications = replications; self.precision = precision
        }

        /// `scenario` loaded from its file, with the overrides this run used.
        public func applied(to scenario: LoadedScenario) -> LoadedScenario {
            scenario.overriding(seed: seed, replications: replications, precision: precision, precisionMetrics: precisionMetrics,
                                precisionStop: precisionStop)
        }
    }

    /// The slice of a `--shard i/N` run and the command-line overrides it was given (a
    /// resumed shard writes the same `shard.json` as an uninterrupted one, and `merge`
    /// compares the overrides).
    public struct Shard: Equatable, Sendable {
        public var index: Int
        public var count: Int
        public var seedOverride: UInt64?
        public var replicationsOverride: Int?
        public var precisionOverride: Double?
        /// `--precision-metrics M,…`, if given.
        public var precisionMetricsOverride: [MetricName]?
        /// `--precision-stop S`, if given.
        public var precisionStopOverride: PrecisionSpec.Stop?

        public init(index: Int, count: Int, seedOverride: UInt64?, replicationsOverride: Int?, precisionOverride: Double?,
                    precisionMetricsOverride: [MetricName]? = nil, precisionStopOverride: PrecisionSpec.Stop? = nil) {
            self.index = index; self.count = count; self.seedOverride = seedOverride
            self.replicationsOverride = replicationsOverride; self.precisionOverride = precisionOverride
            self.precisionMetricsOverride = precisionMetricsOverride; self.precisionStopOverride = precisionStopOverride
        }
    }

    /// `<destination>.partial`, next to the destination folder.
    public static func folder(for destination: URL) -> URL {
        destination.deletingLastPathComponent().appendingPathComponent(destination.lastPathComponent + ".partial")
    }

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    /// Creates the folder (it must not exist) with its header.
    public static func create(at url: URL, header: Header) throws -> PartialRun {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard mkdir(url.path, 0o755) == 0 else {
            throw IOFailure("cannot create \(url.path): \(String(cString: strerror(errno)))")
        }
        let run = PartialRun(url: url)
        try run.writeAtomically(headerName, JSONWriter.pretty(header.json))
        return run
    }

    /// Writes `record` as `run-p<P>-r<R>.json` (whole or not at all): `{"fnv1a64": checksum,
    /// "record": …}`. Safe from several threads.
    public func keep(_ record: RunRecord) throws {
        try writeAtomically(Self.recordName(RunKey(point: record.point, replication: record.replication)),
                            JSONWriter.compact(.object([("fnv1a64", .string(Self.checksum(record))), ("record", RecordJSON.encode(record))])) + "\n")
    }

    /// The FNV-1a 64 of a record's exact JSON (`RecordJSON`, compact), in hex.
    static func checksum(_ record: RunRecord) -> String {
        StableHash.hex(StableHash.fnv1a64(JSONWriter.compact(RecordJSON.encode(record))))
    }

    static func recordName(_ k: RunKey) -> String { "run-p\(k.point)-r\(k.replication).json" }

    func writeAtomically(_ name: String, _ text: String) throws {
        let tmp = url.appendingPathComponent(".tmp-" + name), dest = url.appendingPathComponent(name)
        do { try Data(text.utf8).write(to: tmp) } catch {
            throw IOFailure("cannot write \(tmp.path): \(error.localizedDescription)")
        }
        guard rename(tmp.path, dest.path) == 0 else {
            throw IOFailure("cannot write \(dest.path): \(String(cString: strerror(errno)))")
        }
    }

    /// Replaces the header (a resume that mixes model identities records them all first).
    public func update(_ header: Header) throws {
        try writeAtomically(Self.headerName, JSONWriter.pretty(header.json))
    }

    /// Removes what this tool wrote (header, records, temporary files), then the folder if empty.
    public func remove() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] where Self.isOurs(name) {
            unlink(url.appendingPathComponent(name).path)
        }
        rmdir(url.path)
    }

    /// A name this tool writes in the folder.
    static func isOurs(_ name: String) -> Bool {
        let bare = name.hasPrefix(".tmp-") ? String(name.dropFirst(5)) : name
        if bare == headerName { return true }
        guard bare.hasPrefix("run-p"), bare.hasSuffix(".json") else { return false }
        let parts = bare.dropFirst(5).dropLast(5).split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && Int(parts[0]) != nil && parts[1].first == "r" && Int(parts[1].dropFirst()) != nil
    }
}
