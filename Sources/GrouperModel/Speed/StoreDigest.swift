import SimKernel

/// What a run's end reads of every device's store, without a string built or a content parsed
/// twice: the fingerprint's line per stored object and the checks' filler sizes.
///
/// Devices hold the same content strings (every receiver of a message shares its decoded
/// content, `DecodedMessageCache`), so a run of 100 devices holding 99 objects each reads a few
/// hundred distinct contents 9,900 times. Each memo keys a result by where the content's bytes
/// live and keeps the content and arguments it was computed from; a hit compares them (pointer
/// checks when they share storage), so an answer is always the one the plain computation gives
/// (`StoreDigestTests`).
enum StoreDigest {
    /// `StableHash.fnv1a64("\(device)|\(id)|\(version)|\(contentHash)")`, the fingerprint's line
    /// for one stored object, hashed piece by piece (FNV-1a is a running hash over the bytes):
    /// numbers as their decimal digits, the version's sender cut to its first 8 characters.
    static func line(device: Int, id: String, version: ObjectVersion, contentHash: UInt64) -> UInt64 {
        var h = FNV1a64()
        h.add(decimal: Int64(device))
        h.add(byte: UInt8(ascii: "|"))
        h.add(id)
        h.add(byte: UInt8(ascii: "|"))
        h.add(decimal: version.time)
        h.add(byte: UInt8(ascii: "/"))
        h.addPrefix8(version.sender)
        h.add(byte: UInt8(ascii: "/"))
        h.add(decimal: Int64(version.sequence))
        h.add(byte: UInt8(ascii: "|"))
        h.add(decimal: contentHash)
        return h.value
    }

    /// Where a native string's bytes live (with their count), as a memo key: strings that share
    /// storage share it. Nil for a string without contiguous bytes.
    static func identity(_ s: String) -> StorageIdentity? {
        s.utf8.withContiguousStorageIfAvailable { StorageIdentity(address: UInt(bitPattern: $0.baseAddress), count: $0.count) }
    }

    struct StorageIdentity: Hashable {
        var address: UInt
        var count: Int
    }
}

/// FNV-1a over UTF-8 bytes fed in pieces: the value of `StableHash.fnv1a64` of the pieces joined.
struct FNV1a64 {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func add(byte b: UInt8) { value ^= UInt64(b); value = value &* 0x0000_0100_0000_01B3 }

    mutating func add(_ s: String) {
        if let done: Void = s.utf8.withContiguousStorageIfAvailable({ for b in $0 { add(byte: b) } }) { return done }
        for b in s.utf8 { add(byte: b) }
    }

    /// The bytes of `String(n)`.
    mutating func add(decimal n: Int64) {
        if n < 0 { add(byte: UInt8(ascii: "-")) }
        add(decimal: n.magnitude)
    }

    /// The bytes of `String(n)`.
    mutating func add(decimal n: UInt64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)   // up to 20 digits, one byte each
        var count = 0, n = n
        withUnsafeMutableBytes(of: &digits) { buf in
            repeat {
                buf[count] = UInt8(ascii: "0") + UInt8(n % 10)
                n /= 10
                count += 1
            } while n > 0
            for i in stride(from: count - 1, through: 0, by: -1) { add(byte: buf[i]) }
        }
    }

    /// The bytes of `String(s.prefix(8))`: the first 8 bytes of an ASCII string whose 8th
    /// character cannot grow (its first 9 bytes are ASCII and none of the first 8 is a CR, so
    /// every character is one byte); any other string through `prefix`.
    mutating func addPrefix8(_ s: String) {
        let fast: Bool? = s.utf8.withContiguousStorageIfAvailable { bytes in
            let n = Swift.min(bytes.count, 9)
            for i in 0..<n where bytes[i] >= 0x80 || (i < 8 && bytes[i] == 0x0D) { return false }
            for i in 0..<Swift.min(bytes.count, 8) { add(byte: bytes[i]) }
            return true
        }
        if fast == true { return }
        for b in String(s.prefix(8)).utf8 { add(byte: b) }
    }
}

/// `StableHash.fnv1a64` of stored contents, each content hashed once per storage: a hit is an
/// equal string (a pointer check for the same storage).
struct ContentHashMemo {
    private var hashes: [StoreDigest.StorageIdentity: (content: String, hash: UInt64)] = [:]

    mutating func hash(_ content: String) -> UInt64 {
        guard let key = StoreDigest.identity(content) else { return StableHash.fnv1a64(content) }
        if let e = hashes[key], e.content == content { return e.hash }
        var h = FNV1a64()
        h.add(content)
        hashes[key] = (content, h.value)
        return h.value
    }
}

/// `MarshalledContent.fillerSize` of stored contents, each (content, object, updater, time)
/// parsed once per content storage: a hit is equal strings and time (pointer checks for the
/// same storage).
struct FillerSizeMemo {
    private struct Entry {
        var content: String
        var objectID: String
        var updater: String
        var time: Int64
        var size: Int32?
    }

    private var sizes: [StoreDigest.StorageIdentity: Entry] = [:]

    mutating func fillerSize(of content: String, objectID: String, updater: String, time: Int64) -> Int32? {
        let key = StoreDigest.identity(content)
        if let key, let e = sizes[key], e.time == time, e.content == content, e.objectID == objectID, e.updater == updater {
            return e.size
        }
        let n = MarshalledContent.fillerSize(of: content, objectID: objectID, updater: updater, time: time)
        if let key { sizes[key] = Entry(content: content, objectID: objectID, updater: updater, time: time, size: n) }
        return n
    }
}
