import Foundation
import SimKernel

/// Writes a trace file atomically.
enum TraceFile {
    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

/// The kernel's event trace of one run, streamed to a hidden sibling file and renamed into
/// place by `finish()`: a trace file that exists is complete.
final class EventTraceFile {
    let sink: TraceSink
    let path: String, partial: String

    init(request: EventTraceRequest) throws {
        path = request.path
        let url = URL(fileURLWithPath: request.path)
        partial = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial-\(getpid())").path
        sink = try TraceSink(path: partial, kinds: request.kinds)
    }

    func finish() throws {
        sink.close()
        do {
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            try FileManager.default.moveItem(atPath: partial, toPath: path)
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw TraceError(path: path, reason: "cannot move the finished trace into place (\(error.localizedDescription))")
        }
    }

    deinit {
        // A run that stopped before `finish()` leaves no partial file behind.
        if FileManager.default.fileExists(atPath: partial) { try? FileManager.default.removeItem(atPath: partial) }
    }
}
