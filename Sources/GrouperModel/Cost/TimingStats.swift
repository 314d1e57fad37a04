import SimKernel

/// Running means of the transfer timings (`TransferTiming`) that started at or after `since`:
/// the per-run timing metrics without keeping one record per upload job and receive round.
///
/// Sums are added in the order the timings are recorded, exactly as a fold over the list of
/// records would, so the means are the same doubles (checked by the scenario tests that run
/// with `SystemConfig.compactState` off). Receive rounds that rebuilt nothing are left out,
/// as the download metrics do.
public struct TimingStats: Equatable, Sendable {
    /// Which part of a timing: the thesis's breakdown and the total.
    public enum Part: Int, CaseIterable, Sendable { case dataSync, secretSharing, network, total }

    public var since = SimTime.zero
    private var counts = [0, 0]
    private var sums = Array(repeating: 0.0, count: 8)

    public init() {}

    mutating func add(_ t: TransferTiming) {
        guard t.start >= since, t.direction == .upload || t.messages > 0 else { return }
        let d = t.direction == .upload ? 0 : 1
        counts[d] += 1
        for p in Part.allCases { sums[d * 4 + p.rawValue] += Self.value(t, p).seconds }
    }

    public static func value(_ t: TransferTiming, _ p: Part) -> SimDuration {
        switch p {
        case .dataSync: t.dataSync
        case .secretSharing: t.secretSharing
        case .network: t.network
        case .total: t.total
        }
    }

    /// The mean of `part` over the counted timings of `direction`; NaN when there are none.
    public func mean(_ direction: TransferDirection, _ part: Part) -> Double {
        let d = direction == .upload ? 0 : 1
        return counts[d] == 0 ? .nan : sums[d * 4 + part.rawValue] / Double(counts[d])
    }
}
