/// The parameters f(k, n, s) of a group: any k of the n shares rebuild a message, and an
/// upload counts once s servers stored their share.
///
/// The rule 1 ≤ k ≤ s ≤ n ≤ 255 is written here once: the scenario reader and `SystemConfig`
/// carry a value of this type, the server's `initialise` call asks `violations`, and a value
/// exists only when the rule holds. Its (k, n) part, 1 ≤ k ≤ n ≤ 255, is what a split or join needs (no upload
/// quorum there): the sharing schemes ask `sharingViolations`.
public struct ShareThreshold: Equatable, Hashable, Sendable, CustomStringConvertible {
    public let k: Int
    public let n: Int
    public let s: Int

    /// The rule as the error messages quote it.
    public static let rule = "1 ≤ k ≤ s ≤ n ≤ 255"
    /// The rule of a split or join (no s), as the error messages quote it.
    public static let sharingRule = "1 ≤ k ≤ n ≤ 255"
    /// Largest n: x-coordinates are one byte and x = 0 is the secret.
    public static let maxShares = 255

    /// One broken part of the rule: the parameter to blame and what was expected of it.
    public struct Violation: Error, Equatable, Sendable, CustomStringConvertible {
        public var parameter: String
        public var message: String
        public var description: String { "\(parameter): \(message)" }
    }

    /// Every broken part of the rule, lowest parameter first; empty when it holds.
    public static func violations(k: Int, n: Int, s: Int) -> [Violation] {
        var out: [Violation] = []
        if k < 1 { out.append(Violation(parameter: "k", message: "got \(k), expected k ≥ 1; the rule is \(rule)")) }
        if k > s { out.append(Violation(parameter: "k", message: "got \(k), expected k ≤ s (s = \(s)); the rule is \(rule)")) }
        if s > n { out.append(Violation(parameter: "s", message: "got \(s), expected s ≤ n (n = \(n)); the rule is \(rule)")) }
        if let v = nViolation(n, rule) { out.append(v) }
        return out
    }

    /// Every broken part of the (k, n) rule of a split or join, 1 ≤ k ≤ n ≤ 255, lowest first.
    public static func sharingViolations(k: Int, n: Int) -> [Violation] {
        var out: [Violation] = []
        if k < 1 { out.append(Violation(parameter: "k", message: "got \(k), expected k ≥ 1; the rule is \(sharingRule)")) }
        if k > n { out.append(Violation(parameter: "k", message: "got \(k), expected k ≤ n (n = \(n)); the rule is \(sharingRule)")) }
        if let v = nViolation(n, sharingRule) { out.append(v) }
        return out
    }

    private static func nViolation(_ n: Int, _ rule: String) -> Violation? {
        guard n > maxShares || n < 1 else { return nil }
        return Violation(parameter: "n", message: "got \(n), expected 1 ≤ n ≤ \(maxShares) (x is one byte); the rule is \(rule)")
    }

    /// A checked f(k, n, s); throws the first broken part of the rule.
    public init(k: Int, n: Int, s: Int) throws(Violation) {
        if let v = Self.violations(k: k, n: n, s: s).first { throw v }
        self.k = k; self.n = n; self.s = s
    }

    /// This threshold on `n` servers (1...255): s, then k, lowered to fit.
    public func onServers(_ n: Int) -> ShareThreshold {
        precondition(Self.nViolation(n, Self.rule) == nil, "n must be in 1...\(Self.maxShares), got \(n)")
        let s = Swift.min(self.s, n)
        return ShareThreshold(unchecked: Swift.min(k, s), n, s)
    }

    /// f(2, 3, 3): the default of `SystemConfig` (tests and library use).
    public static let f233 = ShareThreshold(unchecked: 2, 3, 3)

    private init(unchecked k: Int, _ n: Int, _ s: Int) { self.k = k; self.n = n; self.s = s }

    public var description: String { "f(\(k),\(n),\(s))" }
}
