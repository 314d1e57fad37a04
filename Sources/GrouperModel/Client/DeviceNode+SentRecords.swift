/// The sender's record of every normal message it sent (to answer resends): the message's
/// handle in the run's `MessageRegistry` (which holds it anyway: senders hold their own
/// messages) and its polynomial seed, 16 bytes where a full `OutboxItem` copy took ~200.
struct SentRecord: Sendable {
    var handle: Int32
    var splitSeed: UInt64
}

extension DeviceNode {
    /// My normal messages at positions `range` of `sent` (index = sequence − 1), as the outbox
    /// items they were queued as (multicast, not a re-upload).
    func sentItems(_ range: Range<Int>) -> [OutboxItem] {
        sent[range].map {
            OutboxItem(message: stores.registry[$0.handle], splitSeed: $0.splitSeed, shareReceiver: nil, isReupload: false)
        }
    }
}
