/// Scenario files write durations as strings with a unit (`"250ms"`, `"1.5s"`).
///
/// Bare numbers are rejected on purpose: `"timeout": 5` could mean seconds or
/// milliseconds, and a silent unit mix-up is the worst kind of scenario bug.
extension SimDuration: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            do {
                self = try SimDuration(parsing: text)
            } catch {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
            }
            return
        }
        if (try? container.decode(Double.self)) != nil {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "a duration must be a string with a unit (e.g. \"250ms\", \"1.5s\", \"10min\"); bare numbers are not allowed")
        }
        throw DecodingError.dataCorruptedError(
            in: container, debugDescription: "expected a duration string with a unit, e.g. \"250ms\"")
    }

    /// Encodes the exact short form (`description`), which parses back to the same value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// A time is written as its offset from the start of the run, in the duration form
/// (`"90s"` = 90 seconds after the start). Negative offsets are rejected.
extension SimTime: Codable {
    public init(from decoder: any Decoder) throws {
        let offset = try SimDuration(from: decoder)
        guard offset.nanoseconds >= 0 else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "a time must not be negative, got \(offset)"))
        }
        self.init(nanoseconds: offset.nanoseconds)
    }

    public func encode(to encoder: any Encoder) throws { try sinceStart.encode(to: encoder) }
}
