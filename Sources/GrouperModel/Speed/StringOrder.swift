/// Sorting strings in `String` order by integer keys where that is exact.
///
/// Node and message ids are ASCII, and for ASCII strings `String`'s order (Unicode canonical
/// order) is the order of their bytes. So an ASCII string's first eight bytes, big-endian and
/// zero-padded, order it against any other ASCII string except when both keys are equal (then
/// the strings are compared whole). A string with any other byte is compared as a `String`
/// with everything, so the order is exactly `String`'s for any input.
enum StringOrder {
    /// The first eight bytes of `s`, big-endian and zero-padded, or nil if `s` is not ASCII.
    static func prefixKey(_ s: String) -> UInt64? {
        // Reads a native string's bytes in place, without the copy and uniqueness check of a
        // mutable `withUTF8`.
        if let key = s.utf8.withContiguousStorageIfAvailable({ prefixKey(UnsafeRawBufferPointer($0)) }) { return key }
        return Array(s.utf8).withUnsafeBytes { prefixKey($0) }
    }

    /// `prefixKey` of a string's UTF-8 bytes.
    static func prefixKey(_ raw: UnsafeRawBufferPointer) -> UInt64? {
        var high: UInt64 = 0, i = 0
        while i + 8 <= raw.count {
            high |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < raw.count { high |= UInt64(raw[i]); i += 1 }
        guard high & 0x8080_8080_8080_8080 == 0 else { return nil }
        if raw.count >= 8 { return UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self)) }
        var key: UInt64 = 0
        for j in 0..<raw.count { key |= UInt64(raw[j]) << UInt64(56 - 8 * j) }
        return key
    }

    /// The indices of `strings` sorted by `String` order (ties in index order). Each index is
    /// sorted with its key as one integer, `key << 64 | index` (no comparison closure, no
    /// optional keys); only a run of equal keys — strings that share their first eight bytes —
    /// is then ordered by comparing the strings.
    static func sortedIndices(_ strings: [String]) -> [Int] {
        if strings.count < 3 {   // one comparison at most: no keys
            return strings.count == 2 && strings[1] < strings[0] ? [1, 0] : Array(strings.indices)
        }
        var keyed: [UInt128] = []
        keyed.reserveCapacity(strings.count)
        for i in strings.indices {
            guard let key = prefixKey(strings[i]) else {
                return strings.indices.sorted { strings[$0] < strings[$1] || (strings[$0] == strings[$1] && $0 < $1) }
            }
            keyed.append(UInt128(key) << 64 | UInt128(i))
        }
        keyed.sort()
        var out = keyed.map { Int(truncatingIfNeeded: UInt64(truncatingIfNeeded: $0)) }
        var a = 0
        while a < keyed.count {
            var b = a + 1
            while b < keyed.count && keyed[b] >> 64 == keyed[a] >> 64 { b += 1 }
            if b - a > 1 {   // equal prefixes: whole strings, then index order
                out[a..<b].sort { strings[$0] < strings[$1] || (strings[$0] == strings[$1] && $0 < $1) }
            }
            a = b
        }
        return out
    }

    /// Sorts distinct numbers of distinct ASCII strings into the strings' order, given each
    /// number's `prefixKey` (`prefixKeys[n]`) and string (`id(n)`): each number sorted as
    /// `key << 64 | number` in a stack buffer, then only a run of equal keys by its strings.
    /// The order `sortedIndices` gives the strings (`ReceiverFastPathTests`).
    static func sort(_ numbers: inout [Int32], prefixKeys: [UInt64], id: (Int32) -> String) {
        let n = numbers.count
        guard n > 1 else { return }
        var tie = false
        withUnsafeTemporaryAllocation(of: UInt128.self, capacity: n) { buffer in
            var keyed = buffer
            for i in 0..<n {
                keyed[i] = UInt128(prefixKeys[Int(numbers[i])]) << 64 | UInt128(UInt32(bitPattern: numbers[i]))
            }
            keyed.sort()
            for i in 0..<n {
                numbers[i] = Int32(bitPattern: UInt32(truncatingIfNeeded: keyed[i]))
                if i > 0 && keyed[i] >> 64 == keyed[i - 1] >> 64 { tie = true }
            }
        }
        guard tie else { return }
        var a = 0
        while a < n {
            var b = a + 1
            while b < n && prefixKeys[Int(numbers[b])] == prefixKeys[Int(numbers[a])] { b += 1 }
            if b - a > 1 { numbers[a..<b].sort { id($0) < id($1) } }
            a = b
        }
    }
}
