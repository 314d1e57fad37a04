import Foundation
import SimKernel

/// Writes a trace file atomically (a temporary sibling renamed over the file). The path was
/// checked before the run (`OutputSafety.checkFile`): never a folder.
enum TraceFile {
    static func write(_ text: String, to path: String) throws {
        let target = try OutputSafety.checkFile(path, option: "--trace")
        try Data(text.utf8).write(to: URL(fileURLWithPath: target), options: .atomic)
    }
}

/// The kernel's event trace of one run, streamed to a hidden sibling file and renamed into
/// place by `finish()`: a trace file that exists is complete.
final class EventTraceFile {
    let sink: TraceSink
    let path: String, partial: String

    init(request: EventTraceRequest) throws {
        path = try OutputSafety.checkFile(request.path, option: "--events")
        let url = URL(fileURLWithPath: path)
        var candidate = ""
        for i in 0..<1000 {
            candidate = url.deletingLastPathComponent()
                .appendingPathComponent(".\(url.lastPathComponent).partial-\(getpid())\(i == 0 ? "" : "-\(i)")").path
            if OutputSafety.kind(of: URL(fileURLWithPath: candidate)) == nil && !OutputSafety.isSymlink(URL(fileURLWithPath: candidate)) { break }
        }
        partial = candidate
        sink = try TraceSink(path: partial, kinds: request.kinds)
    }

    func finish() throws {
        sink.close()
        // rename(2) replaces a file atomically and refuses a folder: nothing but the old trace file is replaced.
        guard rename(partial, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(partial)
            throw TraceError(path: path, reason: "cannot move the finished trace into place (\(reason))")
        }
    }

    deinit {
        // A run that stopped before `finish()` leaves no partial file behind (the file this object created).
        if FileManager.default.fileExists(atPath: partial) { unlink(partial) }
    }
}
