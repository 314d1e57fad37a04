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
        var s = s   // `withUTF8` reads a native string's bytes in place
        return s.withUTF8 { bytes -> UInt64? in
            let raw = UnsafeRawBufferPointer(bytes)
            var high: UInt64 = 0, i = 0
            while i + 8 <= raw.count {
                high |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                i += 8
            }
            while i < raw.count { high |= UInt64(raw[i]); i += 1 }
            guard high & 0x8080_8080_8080_8080 == 0 else { return nil }
            var key: UInt64 = 0
            for j in 0..<min(8, raw.count) { key |= UInt64(raw[j]) << UInt64(56 - 8 * j) }
            return key
        }
    }

    /// The indices of `strings` sorted by `String` order (ties in index order).
    static func sortedIndices(_ strings: [String]) -> [Int] {
        if strings.count < 3 {   // one comparison at most: no keys
            return strings.count == 2 && strings[1] < strings[0] ? [1, 0] : Array(strings.indices)
        }
        let keys = strings.map(prefixKey)
        guard keys.allSatisfy({ $0 != nil }) else {
            return strings.indices.sorted { strings[$0] < strings[$1] || (strings[$0] == strings[$1] && $0 < $1) }
        }
        return strings.indices.sorted { a, b in
            let ka = keys[a]!, kb = keys[b]!
            if ka != kb { return ka < kb }
            return strings[a] < strings[b] || (strings[a] == strings[b] && a < b)
        }
    }
}
