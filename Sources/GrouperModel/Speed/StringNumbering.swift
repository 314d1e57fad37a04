/// Dense numbers 0, 1, 2, … for strings in order of first sight: what a `[String: Int32]`
/// that hands out `count` to each new key does, without `Hasher`. A message id is a 36-byte
/// heap string; the dictionary seeds, feeds and finalises SipHash over it on every look-up
/// (about 500 instructions in `MessageRegistry.idNumber`). Here the hash is a multiply-xor
/// over the UTF-8 bytes eight at a time, kept per number, and the table is open addressing
/// with linear probing over `slots` (number + 1, 0 empty), at most half full.
///
/// Numbers depend only on the order of first sight, never on the hash, so they are the
/// dictionary's; nothing iterates the table. Bytes decide equality only among ASCII strings
/// (`String` equality is canonical equivalence: "e\u{301}" == "é", "\u{212A}" == "K"), so from
/// the first non-ASCII string on, a plain dictionary (`plain`) answers instead; a non-ASCII
/// string asked before that is compared with every string. `StringNumberingTests` checks it
/// against a dictionary. Speed only, single-threaded.
struct StringNumbering {
    /// The string of each number.
    private(set) var strings: [String] = []
    /// `hash(strings[n])`.
    private var hashes: [UInt64] = []
    /// Number + 1 of the string probed to each slot (0: empty); a power of two long.
    private var slots = [Int32](repeating: 0, count: 16)
    /// Every string's number, by `String` equality, once a non-ASCII string was numbered.
    private var plain: [String: Int32]?

    var count: Int { strings.count }

    /// The number of `s` if it has one (assigns none).
    func number(ifKnown s: String) -> Int32? {
        if let plain { return plain[s] }
        guard let h = Self.asciiHash(s) else { return strings.firstIndex(of: s).map { Int32($0) } }
        return find(s, h).number
    }

    /// The number of `s`, the next one (`count`) on first sight.
    mutating func number(of s: String) -> Int32 {
        if plain == nil {
            if let h = Self.asciiHash(s) {
                let (known, slot) = find(s, h)
                if let known { return known }
                let n = Int32(strings.count)
                strings.append(s)
                hashes.append(h)
                slots[slot] = n + 1
                if strings.count * 2 > slots.count { grow() }
                return n
            }
            plain = Dictionary(uniqueKeysWithValues: strings.enumerated().map { ($1, Int32($0)) })
        }
        if let known = plain![s] { return known }
        let n = Int32(strings.count)
        strings.append(s)
        plain![s] = n
        return n
    }

    /// The number of `s`, or nil and the empty slot where it would go.
    private func find(_ s: String, _ h: UInt64) -> (number: Int32?, slot: Int) {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let e = slots[i]
            if e == 0 { return (nil, i) }
            let n = Int(e - 1)
            if hashes[n] == h && strings[n] == s { return (e - 1, i) }
            i = (i + 1) & mask
        }
    }

    private mutating func grow() {
        var bigger = [Int32](repeating: 0, count: slots.count * 2)
        let mask = bigger.count - 1
        for n in hashes.indices {
            var i = Int(truncatingIfNeeded: hashes[n]) & mask
            while bigger[i] != 0 { i = (i + 1) & mask }
            bigger[i] = Int32(n + 1)
        }
        slots = bigger
    }

    /// Bytes of storage (for `RetainedState`): the strings' values and heap storage, hashes, slots.
    var retainedBytes: Int {
        strings.capacity * MemoryLayout<String>.stride + strings.count * 48 + hashes.capacity * 8 + slots.count * 4
            + (plain?.capacity ?? 0) * (MemoryLayout<String>.stride + 4)
    }

    /// `hash(s)` if `s` is ASCII, else nil.
    static func asciiHash(_ s: String) -> UInt64? {
        if let h = s.utf8.withContiguousStorageIfAvailable({ asciiHash(UnsafeRawBufferPointer($0)) }) { return h }
        return Array(s.utf8).withUnsafeBytes { asciiHash($0) }
    }

    /// `hash(bytes)` if every byte is ASCII, else nil, in one pass: each word is or-ed into
    /// the high-bit test as it is hashed, and a tail after at least one word is the last
    /// eight bytes shifted down (the same zero-padded word `hash` builds byte by byte).
    /// `StringNumberingTests.asciiHashIsTheHashOfASCIIBytes` checks it against `hash`.
    static func asciiHash(_ bytes: UnsafeRawBufferPointer) -> UInt64? {
        let k: UInt64 = 0x9E37_79B9_7F4A_7C15, n = bytes.count
        var h = UInt64(truncatingIfNeeded: n) &* k, high: UInt64 = 0, i = 0
        while i + 8 <= n {
            let w = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            high |= w
            h = (h ^ w) &* k
            h ^= h >> 29
            i += 8
        }
        if i < n {
            var tail: UInt64 = 0
            if n >= 8 {
                tail = bytes.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) >> UInt64(8 * (8 - (n - i)))
            } else {
                var shift: UInt64 = 0
                while i < n { tail |= UInt64(bytes[i]) << shift; shift += 8; i += 1 }
            }
            high |= tail
            h = (h ^ tail) &* k
        }
        guard high & 0x8080_8080_8080_8080 == 0 else { return nil }
        return finalised(h)
    }

    /// A hash of the UTF-8 bytes of `s`: each eight-byte word (the last zero-padded) xored
    /// in and multiplied, the length mixed in, then splitmix64's finaliser.
    static func hash(_ s: String) -> UInt64 {
        if let h = s.utf8.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0)) }) { return h }
        return Array(s.utf8).withUnsafeBytes { hash($0) }
    }

    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let k: UInt64 = 0x9E37_79B9_7F4A_7C15
        var h = UInt64(truncatingIfNeeded: bytes.count) &* k, i = 0
        while i + 8 <= bytes.count {
            h = (h ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* k
            h ^= h >> 29
            i += 8
        }
        if i < bytes.count {
            var tail: UInt64 = 0, shift: UInt64 = 0
            while i < bytes.count { tail |= UInt64(bytes[i]) << shift; shift += 8; i += 1 }
            h = (h ^ tail) &* k
        }
        return finalised(h)
    }

    /// splitmix64's finaliser.
    @inline(__always) static func finalised(_ x: UInt64) -> UInt64 {
        var h = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        h = (h ^ (h >> 27)) &* 0x94D0_49BB_1331_11EB
        return h ^ (h >> 31)
    }
}
