import Foundation

/// Writes a set of files as one unit: into a hidden sibling temp folder
/// (`.tmp-<name>-<pid>`), then renamed into place. A crash leaves only the temp folder,
/// never a destination that looks complete but is not.
///
/// Only an absent or empty folder or a previous grouper-sim result is replaced
/// (`OutputSafety.checkFolder`); of a previous result, only the files it lists are removed,
/// then its folder if that left it empty. Nothing else is ever deleted.
public enum OutputDirectory {
    public struct WriteError: Error, CustomStringConvertible { public var description: String }

    public static func write(_ files: [(name: String, contents: String)], to destination: String,
                             option: String = "--out") throws {
        let (dest, state) = try OutputSafety.checkFolder(destination, option: option)
        let fm = FileManager.default
        let parent = dest.deletingLastPathComponent()
        var tmp: URL? = nil
        do {
            try fm.createDirectory(at: parent, withIntermediateDirectories: true)
            let made = try makeSibling(of: dest, prefix: ".tmp")
            tmp = made
            for f in files {
                try Data(f.contents.utf8).write(to: made.appendingPathComponent(f.name), options: .atomic)
            }
            switch state {
            case .absent, .empty:
                // rename(2) replaces an empty folder atomically and fails on a non-empty one.
                try rename(made, to: dest)
            case .previousResult(let old):
                let aside = try reserveSibling(of: dest, prefix: ".old")
                try rename(dest, to: aside)
                try rename(made, to: dest)
                removeResult(at: aside, files: old)
            }
        } catch let e as WriteError {
            if let tmp { try? fm.removeItem(at: tmp) }
            throw e
        } catch {
            if let tmp { try? fm.removeItem(at: tmp) }
            throw WriteError(description: "cannot write \(destination): \(error.localizedDescription)")
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
        throw WriteError(description: "cannot create a temporary folder next to \(dest.path)")
    }

    /// A sibling name nothing uses now (for moving an old result aside).
    static func reserveSibling(of dest: URL, prefix: String) throws -> URL {
        let base = "\(prefix)-\(dest.lastPathComponent)-\(ProcessInfo.processInfo.processIdentifier)"
        for i in 0..<1000 {
            let url = dest.deletingLastPathComponent().appendingPathComponent(i == 0 ? base : "\(base)-\(i)")
            if OutputSafety.kind(of: url) == nil && !OutputSafety.isSymlink(url) { return url }
        }
        throw WriteError(description: "cannot find a free name next to \(dest.path)")
    }

    static func rename(_ from: URL, to: URL) throws {
        guard Foundation.rename(from.path, to.path) == 0 else {
            throw WriteError(description: "cannot move \(from.lastPathComponent) to \(to.path): \(String(cString: strerror(errno)))")
        }
    }

    /// Removes the listed files of an old result, then the folder if it is empty; a file
    /// someone added in the meantime stays, and so does the folder.
    static func removeResult(at url: URL, files: [String]) {
        for f in files { unlink(url.appendingPathComponent(f).path) }
        rmdir(url.path)
    }
}
