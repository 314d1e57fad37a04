/// Ascending id arrays whose front is forgotten by advancing a `head` index instead of
/// removing it (a server's per-user lists, a receiver's seen ids). Ids leave from the front
/// and join at the back, so without care the buffer holds a dead front and, after Swift's
/// doubling, up to about four times the live ids.
extension Array {
    /// Appends `id`; when the buffer is full, first moves the live ids `self[head...]` into a
    /// new buffer with room for a quarter as many again (and sets `head` to 0), so the capacity
    /// stays about 1.25× the most ids live at once. Amortized O(1): a move of L live ids
    /// buys room for L/4 appends. The ids (`self[head...]` after the call) are the same as
    /// with a plain append.
    mutating func append(_ id: Element, liveFrom head: inout Int) {
        if count == capacity {
            let live = count - head
            var fresh: [Element] = []
            fresh.reserveCapacity(Swift.max(16, live + live / 4 + 1))
            fresh.append(contentsOf: self[head...])
            self = fresh
            head = 0
        }
        append(id)
    }
}
