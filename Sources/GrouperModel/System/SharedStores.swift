import SimKernel

/// The message stores every device of a run shares: one copy of each message held
/// (`registry`), the first message held under each (sender, sequence) (`heldIndex`), and the
/// receiver's plain or memoised steps (`pipeline`, speed only), and the costed sizes of chunk
/// messages (`costedBytes`, read by the servers for wire sizes).
final class SharedStores {
    let registry: MessageRegistry
    let heldIndex: HeldIndex
    let pipeline: any ReceivePipeline
    /// `pipeline.listsByGeneration`, read once: a list reply reads a stored flag instead of
    /// calling through the existential (a retain and a release per list).
    let listsByGeneration: Bool
    /// Costed bytes of chunk messages (`ChunkingConfig`) by message id; empty without chunking.
    var costedBytes: [String: Int] = [:]
    private let scheme: SharingSchemeKind

    init(directory: GroupDirectory) {
        scheme = directory.config.scheme
        let registry = MessageRegistry(), heldIndex = HeldIndex()
        self.registry = registry
        self.heldIndex = heldIndex
        pipeline = directory.config.compactState
            ? MemoisedPipeline(scheme: directory.scheme, registry: registry, heldIndex: heldIndex)
            : PlainPipeline(scheme: directory.scheme, registry: registry, heldIndex: heldIndex)
        listsByGeneration = pipeline.listsByGeneration
    }

    /// Costed bytes of message `id` (0 for a message that carries all its bytes).
    func costed(_ id: String) -> Int { costedBytes.isEmpty ? 0 : costedBytes[id] ?? 0 }

    /// Wire bytes of the costed part of the shares a reply carries.
    func costedWireBytes(_ result: Result<ServerReply, ServerError>) -> Int {
        guard !costedBytes.isEmpty, case .success(.shares(let ss)) = result else { return 0 }
        return ss.reduce(0) { $0 + WireSize.shareText(costed($1.messageID), scheme: scheme) }
    }
}
