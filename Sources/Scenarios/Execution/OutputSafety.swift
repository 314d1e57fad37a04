import Foundation
import SimKernel
import Format
import ScenarioFile

/// An input/output failure of the tool (disk full, no permission, a file that vanished): exit
/// 3, never "bad input".
public struct IOFailure: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The output-safety rule (docs/cli.md): a folder the tool writes may replace only a path
/// that is absent, an empty folder, or a previous grouper-sim result (its manifest lists
/// every entry with the bytes grouper-sim wrote) of the same scenario and engine — of
/// another one only when the user says `--replace`. Trace files may replace only an empty
/// file or a trace grouper-sim wrote, never an input of the command. Everything else is
/// refused with the path named, before anything runs.
public enum OutputSafety {
    /// What a folder destination holds now.
    public enum FolderState: Equatable, Sendable {
        case absent, empty
        /// A previous result: the names of the files grouper-sim wrote there and what it was.
        case previousResult([String], ResultOrigin)
    }

    /// A folder destination resolved to an absolute path (symbolic links followed, so the
    /// link itself is never replaced) and checked against the rule. `writing` is what will
    /// be written there (nil: only the ownership of the folder is checked); a previous result
    /// of another scenario or engine is refused unless `replace`.
    public static func checkFolder(_ path: String, option: String, writing: ResultOrigin? = nil,
                                   replace: Bool = false) throws -> (url: URL, state: FolderState) {
        guard !path.isEmpty else { throw refusal("\(option) needs a folder name, got an empty string") }
        let url = resolved(path)
        guard let kind = kind(of: url) else {
            // The folder will be created with its missing parents: the nearest existing one must be a folder.
            var up = url.deletingLastPathComponent()
            while up.path != "/" && Self.kind(of: up) == nil && !isSymlink(up) { up = up.deletingLastPathComponent() }
            guard Self.kind(of: up) == .directory else {
                throw refusal("\(option) \(path): \(up.path) is not a folder; nothing was written")
            }
            return (url, .absent)
        }
        guard kind == .directory else {
            throw refusal("\(option) \(path): exists and is not a folder; nothing was written (choose a new folder name)")
        }
        let entries = try contents(of: url, path: path)
        if entries.isEmpty { return (url, .empty) }
        switch previousResult(in: url, entries: entries) {
        case .result(let files, let origin):
            if let writing, !writing.sameSource(as: origin), !replace {
                throw refusal("\(option) \(path): holds \(origin.description), and this writes \(writing.differences(from: origin)); "
                    + "grouper-sim replaces without asking only a result of the same scenario file (bytes) and engine. "
                    + "Nothing was written: add --replace to replace that result, or choose a new folder")
            }
            return (url, .previousResult(files, origin))
        case .strangers(let names, let why):
            let shown = names.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (names.count > 5 ? " and \(names.count - 5) more" : "")
            throw refusal("\(option) \(path): the folder is not empty and is not a grouper-sim result (\(why): \(shown)); "
                + "nothing was written. grouper-sim replaces only an absent or empty folder or a previous result; choose a new folder")
        }
    }

