/// The parameters f(k, n, s) of a group: any k of the n shares rebuild a message, and an
/// upload counts once s servers stored their share.
///
/// The rule 1 ≤ k ≤ s ≤ n ≤ 255 is written here once: the scenario reader, `SystemConfig`
/// and the server's `initialise` call all ask `violations`, and a value exists only when the
/// rule holds.
public struct ShareThreshold: Equatable, Hashable, Sendable, CustomStringConvertible {
    public let k: Int
    public let n: Int
    public let s: Int

    /// The rule as the error messages quote it.
    public static let rule = "1 ≤ k ≤ s ≤ n ≤ 255"

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
        if n > 255 || n < 1 { out.append(Violation(parameter: "n", message: "got \(n), expected 1 ≤ n ≤ 255; the rule is \(rule)")) }
        return out
    }

    /// A checked f(k, n, s); throws the first broken part of the rule.
    public init(k: Int, n: Int, s: Int) throws(Violation) {
        if let v = Self.violations(k: k, n: n, s: s).first { throw v }
        self.k = k; self.n = n; self.s = s
    }

    /// This threshold on `n` servers (1...255): s, then k, lowered to fit.
    public func onServers(_ n: Int) -> ShareThreshold {
        precondition((1...255).contains(n), "n must be in 1...255, got \(n)")
        let s = Swift.min(self.s, n)
        return ShareThreshold(unchecked: Swift.min(k, s), n, s)
    }

    private init(unchecked k: Int, _ n: Int, _ s: Int) { self.k = k; self.n = n; self.s = s }

    public var description: String { "f(\(k),\(n),\(s))" }
}
