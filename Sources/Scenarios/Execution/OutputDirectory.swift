import Foundation

/// Writes a set of files as one unit: into a hidden sibling temp folder
/// (`.tmp-<name>-<pid>`), then renamed into place. A crash leaves only the temp folder,
/// never a destination that looks complete but is not; the next write of the same folder
/// recognises such leftovers as its own and removes them (`cleanLeftovers`).
///
/// Only an absent or empty folder or a previous grouper-sim result is replaced
/// (`OutputSafety.checkFolder`); of a previous result, only the files it lists are removed,
/// then its folder if that left it empty. Nothing else is ever deleted. The writer holds the
/// folder's `FolderLock` throughout.
public enum OutputDirectory {
    /// A refusal: the destination is not the tool's to replace (exit 2, nothing written).
    public struct WriteError: Error, CustomStringConvertible { public var description: String }

    /// Writes `files` to `destination`; `writing` is what they are (a previous result of
    /// another scenario or engine is refused unless `replace`). Returns what was replaced.
    @discardableResult
    public static func write(_ files: [(name: String, contents: String)], to destination: String,
                             option: String = "--out", writing: ResultOrigin? = nil, replace: Bool = false) throws -> ResultOrigin? {
        // Checked before the lock is taken (which may create the folder's parents), and again under it.
        _ = try OutputSafety.checkFolder(destination, option: option, writing: writing, replace: replace)
        let lock = try FolderLock.acquire(OutputSafety.resolved(destination), label: destination)
        defer { lock.release() }
        cleanLeftovers(of: OutputSafety.resolved(destination))
        let (dest, state) = try OutputSafety.checkFolder(destination, option: option, writing: writing, replace: replace)
        let fm = FileManager.default
        let parent = dest.deletingLastPathComponent()
        var tmp: URL? = nil
        do {
            try fm.createDirectory(at: parent, withIntermediateDirectories: true)
            let made = try makeSibling(of: dest, prefix: ".tmp")
            tmp = made
            for f in files {
                try Data(f.contents.utf8).write(to: made.appendingPathComponent(f.name))
            }
            switch state {
            case .absent, .empty:
                // rename(2) replaces an empty folder atomically and fails on a non-empty one.
                try rename(made, to: dest)
                return nil
            case .previousResult(let old, let origin):
                let aside = try reserveSibling(of: dest, prefix: ".old")
                try rename(dest, to: aside)
                try rename(made, to: dest)
                removeResult(at: aside, files: old)
                return origin
            }
        } catch let e as IOFailure {
            if let tmp { try? fm.removeItem(at: tmp) }
            throw e
        } catch {
            if let tmp { try? fm.removeItem(at: tmp) }
            throw IOFailure("cannot write \(destination): \(error.localizedDescription)")
        }
    }

    /// Creates a new hidden sibling folder `<prefix>-<name>-<pid>[-i]` that did not exist before.
    static func makeSibling(of dest: URL, prefix: String) throws -> URL {
        let base = "\(prefix)-\(dest.lastPathComponent)-\(ProcessInfo.processInfo.processIdentifier)"
        for i in 0..<1000 {
            let url = dest.deletingLastPathComponent().appendingPathComponent(i == 0 ? base : "\(base)-\(i)")
            if mkdir(url.path, 0o755) == 0 { return url }
            guard errno == EEXIST else { break }
        }
        throw IOFailure("cannot create a temporary folder next to \(dest.path): \(String(cString: strerror(errno)))")
    }

    /// A sibling name nothing uses now (for moving an old result aside).
    static func reserveSibling(of dest: URL, prefix: String) throws -> URL {
        let base = "\(prefix)-\(dest.lastPathComponent)-\(ProcessInfo.processInfo.processIdentifier)"
        for i in 0..<1000 {
            let url = dest.deletingLastPathComponent().appendingPathComponent(i == 0 ? base : "\(base)-\(i)")
            if OutputSafety.kind(of: url) == nil && !OutputSafety.isSymlink(url) { return url }
        }
        throw IOFailure("cannot find a free name next to \(dest.path)")
    }

    static func rename(_ from: URL, to: URL) throws {
        guard Foundation.rename(from.path, to.path) == 0 else {
            throw IOFailure("cannot move \(from.lastPathComponent) to \(to.path): \(String(cString: strerror(errno)))")
        }
    }

    /// Removes the listed files of an old result, then the folder if it is empty; a file
    /// someone added in the meantime stays, and so does the folder.
    static func removeResult(at url: URL, files: [String]) {
        for f in files { unlink(url.appendingPathComponent(f).path) }
        rmdir(url.path)
    }

    /// Removes what a writer of `dest` that was killed left next to it: hidden folders
    /// `.tmp-<name>-<pid>` (a result being written) holding only files of the kinds a
    /// result holds, and `.old-<name>-<pid>` (a previous result moved aside), which goes
    /// back to `dest` when `dest` is gone, else is removed like a replaced result. Only while
    /// holding `dest`'s lock (no live writer of `dest` can own them), never a folder of a
    /// process that still runs here, never anything else.
    public static func cleanLeftovers(of dest: URL) {
        guard FolderLock.isHeld(dest) else { return }
        let parent = dest.deletingLastPathComponent(), name = dest.lastPathComponent
        let fm = FileManager.default
        guard let siblings = try? fm.contentsOfDirectory(atPath: parent.path) else { return }
        for sibling in siblings.sorted() {
            guard let (prefix, pid) = leftover(sibling, of: name), pid != getpid(), !isRunning(pid) else { continue }
            let url = parent.appendingPathComponent(sibling)
            guard OutputSafety.kind(of: url) == .directory, !OutputSafety.isSymlink(url),
                  let entries = try? fm.contentsOfDirectory(atPath: url.path).sorted() else { continue }
            if prefix == ".tmp" {
                guard entries.allSatisfy({ isResultFileName($0) && OutputSafety.kind(of: url.appendingPathComponent($0)) == .file
                    && !OutputSafety.isSymlink(url.appendingPathComponent($0)) }) else { continue }
                removeResult(at: url, files: entries)
            } else if entries.isEmpty {
                rmdir(url.path)
            } else if case .result(let files, _) = OutputSafety.previousResult(in: url, entries: entries) {
                if OutputSafety.kind(of: dest) == nil && !OutputSafety.isSymlink(dest) {
                    _ = Foundation.rename(url.path, dest.path)
                } else {
                    removeResult(at: url, files: files)
                }
            }
        }
    }

    /// (".tmp" or ".old", pid) when `sibling` is named `<prefix>-<name>-<pid>`.
    static func leftover(_ sibling: String, of name: String) -> (String, pid_t)? {
        for prefix in [".tmp", ".old"] where sibling.hasPrefix("\(prefix)-\(name)-") {
            let rest = sibling.dropFirst(prefix.count + name.count + 2).split(separator: "-", omittingEmptySubsequences: false)
            // Only `-<pid>`: with a `-i` suffix the name would also fit a folder named `<name>-<pid>`.
            guard rest.count == 1, rest.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }),
                  let pid = pid_t(rest[0]) else { continue }
            return (prefix, pid)
        }
        return nil
    }

    /// Whether a process with this pid runs on this machine.
    static func isRunning(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 || errno == EPERM }

    /// A name of the kinds of files a result folder holds (CSV, Markdown, SVG, JSON, JSON
    /// Lines, HTML), without folders.
    static func isResultFileName(_ name: String) -> Bool {
        !name.hasPrefix(".") && !name.contains("/")
            && ["csv", "md", "svg", "json", "jsonl", "html"].contains(name.split(separator: ".").last.map(String.init) ?? "")
    }
}