    /// A file destination (`--trace`, `--events`): not empty, not a folder, in a folder that
    /// exists; an existing file only when it is empty or a trace grouper-sim wrote (its first
    /// line is a `TraceHeader`); never one of `inputs` (the files the command reads; the same
    /// file by any path, link or hard link). Returns the path to write (a symbolic link is
    /// followed, not replaced). `owned` recognises the files it may replace (commands that
    /// write other kinds of files check ownership themselves and pass `{ _ in true }`).
    public static func checkFile(_ path: String, option: String, inputs: [String] = [],
                                 owned: (URL) -> Bool = isOwnTrace) throws -> String {
        guard !path.isEmpty, !path.hasSuffix("/") else {
            throw refusal("\(option) needs a file name, got '\(path)'")
        }
        let url = resolved(path)
        if let k = kind(of: url), k != .file {
            throw refusal("\(option) \(path): exists and is not a regular file; nothing was written (give a file name)")
        }
        let parent = url.deletingLastPathComponent()
        guard kind(of: parent) == .directory else {
            throw refusal("\(option) \(path): the folder \(parent.path) does not exist; create it first")
        }
        if let input = inputs.first(where: { sameFile(path, $0) }) {
            throw refusal("\(option) \(path): is the scenario file \(input) this command runs; nothing was written (give another file name)")
        }
        if kind(of: url) == .file && !owned(url) {
            throw refusal("\(option) \(path): exists and is not a trace grouper-sim wrote (its first line is not a grouper-sim trace header); "
                + "nothing was written. grouper-sim replaces only its own trace files and empty files: give a new file name")
        }
        return url.path
    }

    /// The manifest of the files `reproduce` writes next to its scenario folders.
    public static let flatManifestName = "equations-manifest.json"

