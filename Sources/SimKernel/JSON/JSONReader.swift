/// The project's one JSON reader: a pull cursor over UTF-8 bytes (RFC 8259, no extensions).
///
/// Callers walk the document themselves, so each keeps only what it needs: the message codec
/// reads one flat object and skips nested values, the scenario format builds a tree keeping
/// key order. Every read first skips whitespace, checks bounds and throws a
/// `JSONSyntaxError` (line, column, what was expected) on bad input; it never traps.
/// Invariants: strings are valid UTF-8 (escapes decoded, surrogate pairs joined, lone
/// surrogates rejected); at most `maxDepth` containers are open at once. Duplicate keys and
/// trailing text are the caller's policy (`finish()` rejects the latter).
///
/// Walking an object (an array is alike with `beginArray`/`nextElement`):
///
///     if try r.beginObject() {               // false for {}
///         repeat {
///             let key = try r.readKey()      // the key and its ':'
///             … read or skip the value …
///         } while try r.nextMember()         // ',' → true, '}' → false
///     }
///
/// Time O(bytes); error positions cost O(offset), only when thrown.
public struct JSONReader: Sendable {
    /// The text being read.
    public let bytes: [UInt8]
    /// Offset of the next unread byte.
    public internal(set) var position = 0
    /// Containers open now.
    public private(set) var depth = 0
    /// More open containers than this is an error (bounds recursion in callers too).
    public let maxDepth: Int

    public static let defaultMaxDepth = 200

    public init(bytes: [UInt8], maxDepth: Int = JSONReader.defaultMaxDepth) {
        precondition(maxDepth >= 1, "JSONReader: maxDepth must be at least 1")
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// An error at the current position.
    public func error(_ reason: String) -> JSONSyntaxError { error(reason, at: position) }

    /// An error at byte `offset`.
    public func error(_ reason: String, at offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(in: bytes, at: offset, reason: reason)
    }

    @inline(__always) var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    public mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// Skips whitespace and names the kind of the value that starts there (nothing consumed).
    public mutating func peekKind() throws(JSONSyntaxError) -> JSONValueKind {
        skipWhitespace()
        guard let b = peek else { throw error("unexpected end of input, expected a value") }
        switch b {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        default: throw error("unexpected \(Self.describe(b)), expected a value")
        }
    }

    /// After the document: only whitespace may follow.
    public mutating func finish() throws(JSONSyntaxError) {
        skipWhitespace()
        if position < bytes.count { throw error("unexpected text after the JSON value") }
    }

    /// `'x'` for printable ASCII, `byte 0xNN` otherwise (for messages about one byte).
    static func describe(_ b: UInt8) -> String {
        if b > 0x20 && b < 0x7F { return "character '\(Character(Unicode.Scalar(b)))'" }
        let hex = String(b, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count < 2 ? "0" : "") + hex
    }
}

extension JSONReader {
    /// Consumes `{` (or throws "expected an object"); false when the object is empty (then
    /// its `}` is consumed too), true when members follow.
    public mutating func beginObject() throws(JSONSyntaxError) -> Bool {
        try open(UInt8(ascii: "{"), UInt8(ascii: "}"), "an object")
    }

    /// Consumes `[`; false when the array is empty (`]` consumed), true when elements follow.
    public mutating func beginArray() throws(JSONSyntaxError) -> Bool {
        try open(UInt8(ascii: "["), UInt8(ascii: "]"), "an array")
    }

    /// A member's key and the `:` after it.
    public mutating func readKey() throws(JSONSyntaxError) -> String {
        skipWhitespace()
        guard peek == UInt8(ascii: "\"") else { throw error("expected a key in double quotes") }
        let key = try readString()
        skipWhitespace()
        guard peek == UInt8(ascii: ":") else { throw error("expected ':' after key \(JSONString.quoted(key))") }
        position += 1
        return key
    }

    /// After a member's value: `,` → true (another member follows), `}` → false (closed).
    public mutating func nextMember() throws(JSONSyntaxError) -> Bool {
        try next(UInt8(ascii: "}"), "expected ',' or '}' in object")
    }

    /// After an element: `,` → true (another element follows), `]` → false (closed).
    public mutating func nextElement() throws(JSONSyntaxError) -> Bool {
        try next(UInt8(ascii: "]"), "expected ',' or ']' in array")
    }

    /// Reads and discards one value of any kind, checking its syntax (nesting included).
    public mutating func skipValue() throws(JSONSyntaxError) {
        switch try peekKind() {
        case .object:
            guard try beginObject() else { return }
            repeat { _ = try readKey(); try skipValue() } while try nextMember()
        case .array:
            guard try beginArray() else { return }
            repeat { try skipValue() } while try nextElement()
        case .string: _ = try readString()
        case .number: _ = try readNumber()
        case .bool: _ = try readBool()
        case .null: try readNull()
        }
    }

    private mutating func open(_ opener: UInt8, _ closer: UInt8, _ what: String) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard peek == opener else { throw error("expected \(what)") }
        if depth == maxDepth { throw error("nesting deeper than \(maxDepth) levels") }
        depth += 1
        position += 1
        skipWhitespace()
        if peek == closer { position += 1; depth -= 1; return false }
        return true
    }

    private mutating func next(_ closer: UInt8, _ expected: String) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        switch peek {
        case UInt8(ascii: ","): position += 1; return true
        case closer: position += 1; depth -= 1; return false
        default: throw error(expected)
        }
    }
}
