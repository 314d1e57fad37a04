import SimKernel

/// A share as `transfer/get` returns it.
///
/// A value type whose fields live in one shared, copy-on-write box (as `GrouperMessage`):
/// the server builds each stored share's download once, when the share is put, and every
/// `transfer/get` of it hands out that box, so a reply, its event and the receiver's loop
/// copy one reference per share instead of two strings and an array (three retains and
/// three releases). A setter copies the box first if it is shared, so values behave as
/// plain structs do.
public struct ShareDownload: Sendable {
    final class Fields: @unchecked Sendable {
        // Mutated only through `ShareDownload`'s setters, and only while uniquely referenced.
        // The fields a reply and its receiver read per share come first, beside the reference
        // count a get's retain touches; the strings and the share's buffer reference after them.
        var shareID: Int
        var saveAt: SimTime
        /// `share`'s buffer address (`ShareBuffers.address`) and byte count, read without loading the buffer.
        private(set) var shareAddress: UInt
        private(set) var shareCount: Int32
        var messageNumber: Int32
        var messageID: String
        var sender: String
        var share: [UInt8] {
            didSet { shareAddress = ShareBuffers.address(share); shareCount = Int32(share.count) }
        }

        init(shareID: Int, messageID: String, sender: String, share: [UInt8], saveAt: SimTime, messageNumber: Int32) {
            self.shareID = shareID; self.messageID = messageID; self.sender = sender; self.share = share
            self.saveAt = saveAt; self.messageNumber = messageNumber
            shareAddress = ShareBuffers.address(share)
            shareCount = Int32(share.count)
        }

        func copy() -> Fields {
            Fields(shareID: shareID, messageID: messageID, sender: sender, share: share, saveAt: saveAt,
                   messageNumber: messageNumber)
        }
    }

    private var fields: Fields

    private mutating func unique() -> Fields {
        if !isKnownUniquelyReferenced(&fields) { fields = fields.copy() }
        return fields
    }

    public var shareID: Int { get { fields.shareID } set { unique().shareID = newValue } }
    public var messageID: String { get { fields.messageID } set { unique().messageID = newValue } }
    /// The sender's node id.
    public var sender: String { get { fields.sender } set { unique().sender = newValue } }
    public var share: [UInt8] { get { fields.share } set { unique().share = newValue } }
    public var saveAt: SimTime { get { fields.saveAt } set { unique().saveAt = newValue } }
    /// `ShareUpload.messageNumber` of the put that stored the share (−1: not known).
    public var messageNumber: Int32 { get { fields.messageNumber } set { unique().messageNumber = newValue } }
    /// The address of `share`'s buffer, which this value keeps alive: two values with equal
    /// addresses hold the very same buffer (`ShareBuffers.identical`). Read from the box, not the buffer.
    var shareAddress: UInt { fields.shareAddress }
    /// `share.count`, read from the box, not the buffer (a reply's wire size).
    var shareCount: Int { Int(fields.shareCount) }

    /// Bytes of one box (for `RetainedState`): object header and fields, not the strings' or share's storage.
    static var boxBytes: Int { 16 + 8 + 8 + 8 + 4 + 4 + 2 * MemoryLayout<String>.stride + 8 }

    public init(shareID: Int, messageID: String, sender: String, share: [UInt8], saveAt: SimTime, messageNumber: Int32 = -1) {
        fields = Fields(shareID: shareID, messageID: messageID, sender: sender, share: share, saveAt: saveAt,
                        messageNumber: messageNumber)
    }
}

extension ShareDownload: Equatable {
    /// Field by field, as a synthesized `==` of the fields would.
    public static func == (a: ShareDownload, b: ShareDownload) -> Bool {
        if a.fields === b.fields { return true }
        let x = a.fields, y = b.fields
        return x.shareID == y.shareID && x.messageID == y.messageID && x.sender == y.sender && x.share == y.share
            && x.saveAt == y.saveAt && x.messageNumber == y.messageNumber
    }
}
