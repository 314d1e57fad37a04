import SimKernel

/// Status of one sender→receiver transfer in the central server's outbox (docs/architectures.md).
public enum TransferStatus: String, CaseIterable, Sendable {
    /// The receiver has not started downloading (the default of a new record). A transfer whose
    /// retention ran out stays `unattended` and is marked `expired`.
    case unattended
    /// The receiver asked for the file and has not acknowledged it yet.
    case initiated
    /// The receiver downloaded and acknowledged the file.
    case delivered
    /// The receiver refused the file (it already holds a newer version of the object).
    case declined
}

/// One outbox record: a file sent by one device to one receiver.
public struct CentralTransfer: Equatable, Sendable {
    public let id: Int
    public let from: Int
    public let to: Int
    public let fileID: Int
    public let messageID: String
    public let createdAt: SimTime
    public internal(set) var status: TransferStatus = .unattended
    /// The retention limit ran out before the receiver fetched the file: lost for that receiver.
    public internal(set) var expired = false
    /// The server lost the file (restart without data) before the receiver fetched it.
    public internal(set) var lostInRestart = false
    /// Still waiting for the receiver (neither delivered, declined, expired nor lost).
    public var open: Bool { (status == .unattended || status == .initiated) && !expired && !lostInRestart }
}

/// One stored file: the whole message (no sharing), kept once however many receivers it has.
public struct CentralFile: Equatable, Sendable {
    public let id: Int
    public let messageID: String
    public let objectID: String
    public let version: ObjectVersion
    /// nil for a delete.
    public let content: String?
    public let size: Int
    public let storedAt: SimTime
    /// Open transfers of this file; the file is deleted when it reaches 0.
    public internal(set) var references: Int
}

/// The central server's state (CloudDrop-style, docs/architectures.md): files with a reference count over their
/// addressed receivers, and the outbox of transfers. Pure bookkeeping, no time of its own.
/// Transfer ids are dense (index into `outbox`); files are kept in id order.
public struct CentralStore: Equatable, Sendable {
    public private(set) var outbox: [CentralTransfer] = []
    /// Files stored now, sorted by id.
    public private(set) var files: [CentralFile] = []
    /// Open transfer ids per receiver, in creation order.
    private(set) var pending: [[Int]]
    private var nextFileID = 0
    /// Message ids stored since the last restart without data (a retried upload is stored once).
    private var stored: Set<String> = []
    /// Bytes of the files stored now.
    public private(set) var bytesStored = 0
    /// Files deleted because their count reached zero: (file, time stored, time deleted).
    public private(set) var deletions: [(messageID: String, storedAt: SimTime, deletedAt: SimTime)] = []

    public init(devices: Int) { pending = Array(repeating: [], count: devices) }

    public static func == (a: CentralStore, b: CentralStore) -> Bool {
        a.outbox == b.outbox && a.files == b.files && a.pending == b.pending && a.bytesStored == b.bytesStored
    }

    /// Stores a file for `receivers` (its reference count) and opens one transfer each.
    /// A file with no receivers is not kept. Returns the new transfer ids.
    @discardableResult
    mutating func store(messageID: String, objectID: String, version: ObjectVersion, content: String?, size: Int,
                        from: Int, receivers: [Int], now: SimTime) -> [Int] {
        stored.insert(messageID)
        guard !receivers.isEmpty else { return [] }
        let file = CentralFile(id: nextFileID, messageID: messageID, objectID: objectID, version: version,
                               content: content, size: size, storedAt: now, references: receivers.count)
        nextFileID += 1
        files.append(file)
        bytesStored += size
        return receivers.map { r in
            let t = CentralTransfer(id: outbox.count, from: from, to: r, fileID: file.id, messageID: messageID, createdAt: now)
            outbox.append(t)
            pending[r].append(t.id)
            return t.id
        }
    }

    func holds(messageID: String) -> Bool { stored.contains(messageID) }

    /// Files stored so far (each one whole, readable by the server).
    public var filesEverStored: Int { nextFileID }

    /// Σ over files stored so far of the time each was (or is, up to `now`) on the server.
    public func fileSeconds(upTo now: SimTime) -> Double {
        var nanos: Int64 = 0
        for d in deletions { nanos += (d.deletedAt - d.storedAt).nanoseconds }
        for f in files { nanos += (now - f.storedAt).nanoseconds }
        return SimDuration(nanoseconds: nanos).seconds
    }

    public func file(_ id: Int) -> CentralFile? {
        var lo = 0, hi = files.count
        while lo < hi { let mid = (lo + hi) / 2; if files[mid].id < id { lo = mid + 1 } else { hi = mid } }
        return lo < files.count && files[lo].id == id ? files[lo] : nil
    }

    /// Open transfers addressed to `device`, oldest first.
    public func openTransfers(to device: Int) -> [CentralTransfer] { pending[device].map { outbox[$0] } }

    /// The receiver started downloading: `initiated`. Nil when the transfer is not open.
    mutating func initiate(_ t: Int) -> CentralFile? {
        guard outbox.indices.contains(t), outbox[t].open, let f = file(outbox[t].fileID) else { return nil }
        outbox[t].status = .initiated
        return f
    }

    /// The receiver acknowledged (`delivered`) or refused (`declined`) the file; the file's
    /// count drops and the file goes at zero. False when the transfer was not open.
    mutating func close(_ t: Int, as status: TransferStatus, now: SimTime) -> Bool {
        guard outbox.indices.contains(t), outbox[t].open else { return false }
        outbox[t].status = status
        release(t, now: now)
        return true
    }

    /// Open transfers created at or before `cutoff` expire (retention limit): they stay
    /// `unattended`/`initiated`, marked expired, and their files lose a reference. Returns them.
    mutating func expire(createdBy cutoff: SimTime, now: SimTime) -> [Int] {
        var out: [Int] = []
        for r in pending.indices {
            for t in pending[r] where outbox[t].createdAt <= cutoff { out.append(t) }
        }
        out.sort()
        for t in out { outbox[t].expired = true; release(t, now: now) }
        return out
    }

    /// A restart without data: every file is gone; every open transfer is lost. Returns them.
    mutating func dropAll(now: SimTime) -> [Int] {
        var lost: [Int] = []
        for r in pending.indices { lost += pending[r]; pending[r] = [] }
        lost.sort()
        for t in lost { outbox[t].lostInRestart = true }
        for f in files { deletions.append((f.messageID, f.storedAt, now)) }
        files = []
        stored = []
        bytesStored = 0
        return lost
    }

    private mutating func release(_ t: Int, now: SimTime) {
        let r = outbox[t].to
        if let i = pending[r].firstIndex(of: t) { pending[r].remove(at: i) }
        var lo = 0, hi = files.count
        let id = outbox[t].fileID
        while lo < hi { let mid = (lo + hi) / 2; if files[mid].id < id { lo = mid + 1 } else { hi = mid } }
        guard lo < files.count, files[lo].id == id else { return }
        files[lo].references -= 1
        if files[lo].references == 0 {
            let f = files.remove(at: lo)
            bytesStored -= f.size
            deletions.append((f.messageID, f.storedAt, now))
        }
    }
}
