/// Error for a duration string that does not parse.
public struct DurationParseError: Error, Equatable, CustomStringConvertible, Sendable {
    public let input: String
    public let reason: String
    public var description: String {
        "invalid duration \"\(input)\": \(reason) (expected a number and a unit: ns, us, ms, s, min, h, d — e.g. 250ms, 1.5s, 10min, 2h, 1d)"
    }
}

enum DurationFormat {
    static let units: [(String, Int64)] = [
        ("d", 86_400_000_000_000), ("h", 3_600_000_000_000), ("min", 60_000_000_000),
        ("s", 1_000_000_000), ("ms", 1_000_000), ("us", 1_000), ("ns", 1),
    ]

    static func format(_ d: SimDuration) -> String {
        let ns = d.nanoseconds
        if ns == 0 { return "0s" }
        let sign = ns < 0 ? "-" : ""
        let mag = ns.magnitude
        // "ns" has scale 1, so `first` always finds a unit that divides.
        let (name, scale) = units.first { mag % UInt64($0.1) == 0 }!
        return "\(sign)\(mag / UInt64(scale))\(name)"
    }
}

extension SimDuration {
    /// Parses `250ms`, `1.5s`, `10min`, `2h`, `1d`, `30us`, `5ns` (no spaces; an optional
    /// leading `-` so that every `description` parses back). Fractions are exact to the
    /// nanosecond; anything else is an error naming the string.
    public init(parsing text: String) throws(DurationParseError) {
        if text.hasPrefix("-") {
            let magnitude: SimDuration
            do { magnitude = try SimDuration(parsing: String(text.dropFirst())) } catch {
                throw DurationParseError(input: text, reason: error.reason)
            }
            guard !text.dropFirst().hasPrefix("-") else { throw DurationParseError(input: text, reason: "malformed number") }
            self.init(nanoseconds: -magnitude.nanoseconds)
            return
        }
        try self.init(parsingUnsigned: text)
    }

    init(parsingUnsigned text: String) throws(DurationParseError) {
        let digits = text.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let unit = String(text.dropFirst(digits.count))
        guard !digits.isEmpty else { throw DurationParseError(input: text, reason: "no number") }
        guard let scale = DurationFormat.units.first(where: { $0.0 == unit })?.1 else {
            throw DurationParseError(input: text, reason: unit.isEmpty ? "missing unit" : "unknown unit \"\(unit)\"")
        }
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, !parts[0].isEmpty || parts.count == 2,
              parts.allSatisfy({ $0.count <= 18 }), !(parts.count == 2 && parts[1].isEmpty)
        else { throw DurationParseError(input: text, reason: "malformed number") }
        let whole = Int64(parts[0].isEmpty ? "0" : String(parts[0]))!
        var total = whole.multipliedReportingOverflow(by: scale)
        guard !total.overflow else { throw DurationParseError(input: text, reason: "too large") }
        if parts.count == 2 {
            // fraction * scale, exact when it lands on whole nanoseconds
            let fracDigits = String(parts[1])
            var num = Int64(fracDigits)!
            var den: Int64 = 1
            for _ in 0..<fracDigits.count { den *= 10 }
            // reduce to keep num * scale in range
            let g = gcd(num, den); num /= max(g, 1); den /= max(g, 1)
            let (p, o) = num.multipliedReportingOverflow(by: scale)
            guard !o, p % den == 0 else {
                throw DurationParseError(input: text, reason: "not a whole number of nanoseconds")
            }
            total = total.partialValue.addingReportingOverflow(p / den)
            guard !total.overflow else { throw DurationParseError(input: text, reason: "too large") }
        }
        self.init(nanoseconds: total.partialValue)
    }
}

private func gcd(_ a: Int64, _ b: Int64) -> Int64 {
    var (x, y) = (a, b)
    while y != 0 { (x, y) = (y, x % y) }
    return x
}
