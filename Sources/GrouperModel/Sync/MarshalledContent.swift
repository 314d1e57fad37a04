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

    /// The compact form of `content` = `NewestVersionWinsStore.marshalled(objectID:size:updater:time:)`
    /// of this `size` (what `init(_:objectID:updater:time:)` finds by reading it): the filler
    /// is `max(0, size)` bytes, kept verbatim only past `Int32.max`. A sender that has just
    /// marshalled an update takes this instead of reading the content back
    /// (`SenderPathTests.marshalledFormIsWhatReadingFinds`).
    static func marshalled(_ content: String, size: Int) -> MarshalledContent {
        let n = max(0, size)
        return n <= Int(Int32.max) ? .filler(Int32(n)) : .verbatim(content)
    }

    /// The content string.
    func content(objectID: String, updater: String, time: Int64) -> String {
        switch self {
        case .verbatim(let s): return s
        case .filler(let n): return NewestVersionWinsStore.marshalled(objectID: objectID, size: Int(n), updater: updater, time: time)
        }
    }

    /// Whether `content` equals (as strings: canonical equivalence) what this form reads back
    /// as; a string is built only when the bytes differ.
    func matches(_ content: String, objectID: String, updater: String, time: Int64) -> Bool {
        switch self {
        case .verbatim(let s): return s == content
        case .filler(let n):
            return Self.fillerSize(of: content, objectID: objectID, updater: updater, time: time) == n
                || self.content(objectID: objectID, updater: updater, time: time) == content
        }
    }

    /// `matches`, the filler size read through `sizes`.
    func matches(_ content: String, objectID: String, updater: String, time: Int64, sizes: inout FillerSizeMemo) -> Bool {
        switch self {
        case .verbatim(let s): return s == content
        case .filler(let n):
            return sizes.fillerSize(of: content, objectID: objectID, updater: updater, time: time) == n
                || self.content(objectID: objectID, updater: updater, time: time) == content
        }
    }

    /// Heap bytes of a verbatim string (for `RetainedState`).
    var retainedBytes: Int {
        if case .verbatim(let s) = self { return RetainedState.stringBytes(s) }
        return 0
    }

    /// n if `content` equals `marshalled(objectID:size: n, updater:time:)`, else nil: a walk
    /// over its bytes against the format's pieces, eight bytes at a time, the time's digits
    /// compared in place (no `String(time)`).
    static func fillerSize(of content: String, objectID: String, updater: String, time: Int64) -> Int32? {
        var c = content
        return c.withUTF8 { bytes -> Int32? in
            var scan = ByteScan(bytes: bytes)
            guard scan.take(#"{"id":""#), scan.take(objectID), scan.take(#"","payload":""#) else { return nil }
            let n = scan.skip(UInt8(ascii: "x"))
            guard n <= Int(Int32.max), scan.take(#"","update_at":"#), scan.takeDecimal(time),
                  scan.take(#","updater":""#), scan.take(updater), scan.take(#""}"#), scan.atEnd else { return nil }
            return Int32(n)
        }
    }
}

/// A cursor over UTF-8 bytes that matches pieces in order.
private struct ByteScan {
    let bytes: UnsafeBufferPointer<UInt8>
    var i = 0

    var atEnd: Bool { i == bytes.count }

    mutating func take(_ piece: StaticString) -> Bool {
        piece.withUTF8Buffer { take($0) }
    }

    mutating func take(_ piece: String) -> Bool {
        var p = piece
        return p.withUTF8 { take($0) }
    }

    mutating func take(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        guard p.count <= bytes.count - i else { return false }
        guard let pb = p.baseAddress else { return true }
        let a = UnsafeRawPointer(bytes.baseAddress! + i), b = UnsafeRawPointer(pb)
        var k = 0
        while k + 8 <= p.count {
            if a.loadUnaligned(fromByteOffset: k, as: UInt64.self) != b.loadUnaligned(fromByteOffset: k, as: UInt64.self) {
                return false
            }
            k += 8
        }
        while k < p.count {
            if a.load(fromByteOffset: k, as: UInt8.self) != b.load(fromByteOffset: k, as: UInt8.self) { return false }
            k += 1
        }
        i += p.count
        return true
    }

    /// Skips a run of `byte`; returns its length.
    mutating func skip(_ byte: UInt8) -> Int {
        let start = i, word = UInt64(byte) &* 0x0101_0101_0101_0101
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while i + 8 <= bytes.count && raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) == word { i += 8 }
        }
        while i < bytes.count && bytes[i] == byte { i += 1 }
        return i - start
    }

    /// Takes `String(v)`: a minus sign for a negative `v`, then its digits.
    mutating func takeDecimal(_ v: Int64) -> Bool {
        var m = v.magnitude, n = v < 0 ? 2 : 1
        while m >= 10 { m /= 10; n += 1 }
        guard n <= bytes.count - i else { return false }
        if v < 0 && bytes[i] != UInt8(ascii: "-") { return false }
        m = v.magnitude
        var k = i + n
        repeat {
            k -= 1
            if bytes[k] != UInt8(ascii: "0") + UInt8(m % 10) { return false }
            m /= 10
        } while m > 0
        i += n
        return true
    }
}
