import Foundation
import SimKernel
import Format
import Plan

/// The first line of every trace file grouper-sim writes, by which it recognises its own
/// files: `--trace FILE` and `--events FILE` replace an existing file only when it is empty
/// or begins with one of these lines (`OutputSafety.checkFile`).
public enum TraceHeader {
    /// `--trace`: a comment line before the protocol log.
    public static let tracePrefix = "# grouper-sim protocol trace"
    /// `--events`: a first JSON line whose `format` is this (every later line is one event).
    public static let eventsFormat = "grouper-sim-events-1"

    /// The first line of `--trace FILE` for `run`, ending in a newline.
    public static func trace(_ run: ResolvedRun) -> String {
        "\(tracePrefix): scenario \(run.spec.name), run \(run.index) (point \(run.point), replication \(run.replication)), seed \(run.seed)\n"
    }

    /// The first line of `--events FILE` for `run`, ending in a newline.
    public static func events(_ run: ResolvedRun) -> String {
        JSONWriter.compact(.object([("format", .string(eventsFormat)), ("scenario", .string(run.spec.name)),
                                    ("run", .number(Double(run.index))), ("point", .number(Double(run.point))),
                                    ("replication", .number(Double(run.replication))), ("seed", .number(Double(run.seed), text: String(run.seed)))])) + "\n"
    }

    /// Whether `firstLine` (without its newline) is a header grouper-sim writes.
    public static func isOurs(firstLine: String) -> Bool {
        if firstLine.hasPrefix(tracePrefix + ":") { return true }
        guard firstLine.hasPrefix("{"), let v = try? JSONParser.parse(firstLine) else { return false }
        return v["format"] == .string(eventsFormat)
    }
}

/// Writes a trace file atomically (a temporary sibling renamed over the file). The path was
/// checked before the run (`OutputSafety.checkFile`) and is checked again here.
package enum TraceFile {
    package static func write(_ text: String, run: ResolvedRun) throws {
        guard let path = run.tracePath else { return }
        let target = try OutputSafety.checkFile(path, option: "--trace")
        do { try Data((TraceHeader.trace(run) + text).utf8).write(to: URL(fileURLWithPath: target), options: .atomic) } catch {
            throw IOFailure("--trace \(path): cannot write the file (\(error.localizedDescription))")
        }
    }
}

/// The kernel's event trace of one run, streamed to a hidden sibling file and renamed into
/// place by `finish()`: a trace file that exists is complete. Its first line is
/// `TraceHeader.events`.
package final class EventTraceFile {
    package let sink: TraceSink
    let path: String, partial: String
    private let handle: FileHandle

    package init(request: EventTraceRequest, run: ResolvedRun) throws {
        path = try OutputSafety.checkFile(request.path, option: "--events")
        let url = URL(fileURLWithPath: path)
        var candidate = ""
        for i in 0..<1000 {
            candidate = url.deletingLastPathComponent()
                .appendingPathComponent(".\(url.lastPathComponent).partial-\(getpid())\(i == 0 ? "" : "-\(i)")").path
            if OutputSafety.kind(of: URL(fileURLWithPath: candidate)) == nil && !OutputSafety.isSymlink(URL(fileURLWithPath: candidate)) { break }
        }
        partial = candidate
        guard FileManager.default.createFile(atPath: partial, contents: Data(TraceHeader.events(run).utf8)),
              let h = FileHandle(forWritingAtPath: partial) else {
            throw IOFailure("--events \(request.path): cannot create \(partial) (is the folder writable?)")
        }
        h.seekToEndOfFile()
        handle = h
        sink = TraceSink(kinds: request.kinds, write: { h.write(Data($0.utf8)) })
    }

    package func finish() throws {
        sink.close()
        try? handle.close()
        // rename(2) replaces a file atomically and refuses a folder: nothing but the old trace file is replaced.
        guard rename(partial, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(partial)
            throw IOFailure("--events \(path): cannot move the finished trace into place (\(reason))")
        }
    }

    deinit {
        try? handle.close()
        // A run that stopped before `finish()` leaves no partial file behind (the file this object created).
        if FileManager.default.fileExists(atPath: partial) { unlink(partial) }
    }
}
