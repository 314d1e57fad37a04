import Foundation

/// Writes a set of files as one unit: into a hidden sibling temp folder
/// (`.tmp-<name>-<pid>`), then renamed over the destination. A crash leaves
/// only the temp folder, never a destination that looks complete but is not.
public enum OutputDirectory {
    public struct WriteError: Error, CustomStringConvertible { public var description: String }

    public static func write(_ files: [(name: String, contents: String)], to destination: String) throws {
        let fm = FileManager.default
        let dest = URL(fileURLWithPath: destination).standardizedFileURL
        let parent = dest.deletingLastPathComponent()
        let pid = ProcessInfo.processInfo.processIdentifier
        let tmp = parent.appendingPathComponent(".tmp-\(dest.lastPathComponent)-\(pid)")
        let old = parent.appendingPathComponent(".old-\(dest.lastPathComponent)-\(pid)")
        do {
            try fm.createDirectory(at: parent, withIntermediateDirectories: true)
            try? fm.removeItem(at: tmp)
            try fm.createDirectory(at: tmp, withIntermediateDirectories: false)
            for f in files {
                try Data(f.contents.utf8).write(to: tmp.appendingPathComponent(f.name), options: .atomic)
            }
            var isDir: ObjCBool = false
            if fm.fileExists(atPath: dest.path, isDirectory: &isDir) {
                guard isDir.boolValue else { throw WriteError(description: "\(destination) exists and is not a folder") }
                try? fm.removeItem(at: old)
                try fm.moveItem(at: dest, to: old)
                try fm.moveItem(at: tmp, to: dest)
                try fm.removeItem(at: old)
            } else {
                try fm.moveItem(at: tmp, to: dest)
            }
        } catch let e as WriteError {
            try? fm.removeItem(at: tmp); throw e
        } catch {
            try? fm.removeItem(at: tmp)
            throw WriteError(description: "cannot write \(destination): \(error.localizedDescription)")
        }
    }
}
