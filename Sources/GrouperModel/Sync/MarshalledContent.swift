/// An update's content kept compactly: almost every update carries exactly what
/// `NewestVersionWinsStore.marshall` writes for the update's own object id, sender and send
/// time, which is determined by those fields and the filler's size. Such a content is kept as
/// that size (4 bytes) and rebuilt on read; anything else (another store's format, a garbled
/// or tampered rebuild) is kept verbatim. Reading back always gives the same string.
enum MarshalledContent: Sendable, Equatable {
    case verbatim(String)
    case filler(Int32)

    /// The compact form of `content` for an object `objectID` written by `updater` at `time`.
    init(_ content: String, objectID: String, updater: String, time: Int64) {
        if let n = Self.fillerSize(of: content, objectID: objectID, updater: updater, time: time) {
            self = .filler(n)
        } else {
            self = .verbatim(content)
        }
    }

    /// The content string.
    func content(objectID: String, updater: String, time: Int64) -> String {
        switch self {
        case .verbatim(let s): return s
        case .filler(let n): return NewestVersionWinsStore.marshalled(objectID: objectID, size: Int(n), updater: updater, time: time)
        }
    }

    /// Whether `content` is what this form reads back as (no string is built).
    func matches(_ content: String, objectID: String, updater: String, time: Int64) -> Bool {
        switch self {
        case .verbatim(let s): return s == content
        case .filler(let n): return Self.fillerSize(of: content, objectID: objectID, updater: updater, time: time) == n
        }
    }

    /// Heap bytes of a verbatim string (for `RetainedState`).
    var retainedBytes: Int {
        if case .verbatim(let s) = self { return RetainedState.stringBytes(s) }
        return 0
    }

    /// n if `content` equals `marshalled(objectID:size: n, updater:time:)`, else nil: a walk
    /// over its bytes against the format's pieces.
    static func fillerSize(of content: String, objectID: String, updater: String, time: Int64) -> Int32? {
        var c = content
        return c.withUTF8 { bytes -> Int32? in
            var i = 0
            func take(_ piece: String.UTF8View) -> Bool {
                for b in piece {
                    guard i < bytes.count, bytes[i] == b else { return false }
                    i += 1
                }
                return true
            }
            guard take(#"{"id":""#.utf8), take(objectID.utf8), take(#"","payload":""#.utf8) else { return nil }
            let start = i
            while i < bytes.count && bytes[i] == UInt8(ascii: "x") { i += 1 }
            let n = i - start
            guard n <= Int(Int32.max), take(#"","update_at":"#.utf8), take(String(time).utf8),
                  take(#","updater":""#.utf8), take(updater.utf8), take(#""}"#.utf8), i == bytes.count else { return nil }
            return Int32(n)
        }
    }
}
