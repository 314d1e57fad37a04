/// One slot per server for a partial message's shares: server j's share and its share id, if
/// one came. The first four slots are stored inline, so a partial message of a group with at
/// most four servers allocates nothing for them (an array per message cost an allocation, and
/// its generic setup, per rebuilt message and device); further servers go to one array.
struct ShareSlots: RandomAccessCollection, Sendable {
    typealias Slot = CollectedShare?
    static let inline = 4
    private var s0: Slot = nil, s1: Slot = nil, s2: Slot = nil, s3: Slot = nil
    private var more: [Slot]
    let count: Int

    init(servers: Int) {
        count = servers
        more = servers > Self.inline ? Array(repeating: nil, count: servers - Self.inline) : []
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(j: Int) -> Slot {
        get {
            precondition(j >= 0 && j < count, "server index out of range")
            switch j {
            case 0: return s0
            case 1: return s1
            case 2: return s2
            case 3: return s3
            default: return more[j - Self.inline]
            }
        }
        set {
            precondition(j >= 0 && j < count, "server index out of range")
            switch j {
            case 0: s0 = newValue
            case 1: s1 = newValue
            case 2: s2 = newValue
            case 3: s3 = newValue
            default: more[j - Self.inline] = newValue
            }
        }
    }
}

/// A share a receiver collected: the download's box, which keeps the share's buffer alive, and
/// that buffer's address. Collecting retains the box the reply just read, not the share's buffer
/// (a separate, cold object: a cache miss per share and receiver), and the rebuild memo compares
/// the address (`PartialMessage.hasExactly(addresses:)`) without loading the buffer.
struct CollectedShare: Sendable {
    let download: ShareDownload
    /// `download.shareAddress`, kept beside the box.
    let address: UInt

    init(_ download: consuming ShareDownload) {
        address = download.shareAddress
        self.download = download
    }

    var share: [UInt8] { download.share }
    var id: Int { download.shareID }
}
