/// Why bytes could not be decoded as a `GrouperMessage`; the message names the field.
public enum MessageDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not UTF-8 JSON, or not a JSON object at the top level.
    case invalidJSON(String)
    /// A required key is absent.
    case missingField(String)
    /// A key holds the wrong JSON type (`expected` says which).
    case wrongType(field: String, expected: String)
    /// The value has the right type but is not allowed (e.g. an unknown `type`).
    case invalidValue(field: String, reason: String)

    public var description: String {
        switch self {
        case let .invalidJSON(why): return "not a Grouper message: \(why)"
        case let .missingField(f): return "Grouper message lacks the required field \"\(f)\""
        case let .wrongType(f, expected): return "Grouper message field \"\(f)\" must be \(expected)"
        case let .invalidValue(f, reason): return "Grouper message field \"\(f)\" is invalid: \(reason)"
        }
    }
}
