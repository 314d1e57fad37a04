import Foundation

extension UntrustedServer {
    /// What one stored share is keyed by in `shareIDByMessage`: (group, message id, receiver),
    /// `receiver` being the unicast receiver's user index under `.perReceiver`, nil otherwise.
    ///
    /// Equality is field by field, as a synthesized `==` would be. Hashing feeds the seeded
    /// `Hasher` one word mixed from the group, the receiver and `digest`, a digest of the message
    /// id's UTF-8 bytes made when the key is (`MessageIDDigest`), instead of the message id's
    /// bytes: a put or a sweep hashes a 36-byte id once with a few multiplies, not through
    /// SipHash. Equal keys have equal digests, so lookups answer as with the synthesized hash
    /// (`ServerShareKeyTests` checks a table of these keys against one of plain keys).
    struct ShareKey: Hashable {
        let group: Int
        let messageID: String
        let receiver: Int?
        let digest: UInt64

        init(group: Int, messageID: String, receiver: Int? = nil) {
            self.group = group; self.messageID = messageID; self.receiver = receiver
            digest = MessageIDDigest.of(messageID)
        }

        static func == (a: ShareKey, b: ShareKey) -> Bool {
            a.digest == b.digest && a.group == b.group && a.receiver == b.receiver && a.messageID == b.messageID
        }

        func hash(into hasher: inout Hasher) {
            let r = UInt64(bitPattern: Int64(receiver ?? -1))
            hasher.combine(digest ^ (UInt64(bitPattern: Int64(group)) &* 0x9E37_79B9_7F4A_7C15)
                ^ (r &* 0xC2B2_AE3D_27D4_EB4F))
        }
    }
}

/// A 64-bit digest of a string's canonical (NFC) UTF-8 bytes, read eight at a time, for
/// `UntrustedServer.ShareKey`'s hash. Strings that `==` calls equal (canonical equivalence:
/// "é" and "e\u{301}", "K" and the Kelvin sign) have equal digests: an ASCII string is its own
/// NFC form, any other is normalized first (message ids are ASCII, so that path is cold).
/// Not a stable id and never output; the seeded `Hasher` still mixes it.
enum MessageIDDigest {
    static func of(_ s: String) -> UInt64 {
        var s = s
        let ascii: UInt64? = s.withUTF8 { bytes in
            let raw = UnsafeRawBufferPointer(bytes)
            var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(raw.count)
            var high: UInt64 = 0
            var i = 0
            while i + 8 <= raw.count {
                let w = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                high |= w
                h = mix(h ^ w)
                i += 8
            }
            var tail: UInt64 = 0
            while i < raw.count { tail = tail << 8 | UInt64(raw[i]); high |= UInt64(raw[i]); i += 1 }
            return high & 0x8080_8080_8080_8080 == 0 ? mix(h ^ tail) : nil
        }
        return ascii ?? plain(s)
    }

    /// The reference digest: the same function over the NFC form's bytes one at a time,
    /// without unsafe reads.
    static func plain(_ s: String) -> UInt64 {
        let bytes = Array(s.precomposedStringWithCanonicalMapping.utf8)
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var i = 0
        while i + 8 <= bytes.count {
            var w: UInt64 = 0
            for j in 0..<8 { w |= UInt64(bytes[i + j]) << (8 * UInt64(j)) }
            h = mix(h ^ w)
            i += 8
        }
        var tail: UInt64 = 0
        while i < bytes.count { tail = tail << 8 | UInt64(bytes[i]); i += 1 }
        return mix(h ^ tail)
    }

    @inline(__always)
    static func mix(_ x: UInt64) -> UInt64 {
        var z = x &* 0xBF58_476D_1CE4_E5B9
        z ^= z >> 31
        return z
    }
}
