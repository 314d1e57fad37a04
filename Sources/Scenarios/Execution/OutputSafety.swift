import Foundation

/// The output-safety rule (docs/cli.md): a folder the tool writes may replace only a path
/// that is absent, an empty folder, or a previous grouper-sim result (its manifest says so
/// and it holds only files grouper-sim writes). Trace files may replace only a file, in a
/// folder that exists. Everything else is refused with the path named, before anything runs.
public enum OutputSafety {
    /// What a folder destination holds now.
    public enum FolderState: Equatable, Sendable {
        case absent, empty
        /// A previous result: the names of the files grouper-sim wrote there.
        case previousResult([String])
    }

    /// A folder destination resolved to an absolute path (symbolic links followed, so the
    /// link itself is never replaced) and checked against the rule.
    public static func checkFolder(_ path: String, option: String) throws -> (url: URL, state: FolderState) {
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
        if let files = resultFiles(in: url, entries: entries) { return (url, .previousResult(files)) }
        throw refusal("\(option) \(path): the folder is not empty and is not a grouper-sim result "
            + "(\(entries.count) entr\(entries.count == 1 ? "y" : "ies"), e.g. '\(entries[0])'); nothing was written. "
            + "grouper-sim replaces only an absent or empty folder or a previous result; choose a new folder")
    }

    /// A file destination (`--trace`, `--events`): not empty, not a folder, in a folder that
    /// exists. Returns the path to write (a symbolic link is followed, not replaced).
    public static func checkFile(_ path: String, option: String) throws -> String {
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
        return url.path
    }

    /// A reproduce folder: a folder (or absent). Its scenario folders follow `checkFolder`; an
    /// existing flat file of `files` is replaced only if it is a regular file whose first line
    /// mentions equations, as reproduce's own do. Other entries are left alone.
    public static func checkReproduceFolder(_ path: String, folders: [String], files: [String]) throws {
        guard !path.isEmpty else { throw refusal("reproduce --out needs a folder name, got an empty string") }
        let url = resolved(path)
        guard let k = kind(of: url) else { return }
        guard k == .directory else { throw refusal("reproduce --out \(path): exists and is not a folder; nothing was written") }
        for name in folders {
            _ = try checkFolder(url.appendingPathComponent(name).path, option: "reproduce --out")
        }
        for name in files {
            let file = url.appendingPathComponent(name)
            guard kind(of: file) != nil || isSymlink(file) else { continue }
            let head = kind(of: file) == .file ? FileManager.default.contents(atPath: file.path).map { Array($0.prefix(200)) } : nil
            let firstLine = head.map { String(decoding: $0, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "" }
            guard let firstLine, firstLine.lowercased().contains("equation") else {
                throw refusal("reproduce --out \(path): \(name) exists and is not an equations file reproduce wrote; nothing was written. "
                    + "Move it away or choose a new folder")
            }
        }
    }

    // MARK: - Helpers

    /// The file a shard run writes (`ShardFile.fileName`).
    public static let shardFileName = "shard.json"

    enum Kind { case file, directory, other }

    /// `path` as an absolute, standardized URL; an existing symbolic link is followed.
    public static func resolved(_ path: String) -> URL {
        let cwd = FileManager.default.currentDirectoryPath
        let absolute = path.hasPrefix("/") ? path : cwd + "/" + path
        var url = URL(fileURLWithPath: absolute).standardizedFileURL
        if isSymlink(url) { url = url.resolvingSymlinksInPath() }
        return url
    }

    static func isSymlink(_ url: URL) -> Bool {
        var st = stat()
        return lstat(url.path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK
    }

    /// What is at `url` (following links); nil when nothing is.
    static func kind(of url: URL) -> Kind? {
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

    /// The files of a previous result in `url`, or nil when it is not one: a `manifest.json`
    /// by grouper-sim listing every other entry, or a lone grouper-sim `shard.json`.
    static func resultFiles(in url: URL, entries: [String]) -> [String]? {
        guard entries.allSatisfy({ kind(of: url.appendingPathComponent($0)) == .file && !isSymlink(url.appendingPathComponent($0)) })
        else { return nil }
        if entries == [shardFileName] {
            guard let data = FileManager.default.contents(atPath: url.appendingPathComponent(shardFileName).path),
                  let root = try? JSONParser.parse(String(decoding: data, as: UTF8.self)),
                  root["format"] == .string("grouper-sim-shard-1") else { return nil }
            return entries
        }
        guard entries.contains("manifest.json"),
              let data = FileManager.default.contents(atPath: url.appendingPathComponent("manifest.json").path),
              let root = try? JSONParser.parse(String(decoding: data, as: UTF8.self)),
              root["tool"] == .string("grouper-sim"), case .object(let listed)? = root["files"] else { return nil }
        let names = Set(listed.map(\.key) + ["manifest.json"])
        return entries.allSatisfy(names.contains) ? entries : nil
    }

    static func refusal(_ message: String) -> OutputDirectory.WriteError { OutputDirectory.WriteError(description: message) }
}
