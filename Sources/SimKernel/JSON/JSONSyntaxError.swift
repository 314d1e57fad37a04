/// A JSON syntax error: where (1-based line and column; the column counts Unicode scalars,
/// i.e. UTF-8 lead bytes) and what was wrong or expected there.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var reason: String

    public init(line: Int, column: Int, reason: String) {
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// The position of byte `offset` of `bytes` (offsets past the end mean "at the end").
    /// O(offset).
    public init(in bytes: [UInt8], at offset: Int, reason: String) {
        var line = 1, column = 1
        for b in bytes[..<min(max(offset, 0), bytes.count)] {
            if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
        }
        self.init(line: line, column: column, reason: reason)
    }

    public var description: String { "line \(line), column \(column): \(reason)" }
}

/// The kind of the next JSON value, as `JSONReader.peekKind()` sees it from its first byte.
public enum JSONValueKind: Equatable, Sendable {
    case object, array, string, number, bool, null

    /// "an object", "a string", …: for "expected X, got Y" messages.
    public var name: String {
        switch self {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        }
    }
}

/// A number literal as written, checked against the RFC 8259 grammar (`-?int frac? exp?`,
/// no leading zeros). Converting is left to the reader's caller: the message codec wants
/// exact `Int64`s, the scenario format doubles with their source text.
public struct JSONNumber: Equatable, Sendable {
    /// The literal exactly as written, e.g. `-2.50e3`.
    public var text: String
    /// True when the literal has neither a fraction nor an exponent.
    public var isInteger: Bool

    public init(text: String, isInteger: Bool) {
        self.text = text
        self.isInteger = isInteger
    }

    /// The value when it is an integer literal that fits in `Int64`, else nil
    /// (`1.0`, `1e3` and `9223372036854775808` are nil).
    public var int64: Int64? { isInteger ? Int64(text) : nil }

    /// The nearest `Double`, or nil when the literal overflows to infinity (e.g. `1e400`).
    /// Integers beyond 2^53 round (`9007199254740993` → 9007199254740992).
    public var double: Double? {
        guard let v = Double(text), v.isFinite else { return nil }
        return v
    }
}
