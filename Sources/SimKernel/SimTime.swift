/// Virtual time: integer nanoseconds since the start of a run.
///
/// Only the kernel advances time, and it never moves backwards. Nothing in the
/// kernel or the model reads the host's clock.
public struct SimTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the start of the run (never negative inside a run).
    public var nanoseconds: Int64

    @inlinable public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static let zero = SimTime(nanoseconds: 0)
    /// Larger than any reachable time; useful as "never".
    public static let distantFuture = SimTime(nanoseconds: Int64.max)

    @inlinable public static func < (a: SimTime, b: SimTime) -> Bool { a.nanoseconds < b.nanoseconds }
    @inlinable public static func + (t: SimTime, d: SimDuration) -> SimTime {
        SimTime(nanoseconds: t.nanoseconds &+ d.nanoseconds)
    }
    @inlinable public static func - (t: SimTime, d: SimDuration) -> SimTime {
        SimTime(nanoseconds: t.nanoseconds &- d.nanoseconds)
    }
    @inlinable public static func - (a: SimTime, b: SimTime) -> SimDuration {
        SimDuration(nanoseconds: a.nanoseconds &- b.nanoseconds)
    }
    @inlinable public static func += (t: inout SimTime, d: SimDuration) { t = t + d }

    /// Time since start, as a duration.
    @inlinable public var sinceStart: SimDuration { SimDuration(nanoseconds: nanoseconds) }
    /// Seconds since start with the nanoseconds kept and trailing zeros trimmed:
    /// `t+0s`, `t+1.5s`, `t+10836.744617944s` (readable in logs and checker messages).
    public var description: String {
        let mag = nanoseconds.magnitude
        var frac = String(mag % 1_000_000_000)
        frac = String(repeating: "0", count: 9 - frac.count) + frac
        while frac.hasSuffix("0") { frac.removeLast() }
        return "t+" + (nanoseconds < 0 ? "-" : "") + "\(mag / 1_000_000_000)" + (frac.isEmpty ? "" : "." + frac) + "s"
    }
}

/// A span of virtual time in integer nanoseconds.
public struct SimDuration: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    @inlinable public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static let zero = SimDuration(nanoseconds: 0)

    @inlinable public static func nanoseconds(_ v: Int64) -> SimDuration { SimDuration(nanoseconds: v) }
    @inlinable public static func microseconds(_ v: Int64) -> SimDuration { SimDuration(nanoseconds: v * 1_000) }
    @inlinable public static func milliseconds(_ v: Int64) -> SimDuration { SimDuration(nanoseconds: v * 1_000_000) }
    @inlinable public static func seconds(_ v: Int64) -> SimDuration { SimDuration(nanoseconds: v * 1_000_000_000) }
    @inlinable public static func minutes(_ v: Int64) -> SimDuration { .seconds(v * 60) }
    @inlinable public static func hours(_ v: Int64) -> SimDuration { .seconds(v * 3_600) }
    @inlinable public static func days(_ v: Int64) -> SimDuration { .seconds(v * 86_400) }
    /// Whole seconds; this overload makes `.seconds(1)` (an `Int` literal) unambiguous.
    @inlinable public static func seconds(_ v: Int) -> SimDuration { .seconds(Int64(v)) }
    /// Fractional seconds, rounded to the nearest nanosecond.
    @inlinable public static func seconds(_ v: Double) -> SimDuration {
        SimDuration(nanoseconds: Int64((v * 1e9).rounded()))
    }

    @inlinable public var seconds: Double { Double(nanoseconds) / 1e9 }
    @inlinable public var milliseconds: Double { Double(nanoseconds) / 1e6 }

    @inlinable public static func < (a: SimDuration, b: SimDuration) -> Bool { a.nanoseconds < b.nanoseconds }
    @inlinable public static func + (a: SimDuration, b: SimDuration) -> SimDuration {
        SimDuration(nanoseconds: a.nanoseconds &+ b.nanoseconds)
    }
    @inlinable public static func - (a: SimDuration, b: SimDuration) -> SimDuration {
        SimDuration(nanoseconds: a.nanoseconds &- b.nanoseconds)
    }
    @inlinable public static func * (a: SimDuration, m: Int64) -> SimDuration {
        SimDuration(nanoseconds: a.nanoseconds &* m)
    }
    @inlinable public static func += (a: inout SimDuration, b: SimDuration) { a = a + b }

    /// Short human form: the largest unit that prints exactly, e.g. `250ms`, `1.5s`, `2h`.
    public var description: String { DurationFormat.format(self) }
}
