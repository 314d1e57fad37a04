import Foundation
import SimKernel
import SimJSON
/// Deterministic JSON text: keys sorted (byte order of UTF-8), two-space indent,
/// numbers through `NumberFormat` (locale-independent), trailing newline for files.
public enum JSONWriter {
    /// One line, keys in their stored order (for error messages).
    public static func compact(_ v: JSONValue) -> String {
        switch v {
        case .object(let m): return "{" + m.map { quote($0.key) + ":" + compact($0.value) }.joined(separator: ",") + "}"
        case .array(let a): return "[" + a.map(compact).joined(separator: ",") + "]"
        case .string(let s): return quote(s)
        case .number(_, let text): return text
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        }
    }

    /// Multi-line, keys sorted, ending with a newline.
    public static func pretty(_ v: JSONValue) -> String {
        var out = ""
        write(v, indent: "", into: &out)
        return out + "\n"
    }

    private static func write(_ v: JSONValue, indent: String, into out: inout String) {
        let inner = indent + "  "
        switch v {
        case .object(let m) where !m.isEmpty:
            let sorted = m.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            out += "{\n"
            for (n, member) in sorted.enumerated() {
                out += inner + quote(member.key) + ": "
                write(member.value, indent: inner, into: &out)
                out += n + 1 < sorted.count ? ",\n" : "\n"
            }
            out += indent + "}"
        case .array(let a) where !a.isEmpty:
            out += "[\n"
            for (n, item) in a.enumerated() {
                out += inner
                write(item, indent: inner, into: &out)
                out += n + 1 < a.count ? ",\n" : "\n"
            }
            out += indent + "]"
        default:
            out += compact(v)
        }
    }

    /// JSON string literal with the mandatory escapes only.
    public static func quote(_ s: String) -> String { JSONString.quoted(s) }
}

/// Locale-independent number text for results files.
public enum NumberFormat {
    /// Integral values (|v| < 2^53) as integers, others as Swift's shortest round-trip text.
    public static func shortest(_ v: Double) -> String {
        if !v.isFinite { return v.isNaN ? "NaN" : (v > 0 ? "inf" : "-inf") }
        if v == v.rounded(), abs(v) < 9.0e15 { return String(Int64(v)) }
        return "\(v)"
    }

    /// `digits` significant digits (half away from zero) for tables a person reads: an integer
    /// when `v` is integral or has `digits` or more digits before the point (`1548.00001` →
    /// `1548`), else as many decimals as the digits need (`65.354` → `65.35`, `0.00012345` →
    /// `0.0001235`, at most 12 decimals). Never uses the host locale; `-0` prints as `0`.
    public static func significant(_ v: Double, digits: Int = 4) -> String {
        if !v.isFinite || v == v.rounded() || v == 0 { return fixed(v, digits: 0) }
        // The decimal exponent of |v| after rounding to `digits` significant digits
        // (9.99996 rounds to 10.00, one more digit before the point).
        var e = Int(log10(abs(v)).rounded(.down))
        let decimals = { (e: Int) in min(12, max(0, digits - 1 - e)) }
        let rounded = Double(fixed(abs(v), digits: decimals(e)))!
        if rounded > 0, Int(log10(rounded).rounded(.down)) > e { e += 1 }
        return fixed(v, digits: decimals(e))
    }

    /// "mean ± half-width" for a person: the mean with `digits` significant digits
    /// (`significant`), the half-width with the same decimals as the mean, so both end at the
    /// same place (`32.65 ± 0.57`, `213 ± 65`); a half-width that is not 0 but would print as 0
    /// at those decimals is "<" the last place (`32.65 ± <0.01`).
    public static func plusMinus(_ mean: Double, _ half: Double, digits: Int = 4) -> String {
        let m = significant(mean, digits: digits)
        guard half.isFinite, mean.isFinite else { return "\(m) ± \(significant(half, digits: digits))" }
        let decimals = m.firstIndex(of: ".").map { m.distance(from: $0, to: m.endIndex) - 1 } ?? 0
        let h = fixed(half, digits: decimals)
        if half != 0, Double(h) == 0 {
            return "\(m) ± <" + (decimals == 0 ? "1" : "0." + String(repeating: "0", count: decimals - 1) + "1")
        }
        return "\(m) ± \(h)"
    }

    /// Fixed `digits` decimals (half away from zero), or an integer when `v` is integral.
    /// Never uses the host locale; `-0` prints as `0`.
    public static func fixed(_ v: Double, digits: Int = 6) -> String {
        if !v.isFinite { return v.isNaN ? "NaN" : (v > 0 ? "inf" : "-inf") }
        if v == v.rounded(), abs(v) < 9.0e15 { return String(Int64(v)) }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(v) * scale).rounded()
        guard scaled < 9.0e15 else { return "\(v)" }
        let n = Int64(scaled)
        if n == 0 { return "0" + (digits > 0 ? "." + String(repeating: "0", count: digits) : "") }
        var s = String(n)
        if s.count <= digits { s = String(repeating: "0", count: digits - s.count + 1) + s }
        let cut = s.index(s.endIndex, offsetBy: -digits)
        let body = digits > 0 ? s[..<cut] + "." + s[cut...] : Substring(s)
        return (v < 0 ? "-" : "") + body
    }
}