    /// A reproduce folder: a folder (or absent). Its scenario folders follow `checkFolder`
    /// (each must hold nothing or a result of the `ResultOrigin` given, unless `replace`). An
    /// existing flat file of `files` is replaced only when `flatManifestName` (by grouper-sim)
    /// lists it with the FNV-1a 64 of its bytes now. Other entries are left alone.
    public static func checkReproduceFolder(_ path: String, folders: [(name: String, origin: ResultOrigin)], files: [String],
                                            replace: Bool) throws {
        guard !path.isEmpty else { throw refusal("reproduce --out needs a folder name, got an empty string") }
        let url = resolved(path)
        guard let k = kind(of: url) else { return }
        guard k == .directory else { throw refusal("reproduce --out \(path): exists and is not a folder; nothing was written") }
        for f in folders {
            _ = try checkFolder(url.appendingPathComponent(f.name).path, option: "reproduce --out", writing: f.origin, replace: replace)
        }
        let manifestURL = url.appendingPathComponent(flatManifestName)
        var listed: [String: JSONValue] = [:]
        if kind(of: manifestURL) != nil || isSymlink(manifestURL) {
            guard kind(of: manifestURL) == .file, !isSymlink(manifestURL),
                  let data = FileManager.default.contents(atPath: manifestURL.path),
                  let root = try? JSONParser.parse(String(decoding: data, as: UTF8.self)),
                  root["tool"] == .string("grouper-sim"), case .object(let entries)? = root["files"] else {
                throw refusal("reproduce --out \(path): \(flatManifestName) exists and is not one reproduce wrote; nothing was written. "
                    + "Move it away or choose a new folder")
            }
            listed = Dictionary(entries.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        }
        for name in files {
            let file = url.appendingPathComponent(name)
            guard kind(of: file) != nil || isSymlink(file) else { continue }
            let bytes = kind(of: file) == .file && !isSymlink(file) ? FileManager.default.contents(atPath: file.path) : nil
            guard let bytes, case .string(let hex)? = listed[name], StableHash.hex(StableHash.fnv1a64(bytes: bytes)) == hex else {
                throw refusal("reproduce --out \(path): \(name) exists and is not the file reproduce wrote there "
                    + "(\(flatManifestName) does not list it with these bytes); nothing was written. Move it away or choose a new folder")
            }
        }
    }

    /// Whether `a` and `b` name the same file: the same inode when both exist (any links),
    /// else the same canonical path.
    public static func sameFile(_ a: String, _ b: String) -> Bool {
        var sa = stat(), sb = stat()
        if stat(resolved(a).path, &sa) == 0 && stat(resolved(b).path, &sb) == 0 {
            return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
        }
        return canonical(a) == canonical(b)
    }

    /// `path` with every symbolic link resolved (of its folder, when the file does not exist).
    public static func canonical(_ path: String) -> String {
        let url = resolved(path)
        if let real = realpath(url.path, nil) { defer { free(real) }; return String(cString: real) }
        let parent = url.deletingLastPathComponent().path
        guard let real = realpath(parent, nil) else { return url.path }
        defer { free(real) }
        return String(cString: real) + "/" + url.lastPathComponent
    }

    /// An empty file, or one whose first line is a trace header grouper-sim writes.
    public static func isOwnTrace(_ url: URL) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return false }
        defer { try? handle.close() }
        let head = handle.readData(ofLength: 4096)
        if head.isEmpty { return true }
        guard let newline = head.firstIndex(of: UInt8(ascii: "\n")) else { return false }
        return TraceHeader.isOurs(firstLine: String(decoding: head[head.startIndex..<newline], as: UTF8.self))
    }

    // MARK: - Helpers

    /// The file a shard run writes (`ShardFile.fileName`).
    public static let shardFileName = "shard.json"

    package enum Kind { case file, directory, other }

    /// `path` as an absolute, standardized URL; an existing symbolic link is followed.
    public static func resolved(_ path: String) -> URL {
        let cwd = FileManager.default.currentDirectoryPath
        let absolute = path.hasPrefix("/") ? path : cwd + "/" + path
        var url = URL(fileURLWithPath: absolute).standardizedFileURL
        if isSymlink(url) { url = url.resolvingSymlinksInPath() }
        return url
    }

    package static func isSymlink(_ url: URL) -> Bool {
        var st = stat()
        return lstat(url.path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK
    }

    /// What is at `url` (following links); nil when nothing is.
    package static func kind(of url: URL) -> Kind? {
        var st = stat()
        guard stat(url.path, &st) == 0 else { return isSymlink(url) ? .other : nil }
        switch st.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .file
        default: return .other
        }
    }

    static func contents(of url: URL, path: String) throws -> [String] {
        do { return try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() } catch {
            throw refusal("\(path): cannot list the folder (\(error.localizedDescription)); nothing was written")
        }
    }

    /// What a non-empty folder holds: a previous result (its files and origin) or entries
    /// grouper-sim did not write (named, with the reason).
    enum Ownership {
        case result([String], ResultOrigin)
        case strangers([String], String)
    }

    /// A previous result is a `manifest.json` by grouper-sim listing every other entry with
    /// the FNV-1a 64 of its bytes now, or a lone grouper-sim `shard.json`.
    static func previousResult(in url: URL, entries: [String]) -> Ownership {
        let notFiles = entries.filter { kind(of: url.appendingPathComponent($0)) != .file || isSymlink(url.appendingPathComponent($0)) }
        if entries == [shardFileName] {
            guard notFiles.isEmpty, let data = FileManager.default.contents(atPath: url.appendingPathComponent(shardFileName).path),
                  let root = try? JSONParser.parse(String(decoding: data, as: UTF8.self)),
                  let origin = ResultOrigin(shard: root) else { return .strangers(entries, "a shard.json grouper-sim did not write") }
            return .result(entries, origin)
        }
        guard entries.contains("manifest.json"),
              let data = FileManager.default.contents(atPath: url.appendingPathComponent("manifest.json").path),
              let root = try? JSONParser.parse(String(decoding: data, as: UTF8.self)),
              root["tool"] == .string("grouper-sim"), case .object(let listed)? = root["files"],
              let origin = ResultOrigin(manifest: root) else {
            return .strangers(entries, "no grouper-sim manifest.json; it holds")
        }
        let hashes = Dictionary(listed.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        let unlisted = entries.filter { $0 != "manifest.json" && hashes[$0] == nil }
        if !unlisted.isEmpty || !notFiles.isEmpty {
            return .strangers(Array(Set(unlisted + notFiles)).sorted(), "its manifest.json does not list")
        }
        let changed = entries.filter { name in
            guard name != "manifest.json", case .string(let hex)? = hashes[name],
                  let bytes = FileManager.default.contents(atPath: url.appendingPathComponent(name).path) else { return false }
            return StableHash.hex(StableHash.fnv1a64(bytes: bytes)) != hex
        }
        if !changed.isEmpty { return .strangers(changed, "changed since grouper-sim wrote them, by the hashes in its manifest.json") }
        return .result(entries, origin)
    }

    package static func refusal(_ message: String) -> OutputDirectory.WriteError { OutputDirectory.WriteError(description: message) }
}

