/// A monotone event counter (messages sent, retries, failures).
///
/// Deliberately tiny: a named `Int64` that can only go up, so a report can never
/// mistake it for a gauge. Merging two counters adds them.
public struct Counter: Hashable, Codable, Sendable, CustomStringConvertible {
    /// Total so far; never negative.
    public private(set) var value: Int64

    public init(_ value: Int64 = 0) {
        precondition(value >= 0, "a Counter starts at a non-negative value")
        self.value = value
    }

    /// Adds one.
    public mutating func increment() { value &+= 1 }

    /// Adds `amount` (must be ≥ 0: counters never go down).
    public mutating func increment(by amount: Int64) {
        precondition(amount >= 0, "Counter.increment(by:) needs amount >= 0, got \(amount)")
        value &+= amount
    }

    /// Adds another counter (e.g. from another replication or component).
    public mutating func merge(_ other: Counter) { value &+= other.value }

    public var description: String { String(value) }
}
