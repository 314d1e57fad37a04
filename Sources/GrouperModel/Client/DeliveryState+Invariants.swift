extension DeliveryState {
    /// Checks Algorithm 1's bookkeeping; returns the first violation, nil when all hold.
    /// O(state); for tests and flag-gated debug runs (`GrouperSystem.checksInvariants`).
    ///
    /// - `contiguous` is never negative;
    /// - every sequence kept above the contiguous prefix is beyond its successor (the
    ///   successor itself would have extended the prefix);
    /// - no sender keeps an empty `above` set, and every asked range is non-empty and above 0.
    public func _checkInvariants() -> String? {
        for (sender, c) in contiguous.sorted(by: { $0.key < $1.key }) where c < 0 {
            return "contiguous[\(sender)] = \(c)"
        }
        for (sender, seqs) in above.sorted(by: { $0.key < $1.key }) {
            let c = highestContiguous(from: sender)
            if seqs.isEmpty { return "an empty set of sequences above the prefix is kept for \(sender)" }
            if let low = seqs.min(), low <= c + 1 {
                return "sequence \(low) of \(sender) is kept above the contiguous prefix \(c)"
            }
        }
        for (sender, ask) in lastAsk.sorted(by: { $0.key < $1.key }) where ask.range.lowerBound < 1 {
            return "asked \(sender) for \(ask.range)"
        }
        return nil
    }
}