/// What a result folder holds (or will hold): a result or a shard, of which scenario file
/// (name and FNV-1a 64 of its bytes), run by which engine, how many runs.
public struct ResultOrigin: Equatable, Sendable {
    public enum Kind: String, Sendable { case result, shard }
    public var kind: Kind
    public var scenarioFile: String
    public var scenarioHash: UInt64
    public var engine: String
    public var runs: Int
    /// `i of N` for a shard.
    public var slice: String? = nil

    public init(kind: Kind, scenarioFile: String, scenarioHash: UInt64, engine: String, runs: Int, slice: String? = nil) {
        self.kind = kind; self.scenarioFile = scenarioFile; self.scenarioHash = scenarioHash
        self.engine = engine; self.runs = runs; self.slice = slice
    }

    /// A result (`kind` .result) or shard of `source`, run by the engine named `engine`.
    public init(_ kind: Kind, source: ScenarioSource, engine: String, runs: Int = 0) {
        self.init(kind: kind, scenarioFile: source.fileName, scenarioHash: StableHash.fnv1a64(bytes: source.bytes),
                  engine: engine, runs: runs)
    }

    /// Whether a folder holding `other` may be replaced by this without `--replace`: the same
    /// kind, scenario bytes and engine.
    public func sameSource(as other: ResultOrigin) -> Bool {
        kind == other.kind && scenarioHash == other.scenarioHash && engine == other.engine
    }

    /// What this is, said against `other`: "a result of copy.json (another file), engine synthetic".
    func differences(from other: ResultOrigin) -> String {
        let file = scenarioFile == other.scenarioFile && scenarioHash != other.scenarioHash
            ? "\(scenarioFile) with other bytes (FNV-1a 64 \(StableHash.hex(scenarioHash)), the result's \(StableHash.hex(other.scenarioHash)))"
            : scenarioFile
        return (kind == .shard ? "a shard" : "a result") + " of \(file), engine \(engine)"
    }

    /// "40 runs of study.json, engine grouper" (a shard: "shard 1 of 2 (20 runs) of …").
    public var description: String {
        let runs = "\(self.runs) run\(self.runs == 1 ? "" : "s")"
        return (kind == .shard ? "shard \(slice ?? "?") (\(runs))" : runs) + " of \(scenarioFile), engine \(engine)"
    }

    init?(manifest root: JSONValue) {
        guard case .string(let engine)? = root["engine"], let scenario = root["scenario"],
              case .string(let file)? = scenario["file"], case .string(let hex)? = scenario["fnv1a64"],
              let hash = UInt64(hex, radix: 16), case .array(let runs)? = root["runs"] else { return nil }
        self.init(kind: .result, scenarioFile: file, scenarioHash: hash, engine: engine, runs: runs.count)
    }

    init?(shard root: JSONValue) {
        guard root["format"] == .string("grouper-sim-shard-1"), case .string(let engine)? = root["engine"],
              case .string(let label)? = root["scenario_file"], case .string(let b64)? = root["scenario_base64"],
              let bytes = Data(base64Encoded: b64), case .array(let runs)? = root["runs"],
              case .number(let i, _)? = root["shard"], case .number(let n, _)? = root["of"] else { return nil }
        self.init(.shard, source: ScenarioSource(label: label, bytes: Array(bytes)), engine: engine, runs: runs.count)
        slice = "\(Int(i)) of \(Int(n))"
    }
}
