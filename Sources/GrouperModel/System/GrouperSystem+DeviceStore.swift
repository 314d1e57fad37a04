import SimKernel

extension GrouperSystem {
    /// `device_plaintext_bytes`: the mean over members, now, of the plaintext bytes a stolen
    /// device would expose (`DeviceNode.plaintextBytesAtRest`); nil without members.
    public var devicePlaintextBytesMean: Double? {
        let members = world.deviceNodes.filter(\.isMember)
        guard !members.isEmpty else { return nil }
        var sizes = FillerSizeMemo()   // the members hold the same contents
        return Double(members.reduce(0) { $0 + $1.plaintextBytesAtRest(&sizes) }) / Double(members.count)
    }

    /// The version of `objectID` device `d` holds now (a tombstone's too); nil if it never held one.
    public func storedVersion(device d: Int, objectID: String) -> ObjectVersion? {
        world.deviceNodes[d].store.entry(objectID)?.version
    }

    /// When device `d` became a member (nil: not a member).
    public func joinedAt(device d: Int) -> SimTime? { world.deviceNodes[d].joinedAt }

    /// Objects device `d` holds complete (not tombstones), and chunks it holds of incomplete ones.
    public func chunkState(device d: Int) -> (objects: Int, pendingChunkBytes: Int) {
        let node = world.deviceNodes[d]
        return (node.store.liveObjects.count, node.chunks.heldBytes)
    }
}

extension CentralSystem {
    /// The version of `objectID` device `d` holds now (a tombstone's too); nil if it never held one.
    public func storedVersion(device d: Int, objectID: String) -> ObjectVersion? {
        world.deviceNodes[d].store[objectID]?.version
    }

    /// When device `d` became a member (nil: not a member).
    public func joinedAt(device d: Int) -> SimTime? { world.joinedAt[d] }

    /// `device_plaintext_bytes` of a central run (see `GrouperSystem.devicePlaintextBytesMean`).
    public var devicePlaintextBytesMean: Double? {
        let members = world.deviceNodes.filter(\.isMember)
        guard !members.isEmpty else { return nil }
        return Double(members.reduce(0) { $0 + $1.plaintextBytesAtRest }) / Double(members.count)
    }
}
