import SimKernel
import SimJSON

/// A parsed JSON document that keeps object keys in file order and numbers with
/// their source text, so the scenario reader can report exact paths and values.
///
/// Our own parser (Foundation-free, RFC 8259) rather than `JSONSerialization`:
/// it keeps key order and duplicate keys (both reported), tells booleans from
/// numbers without `NSNumber` guesswork, and reports syntax errors by line and column.
public indirect enum JSONValue: Equatable, Sendable {
    case object([(key: String, value: JSONValue)])
    case array([JSONValue])
    case string(String)
    /// The value and its literal text (e.g. `3`, `2.50`, `1e3`).
    case number(Double, text: String)
    case bool(Bool)
    case null

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case let (.object(x), .object(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case let (.array(x), .array(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.number(x, _), .number(y, _)): return x == y
        case let (.bool(x), .bool(y)): return x == y
        case (.null, .null): return true
        default: return false
        }
    }

    /// Number literal for a Double: integral values print without a fraction.
    public static func number(_ v: Double) -> JSONValue {
        .number(v, text: NumberFormat.shortest(v))
    }

    /// A short rendering of the value for error messages (long values are cut).
    public var brief: String {
        let s = JSONWriter.compact(self)
        return s.count > 60 ? String(s.prefix(57)) + "..." : s
    }

    /// What kind of value this is.
    public var kind: JSONValueKind {
        switch self {
        case .object: return .object
        case .array: return .array
        case .string: return .string
        case .number: return .number
        case .bool: return .bool
        case .null: return .null
        }
    }

    /// What kind of value this is, for "expected X, got a Y" messages ("an object", …).
    public var kindName: String { kind.name }

    /// The member named `key` of an object (first occurrence), else nil.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.key == key })?.value
    }
}

/// Syntax errors come from SimJSON's reader; the alias keeps the name reachable
/// through `import Scenarios` alone.
public typealias JSONSyntaxError = SimJSON.JSONSyntaxError
