/// Buffers of the receive round that a large catch-up round (a device back after a long
/// offline stretch fetches thousands of shares at once) would otherwise keep at their largest
/// size for the rest of the run: Swift arrays and dictionaries never give capacity back.
extension DeviceNode {
    /// Capacity a round buffer may keep beyond what is in it.
    static let roundBufferSlack = 512

    /// After a round's rebuilds: drops the touched ids' buffer and rebuilds the partial-message
    /// table when their capacity is far above what is live. Only storage changes: `touched`
    /// is empty here and `partial` keeps the same entries (nothing reads its order).
    func trimRoundBuffers() {
        if touched.capacity > Self.roundBufferSlack { touched = [] }
        if partial.capacity > 4 * Swift.max(Self.roundBufferSlack / 4, partial.count) {
            partial = partial.compacted()
        }
    }
}
