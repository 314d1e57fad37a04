/// Zeller and Hildebrandt's ddmin: a 1-minimal subset of `items` for which `fails` holds,
/// given that it holds for `items`. Candidates are tested in a fixed order (the subsets, then
/// their complements) and `firstFailing` returns the index of the first one that fails, so the
/// result does not depend on how the caller evaluates them (one by one or several at once).
///
/// Complexity: O(|items|²) tests in the worst case, O(log |items|) when one item matters.
enum DeltaDebugging {
    static func minimize<T>(_ items: [T], firstFailing: ([[T]]) throws -> Int?) rethrows -> [T] {
        if try firstFailing([[]]) != nil { return [] }
        var current = items
        var parts = 2
        while current.count >= 2 {
            let chunks = split(current, into: parts)
            let complements = chunks.indices.map { i in chunks.indices.filter { $0 != i }.flatMap { chunks[$0] } }
            // Two chunks are each other's complements: test them once.
            let candidates = parts == 2 ? chunks : chunks + complements
            guard let hit = try firstFailing(candidates) else {
                if parts >= current.count { break }
                parts = min(parts * 2, current.count)
                continue
            }
            current = candidates[hit]
            parts = hit < chunks.count ? 2 : max(parts - 1, 2)
        }
        return current
    }

    /// `items` in `parts` contiguous, nearly equal chunks (the first ones one longer).
    static func split<T>(_ items: [T], into parts: Int) -> [[T]] {
        let base = items.count / parts, extra = items.count % parts
        var out: [[T]] = [], start = 0
        for i in 0..<parts {
            let len = base + (i < extra ? 1 : 0)
            out.append(Array(items[start..<(start + len)]))
            start += len
        }
        return out
    }
}
