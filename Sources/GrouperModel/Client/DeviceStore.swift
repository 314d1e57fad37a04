import SimKernel

/// How a device keeps its store on flash (docs/architectures.md).
public enum AtRestMode: String, Codable, CaseIterable, Sendable {
    /// Plaintext files: a stolen device exposes every object it holds.
    case plain
    /// AES-256-CBC, incremental: each object (each chunk of a chunked object) is encrypted as it
    /// is written, so at most one chunk per object is plaintext in memory at a time; the key comes
    /// from one PBKDF2 derivation per device start and is kept in the platform key store.
    case aes256CBC = "aes256-cbc"
}

/// The device store option of a scenario (`"device_store"`).
public struct DeviceStoreConfig: Codable, Equatable, Sendable {
    public var atRest: AtRestMode
    /// PBKDF2 iterations of the key derivation at each device start (RNCryptor's v3 format,
    /// the modelled store's, derives its keys with 10 000).
    public var kdfIterations: Int

    public static let defaultKDFIterations = 10_000

    public init(atRest: AtRestMode = .plain, kdfIterations: Int = defaultKDFIterations) {
        self.atRest = atRest; self.kdfIterations = kdfIterations
    }
}

extension DeviceProfile {
    /// CPU time of encrypting or decrypting `bytes` with AES-256-CBC.
    public func atRestTime(bytes: Int) -> SimDuration { .nanoseconds(Int64((Double(bytes) * nanosPerAESByte).rounded())) }
    /// CPU time of one PBKDF2 derivation of `iterations`.
    public func keyDerivationTime(iterations: Int) -> SimDuration {
        .nanoseconds(Int64((Double(iterations) * nanosPerKDFIteration).rounded()))
    }
}

extension DeviceNode {
    /// Encrypts `bytes` written to an encrypted store (nothing for a plain store: `bytes` is
    /// not computed then, so a plain store reads no content).
    func chargeAtRest(bytes: @autoclosure () -> Int, _ out: some EffectSink) {
        guard config.deviceStore.atRest == .aes256CBC else { return }
        out.cpu(config.device.atRestTime(bytes: bytes()))
    }


    /// The key derivation of a device start (the run's start, and every return online: the app
    /// launches again) for an encrypted store.
    func deriveStoreKey(_ out: some EffectSink) {
        guard config.deviceStore.atRest == .aes256CBC else { return }
        out.cpu(config.device.keyDerivationTime(iterations: config.deviceStore.kdfIterations))
    }

    /// Plaintext bytes a stolen device exposes now: with a plain store, the payload bytes of
    /// every live object (the size written: a chunked object's full size, not the JSON record
    /// around it, as for a central device) and of the chunks held for objects not complete yet;
    /// with an encrypted store, none (the key is in the key store, not on the flash).
    var plaintextBytesAtRest: Int {
        var sizes = FillerSizeMemo()
        return plaintextBytesAtRest(&sizes)
    }

    /// `plaintextBytesAtRest`, filler sizes read through `sizes` (shared by the devices of a run).
    func plaintextBytesAtRest(_ sizes: inout FillerSizeMemo) -> Int {
        guard config.deviceStore.atRest == .plain else { return 0 }
        let live = zip(store.storedIDs, store.storedObjects).reduce(0) { sum, entry in
            guard let c = entry.1.content else { return sum }
            return sum + Self.payloadBytes(c, objectID: entry.0, version: entry.1.version, sizes: &sizes)
        }
        return live + chunks.heldBytes
    }

    /// The payload size of a stored object's content: a chunked object's size, the filler of a
    /// record `NewestVersionWinsStore.marshall` wrote, or (any other content) its UTF-8 length.
    static func payloadBytes(_ content: String, objectID: String, version: ObjectVersion) -> Int {
        var sizes = FillerSizeMemo()
        return payloadBytes(content, objectID: objectID, version: version, sizes: &sizes)
    }

    static func payloadBytes(_ content: String, objectID: String, version: ObjectVersion, sizes: inout FillerSizeMemo) -> Int {
        if let size = ChunkRecord.objectSize(content) { return size }
        if let n = sizes.fillerSize(of: content, objectID: objectID, updater: version.sender, time: version.time) {
            return Int(n)
        }
        return content.utf8.count
    }
}
