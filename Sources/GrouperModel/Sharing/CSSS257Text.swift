/// The c-SSS text share format: `XXKKAA` then 2 characters per byte (`00`…`FF`, `G0` = 256).
enum CSSS257Text {
    /// One parsed share.
    struct Parsed {
        var x: Int
        var k: Int
        var values: [UInt16]
    }

    @usableFromInline static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    static func header(x: Int, k: Int) -> [UInt8] {
        [hexDigits[x >> 4], hexDigits[x & 15], hexDigits[k >> 4], hexDigits[k & 15], UInt8(ascii: "A"), UInt8(ascii: "A")]
    }

    /// Appends a value in 0…256 as two characters.
    static func appendValue(_ v: UInt16, to text: inout [UInt8]) {
        if v == 256 { text.append(UInt8(ascii: "G")); text.append(UInt8(ascii: "0")); return }
        text.append(hexDigits[Int(v >> 4)]); text.append(hexDigits[Int(v & 15)])
    }

    /// Value of an uppercase hex digit, or nil.
    static func digit(_ c: UInt8) -> Int? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(c - UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(c - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }

    /// Parses one share; `index` names it in errors.
    static func parse(_ s: [UInt8], index: Int) throws(SharingError) -> Parsed {
        guard s.count >= 8, s.count % 2 == 0 else {
            throw .malformedShare(index: index, reason: "a csss257 share has 6 + 2L characters with L ≥ 1, got \(s.count)")
        }
        guard let x1 = digit(s[0]), let x0 = digit(s[1]), let k1 = digit(s[2]), let k0 = digit(s[3]) else {
            throw .malformedShare(index: index, reason: "the first 4 characters must be uppercase hex (x and k)")
        }
        guard s[4] == UInt8(ascii: "A"), s[5] == UInt8(ascii: "A") else {
            throw .malformedShare(index: index, reason: "characters 5-6 must be the marker \"AA\"")
        }
        var values = [UInt16](repeating: 0, count: (s.count - 6) / 2)
        for i in values.indices {
            let a = s[6 + 2 * i], b = s[7 + 2 * i]
            if a == UInt8(ascii: "G") && b == UInt8(ascii: "0") { values[i] = 256; continue }
            guard let hi = digit(a), let lo = digit(b) else {
                throw .malformedShare(index: index, reason: "value \(i) is not 2 uppercase hex digits or \"G0\"")
            }
            values[i] = UInt16(hi << 4 | lo)
        }
        return Parsed(x: x1 << 4 | x0, k: k1 << 4 | k0, values: values)
    }
}
