/// JSON string literals with the mandatory RFC 8259 escapes only (`"`, `\`, `\n`, `\r`,
/// `\t`, other control characters as `\u00xx`; `/` and non-ASCII are written as is).
///
/// The one escaper of the project: traces, result files and Grouper messages all use it,
/// so their bytes agree.
public enum JSONString {
    /// Appends `s` as a quoted JSON string to UTF-8 bytes. Runs of bytes that need no escape
    /// are copied in one piece (a message's content is hundreds of bytes with a few quotes);
    /// `appendByteByByte` is the plain form it must equal (`JSONStringTests`).
    @inlinable public static func append(_ s: String, to out: inout [UInt8]) {
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { appendQuoted($0, to: &out) }
        if done == nil { appendByteByByte(s, to: &out) }
    }

    /// `bytes` (UTF-8) as a quoted JSON string: escape-free runs appended whole, found eight
    /// bytes at a time (`mayNeedEscape`), each run copied from the buffer in one piece.
    @usableFromInline static func appendQuoted(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        if let base = bytes.baseAddress {
            let n = bytes.count
            var run = 0
            while true {
                let i = nextEscape(base, from: run, count: n)
                if run < i { out.append(contentsOf: UnsafeBufferPointer(start: base + run, count: i - run)) }
                if i == n { break }
                appendEscape(base[i], to: &out)
                run = i + 1
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The index of the first byte at or after `start` (of `n`) that needs an escape, or `n`: eight
    /// bytes at a time while `mayNeedEscape` finds none, then byte by byte within the word that
    /// alarmed. The one scan of `appendQuoted` and `writeQuoted`.
    @inline(__always) @usableFromInline
    static func nextEscape(_ base: UnsafePointer<UInt8>, from start: Int, count n: Int) -> Int {
        let raw = UnsafeRawPointer(base)
        var i = start
        while true {
            while i + 8 <= n && !mayNeedEscape(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { i += 8 }
            let stop = min(i + 8, n)
            while i < stop && !needsEscape(base[i]) { i += 1 }
            if i < stop || i == n { return i }
        }
    }

    /// Whether byte `b` must be escaped: a quote, a backslash or a control character.
    @inline(__always) @usableFromInline static func needsEscape(_ b: UInt8) -> Bool {
        b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\")
    }

    /// False only if none of the eight bytes of `w` needs an escape (true may be a false
    /// alarm: the caller then looks at the bytes one by one). A byte below 0x20 leaves the
    /// top bit set in `byte − 0x20` while its own top bit is clear; a quote or a backslash
    /// becomes a zero byte after the xor, which the same test with 0x01 finds. Bytes from
    /// 0x80 up (UTF-8 beyond ASCII) never alarm.
    @inline(__always) @usableFromInline static func mayNeedEscape(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
        let quote = w ^ (ones &* 0x22), backslash = w ^ (ones &* 0x5C)
        let control = (w &- ones &* 0x20) & ~w
        let q = (quote &- ones) & ~quote, b = (backslash &- ones) & ~backslash
        return (control | q | b) & high != 0
    }

    /// The plain escaper: one byte at a time.
    public static func appendByteByByte(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            if b >= 0x20 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") { out.append(b) } else { appendEscape(b, to: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The escape of a quote, a backslash or a control character.
    @usableFromInline static func appendEscape(_ b: UInt8, to out: inout [UInt8]) {
        switch b {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(b)
        case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
        default:
            out.append(contentsOf: "\\u00".utf8)
            out.append(hexDigit(b >> 4)); out.append(hexDigit(b & 15))
        }
    }

    /// `s` as a quoted JSON string.
    public static func quoted(_ s: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.utf8.count + 2)
        append(s, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @inlinable static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 + v : 0x57 + v }
}

extension JSONString {
    /// Writes `s` as a quoted JSON string at `p` — exactly the bytes `append` would append,
    /// at most `6 * s.utf8.count + 2` — and returns the end, or nil (nothing written) if `s`
    /// has no contiguous UTF-8 storage.
    @inlinable public static func write(_ s: String, to p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8>? {
        s.utf8.withContiguousStorageIfAvailable { writeQuoted($0, to: p) }
    }

    @usableFromInline static func writeQuoted(_ bytes: UnsafeBufferPointer<UInt8>,
                                              to start: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var p = start
        p.pointee = UInt8(ascii: "\"")
        p += 1
        if let base = bytes.baseAddress {
            let n = bytes.count
            var run = 0
            while true {
                let i = nextEscape(base, from: run, count: n)
                p.initialize(from: base + run, count: i - run)
                p += i - run
                if i == n { break }
                p = writeEscape(base[i], to: p)
                run = i + 1
            }
        }
        p.pointee = UInt8(ascii: "\"")
        return p + 1
    }

    /// `appendEscape` at `p`; returns the end.
    @usableFromInline static func writeEscape(_ b: UInt8, to p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        p[0] = UInt8(ascii: "\\")
        switch b {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): p[1] = b
        case 0x0A: p[1] = UInt8(ascii: "n")
        case 0x0D: p[1] = UInt8(ascii: "r")
        case 0x09: p[1] = UInt8(ascii: "t")
        default:
            p[1] = UInt8(ascii: "u"); p[2] = UInt8(ascii: "0"); p[3] = UInt8(ascii: "0")
            p[4] = hexDigit(b >> 4); p[5] = hexDigit(b & 15)
            return p + 6
        }
        return p + 2
    }
}
