import Foundation
import SimJSON

/// An event that names itself in traces. Events that do not conform are traced with
/// their enum case name (the text of `String(describing:)` before any parenthesis) as
/// kind and their full description as the single field `event`.
public protocol TraceableEvent {
    /// Short, stable kind, e.g. `"deliver"`, `"timeout"`; filters match on it.
    var traceKind: String { get }
    /// Extra fields, written in this order.
    var traceFields: [(String, String)] { get }
}

extension TraceableEvent {
    public var traceFields: [(String, String)] { [] }
}

/// A trace file that cannot be opened or written.
public struct TraceError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String
    public init(path: String, reason: String) { self.path = path; self.reason = reason }
    public var description: String { "cannot write trace file '\(path)': \(reason)" }
}

/// Where a run's trace goes: JSON Lines, one object per delivered event, in delivery order:
///
///     {"t":1500000000,"time":"1.5s","seq":17,"component":"server-3","kind":"deliver","fields":{"from":"device-1"}}
///
/// `t` is integer nanoseconds, `time` its human form. Filters keep only the listed
/// component names and/or kinds (nil = keep all). Output is buffered; call `close()`
/// (or let the sink deinit) to flush. Deterministic: no wall clock, no hash order.
public final class TraceSink {
    public let components: Set<String>?
    public let kinds: Set<String>?
    var write: (String) -> Void
    var closeHandler: () -> Void
    var buffer = ""
    /// Lines written so far (after filtering).
    public private(set) var linesWritten = 0

    /// A sink that hands each line (with trailing newline) to `write` — for tests and tools.
    public init(components: [String]? = nil, kinds: [String]? = nil, write: @escaping (String) -> Void) {
        self.components = components.map(Set.init)
        self.kinds = kinds.map(Set.init)
        self.write = write
        closeHandler = {}
    }

    /// A sink writing to a file at `path` (created or truncated).
    public convenience init(path: String, components: [String]? = nil, kinds: [String]? = nil) throws(TraceError) {
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw TraceError(path: path, reason: "cannot create the file (does the folder exist and is it writable?)")
        }
        self.init(components: components, kinds: kinds, write: { handle.write(Data($0.utf8)) })
        closeHandler = { try? handle.close() }
    }

    deinit { flush(); closeHandler() }

    /// Whether an event for `component` of `kind` passes the filters.
    public func accepts(component: String, kind: String) -> Bool {
        (components?.contains(component) ?? true) && (kinds?.contains(kind) ?? true)
    }

    /// Appends one line if it passes the filters.
    public func record(time: SimTime, seq: UInt64, component: String, kind: String, fields: [(String, String)]) {
        guard accepts(component: component, kind: kind) else { return }
        var line = "{\"t\":\(time.nanoseconds),\"time\":\(Self.quoted(String(time.description.dropFirst(2)))),\"seq\":\(seq)"
        line += ",\"component\":\(Self.quoted(component)),\"kind\":\(Self.quoted(kind)),\"fields\":{"
        line += fields.map { "\(Self.quoted($0.0)):\(Self.quoted($0.1))" }.joined(separator: ",")
        line += "}}\n"
        buffer += line
        linesWritten += 1
        if buffer.utf8.count >= 1 << 16 { flush() }
    }

    /// Writes buffered lines out.
    public func flush() {
        guard !buffer.isEmpty else { return }
        write(buffer)
        buffer = ""
    }

    /// Flushes and closes the file; later records are still buffered but never written.
    public func close() {
        flush()
        closeHandler()
        closeHandler = {}
        write = { _ in }
    }

    /// A JSON string literal (RFC 8259 escaping).
    static func quoted(_ s: String) -> String { JSONString.quoted(s) }

    /// Kind and fields of any event (see `TraceableEvent`).
    static func describe<E>(_ event: E) -> (kind: String, fields: [(String, String)]) {
        if let t = event as? any TraceableEvent { return (t.traceKind, t.traceFields) }
        let text = String(describing: event)
        let kind = text.prefix { $0 != "(" }
        return (String(kind), [("event", text)])
    }
}
