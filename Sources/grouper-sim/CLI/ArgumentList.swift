import Scenarios
/// Minimal, strict option parser: `--name value`, `--name=value`, `--flag`.
///
/// Every option a command does not consume is an error naming it (with a
/// did-you-mean), so a typo never silently falls back to a default.
public struct ArgumentList {
    public private(set) var remaining: [String]
    public let command: String

    public init(_ args: [String], command: String) {
        // Normalise --name=value into two tokens.
        var out: [String] = []
        for a in args {
            if a.hasPrefix("--"), let eq = a.firstIndex(of: "=") {
                out.append(String(a[..<eq])); out.append(String(a[a.index(after: eq)...]))
            } else { out.append(a) }
        }
        remaining = out
        self.command = command
    }

    /// Removes `--name` and returns whether it was present.
    public mutating func flag(_ name: String) -> Bool {
        guard let i = remaining.firstIndex(of: name) else { return false }
        remaining.remove(at: i)
        return true
    }

    /// Removes `--name value` and returns the raw value.
    public mutating func option(_ name: String) throws -> String? {
        guard let i = remaining.firstIndex(of: name) else { return nil }
        guard i + 1 < remaining.count, !remaining[i + 1].hasPrefix("--") else {
            throw CLIError("\(command): option \(name) needs a value")
        }
        let v = remaining[i + 1]
        remaining.removeSubrange(i...(i + 1))
        if remaining.contains(name) { throw CLIError("\(command): option \(name) given more than once") }
        return v
    }

    /// `--name N` as an integer within `range`.
    public mutating func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let raw = try option(name) else { return nil }
        guard let v = Int(raw.replacingOccurrences(of: "_", with: "")), range.contains(v) else {
            throw CLIError("\(command): \(name) must be an integer in \(range.lowerBound)...\(range.upperBound), got '\(raw)'")
        }
        return v
    }

    /// `--name S` as an unsigned 64-bit integer (seeds).
    public mutating func uint64(_ name: String) throws -> UInt64? {
        guard let raw = try option(name) else { return nil }
        guard let v = UInt64(raw) else {
            throw CLIError("\(command): \(name) must be an unsigned 64-bit integer, got '\(raw)'")
        }
        return v
    }

    /// Removes and returns the arguments that do not start with `-` (a lone `-` and negative
    /// numbers are positionals; `-j` is an option, left for `finish` to name).
    public mutating func positionals() -> [String] {
        let p = remaining.filter { !Self.looksLikeOption($0) }
        remaining.removeAll { !Self.looksLikeOption($0) }
        return p
    }

    static func looksLikeOption(_ a: String) -> Bool {
        a.hasPrefix("--") || (a.hasPrefix("-") && a.count > 1 && Double(a) == nil)
    }

    /// Throws if anything is left, naming it. `known` feeds the did-you-mean; a short `-x`
    /// suggests the long option(s) starting with x.
    public func finish(known: [String]) throws {
        guard let extra = remaining.first(where: { Self.looksLikeOption($0) }) ?? remaining.first else { return }
        var hint = didYouMean(extra, among: known)
        if hint.isEmpty, extra.count == 2, extra.hasPrefix("-") {
            let long = known.filter { $0.hasPrefix("-" + extra) }
            if !long.isEmpty { hint = " (did you mean \(long.map { "'\($0)'" }.joined(separator: " or "))?)" }
        }
        throw CLIError("\(command): unknown \(Self.looksLikeOption(extra) ? "option" : "argument") '\(extra)'\(hint)"
                       + " — see `grouper-sim \(command) --help`")
    }
}
