/// Time average of a piecewise-constant quantity (queue length, shares held, devices online).
///
/// The value holds from the time it is set until the next change. Times must not
/// decrease (precondition: it is a programmer error, as in the kernel itself).
/// The area is accumulated in value·nanoseconds as a Double; O(1) per change.
public struct TimeWeightedAverage: Hashable, Sendable {
    /// Value since `lastChange`.
    public private(set) var currentValue: Double
    /// Time of the last change (or the start).
    public private(set) var lastChange: SimTime
    /// Time the observation started.
    public let start: SimTime
    /// ∫ value dt from `start` to `lastChange`, in value·nanoseconds.
    public private(set) var areaNanos: Double = 0
    /// Smallest and largest values held (for a positive duration or current).
    public private(set) var min: Double
    public private(set) var max: Double

    public init(initialValue: Double = 0, at start: SimTime = .zero) {
        precondition(initialValue.isFinite, "TimeWeightedAverage: initial value must be finite")
        currentValue = initialValue; lastChange = start; self.start = start
        min = initialValue; max = initialValue
    }

    /// The quantity changes to `value` at `time`.
    public mutating func set(_ value: Double, at time: SimTime) {
        precondition(time >= lastChange, "TimeWeightedAverage: time moved backwards (\(time) < \(lastChange))")
        precondition(value.isFinite, "TimeWeightedAverage: value must be finite")
        areaNanos += currentValue * Double(time.nanoseconds - lastChange.nanoseconds)
        currentValue = value
        lastChange = time
        if value < min { min = value }
        if value > max { max = value }
    }

    /// The quantity changes by `delta` at `time` (e.g. +1 on arrival, −1 on departure).
    public mutating func add(_ delta: Double, at time: SimTime) { set(currentValue + delta, at: time) }

    /// ∫ value dt from `start` to `time` (≥ `lastChange`), in value·seconds.
    public func area(upTo time: SimTime) -> Double {
        precondition(time >= lastChange, "TimeWeightedAverage: query before the last change")
        return (areaNanos + currentValue * Double(time.nanoseconds - lastChange.nanoseconds)) / 1e9
    }

    /// Time average from `start` to `time`; the current value when no time has passed.
    public func average(upTo time: SimTime) -> Double {
        let span = time.nanoseconds - start.nanoseconds
        guard span > 0 else { return currentValue }
        return area(upTo: time) * 1e9 / Double(span)
    }
}
