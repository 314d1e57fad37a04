import Foundation

/// The decoded form of recently rebuilt secrets, shared by every device of a run.
///
/// Every receiver rebuilds the same bytes for a message and decoding them is a pure function,
/// so the first device to rebuild a message decodes it and later ones reuse that value after
/// checking that their bytes are equal (a tampered or garbled rebuild has other bytes and is
/// decoded on its own). Direct-mapped on the message's dense id number with a fixed number of
/// slots, so memory does not grow with the run; a slot is overwritten by a later message with
/// the same number modulo the size. A sender's split bytes are recorded with the message
/// they encode (`sent`), so the first receiver of an intact message decodes nothing either.
/// Lookups change only speed, never a result. Single-threaded, one per run.
final class DecodedMessageCache {
    private struct Slot {
        var number: Int32 = -1
        var bytes: [UInt8] = []
        /// nil: the bytes did not decode.
        var message: GrouperMessage?
        /// `bytes` are `message.encoded()` (recorded by `sent`, not only decoded from).
        var encodedBySender = false
    }

    static let slotCount = 4096
    private var slots = [Slot](repeating: Slot(), count: slotCount)
    private(set) var hits = 0
    private(set) var misses = 0

    /// `GrouperMessage.decode(bytes)` (nil if it throws), decoded at most once while the slot of
    /// message id `number` holds the same bytes.
    func decode(_ bytes: [UInt8], number: Int32) -> GrouperMessage? {
        let i = Int(number) & (Self.slotCount - 1)
        if slots[i].number == number && ByteArrays.equal(slots[i].bytes, bytes) {
            hits += 1
            slots[i].bytes = bytes   // the receivers' buffer (shared with the join), not a sender's copy
            return slots[i].message
        }
        misses += 1
        let m = try? GrouperMessage.decode(bytes)
        slots[i] = Slot(number: number, bytes: bytes, message: m)
        return m
    }

    /// Records that `bytes` are `m.encoded()`, the secret a sender splits for message id
    /// `number`: a later `decode` of the same bytes returns `m`, which is what decoding them
    /// returns, except for a sequence outside 0...Int32.max (decoding refuses it), which is not
    /// recorded. A slot that holds the same bytes a sender encoded keeps its message (equal
    /// encodings, equal messages): a re-upload, read back from the registry into a new box,
    /// leaves receivers the box every earlier holder shares (`HeldMemo` remembers it).
    func sent(_ m: GrouperMessage, bytes: [UInt8], number: Int32) {
        guard m.sequence >= 0 && m.sequence <= Int(Int32.max) else { return }
        let i = Int(number) & (Self.slotCount - 1)
        if slots[i].number == number && slots[i].encodedBySender && slots[i].message != nil
            && ByteArrays.equal(slots[i].bytes, bytes) { return }
        slots[i] = Slot(number: number, bytes: bytes, message: m, encodedBySender: true)
    }

    /// `m.encoded()` if the slot of message id `number` holds a message equal to `m` with the
    /// bytes a sender encoded it to (`sent`), else nil: a re-upload encodes its message again,
    /// and `encoded()` depends only on the fields `==` compares.
    func encoded(_ m: GrouperMessage, number: Int32) -> [UInt8]? {
        let i = Int(number) & (Self.slotCount - 1)
        guard slots[i].number == number, slots[i].encodedBySender, let old = slots[i].message, old == m else { return nil }
        return slots[i].bytes
    }
}
