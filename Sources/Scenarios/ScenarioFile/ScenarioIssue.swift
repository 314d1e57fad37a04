import SimKernel
import Format

/// One problem found in a scenario file: where (file, JSON path) and what.
///
/// Messages follow one shape: `got <value>, expected <what is allowed>`, or name
/// the rule that was broken and the values involved.
public struct ScenarioIssue: Equatable, Sendable, CustomStringConvertible {
    public var file: String
    /// JSON path such as `group.k` or `faults[2].window.start`; empty for the whole document.
    public var path: String
    public var message: String
    package init(file: String, path: String, message: String) {
        self.file = file; self.path = path; self.message = message
    }
    public var description: String { "\(file): \(path.isEmpty ? "(top level)" : path): \(message)" }
}

/// Every problem found in one or more scenario files (never just the first).
public struct ScenarioError: Error, Equatable, Sendable, CustomStringConvertible {
    public var issues: [ScenarioIssue]
    package init(issues: [ScenarioIssue]) {
        self.issues = issues
    }
    public var description: String { issues.map(\.description).joined(separator: "\n") }
}

/// Collects issues while a document is walked; dense array, file order.
package final class IssueSink {
    let file: String
    package private(set) var issues: [ScenarioIssue] = []
    /// Prepended to every message (used for sweep points).
    var context = ""
    /// When not nil, every numeric range the reader checks is appended here (its own table of
    /// bounds, read back by the boundary tests); nil in normal use.
    var checkedRanges: [CheckedRange]?
    package init(file: String) { self.file = file }

    func add(_ path: String, _ message: String) {
        let issue = ScenarioIssue(file: file, path: path, message: context + message)
        if !issues.contains(issue) { issues.append(issue) }
    }
    package var isEmpty: Bool { issues.isEmpty }
    var count: Int { issues.count }
}

/// One numeric bound the reader checked: the field's path, the closed range it allows, whether
/// the value read was inside it, and where in the reader the check is made.
struct CheckedRange: Equatable {
    enum Kind: String { case int, double, duration }
    var path: String
    var kind: Kind
    /// Bounds as numbers: integers and doubles as they are, durations in nanoseconds.
    var lower: Double
    var upper: Double
    var accepted: Bool
    var site: String
}

/// A JSON value at a path, with the sink its problems go to.
struct Node {
    let value: JSONValue
    let path: String
    let sink: IssueSink

    func key(_ k: String) -> String { path.isEmpty ? k : path + "." + k }
    func index(_ i: Int) -> String { path + "[\(i)]" }
    func fail(_ expected: String) { sink.add(path, "got \(value.brief), expected \(expected)") }
}

/// Reads one JSON object: rejects unknown and duplicate keys up front.
struct ObjectReader {
    let node: Node
    let members: [(key: String, value: JSONValue)]

    /// Nil (with an issue) unless `node` is an object; `allowed` lists every key the object may have.
    init?(_ node: Node, allowed: [String], what: String = "an object") {
        guard case .object(let m) = node.value else { node.fail(what); return nil }
        self.node = node; self.members = m
        var seen: [String] = []
        for (k, _) in m {
            if seen.contains(k) { node.sink.add(node.key(k), "duplicate key '\(k)' (each key may appear once)") }
            seen.append(k)
            if !allowed.contains(k) {
                node.sink.add(node.key(k), "unknown key '\(k)'\(didYouMean(k, among: allowed)); allowed keys: \(allowed.joined(separator: ", "))")
            }
        }
    }

    func has(_ k: String) -> Bool { members.contains(where: { $0.key == k }) }

    /// The member `k`, or nil when absent.
    func optional(_ k: String) -> Node? {
        members.first(where: { $0.key == k }).map { Node(value: $0.value, path: node.key(k), sink: node.sink) }
    }

    /// The member `k`; when absent, an issue saying what it should be.
    func required(_ k: String, _ expected: String) -> Node? {
        if let n = optional(k) { return n }
        node.sink.add(node.key(k), "missing required key, expected \(expected)")
        return nil
    }
}

extension Node {
    static let durationHelp = "a duration such as \"250ms\", \"1.5s\", \"10min\", \"2h\", \"1d\""

    private func record(_ kind: CheckedRange.Kind, _ lower: Double, _ upper: Double, _ accepted: Bool,
                        _ file: String, _ line: Int) {
        guard sink.checkedRanges != nil else { return }
        sink.checkedRanges!.append(CheckedRange(path: path, kind: kind, lower: lower, upper: upper,
                                                accepted: accepted, site: "\(file):\(line)"))
    }

    func int(in range: ClosedRange<Int>, file: String = #fileID, line: Int = #line) -> Int? {
        let expected = "an integer in \(range.lowerBound)...\(range.upperBound)"
        guard case .number(let v, _) = value, v == v.rounded(), abs(v) < 9e15, range.contains(Int(v)) else {
            record(.int, Double(range.lowerBound), Double(range.upperBound), false, file, line)
            fail(expected); return nil
        }
        record(.int, Double(range.lowerBound), Double(range.upperBound), true, file, line)
        return Int(v)
    }

    func double(in range: ClosedRange<Double>, _ expected: String, file: String = #fileID, line: Int = #line) -> Double? {
        guard case .number(let v, _) = value, range.contains(v) else {
            record(.double, range.lowerBound, range.upperBound, false, file, line)
            fail(expected); return nil
        }
        record(.double, range.lowerBound, range.upperBound, true, file, line)
        return v
    }

    func probability(file: String = #fileID, line: Int = #line) -> Double? {
        double(in: 0...1, "a probability in [0, 1]", file: file, line: line)
    }

    func seed() -> UInt64? {
        guard case .number(_, let text) = value, let s = UInt64(text) else {
            fail("an unsigned 64-bit integer seed (0...18446744073709551615)"); return nil
        }
        return s
    }

    func bool() -> Bool? {
        guard case .bool(let b) = value else { fail("true or false"); return nil }
        return b
    }

    func string() -> String? {
        guard case .string(let s) = value else { fail("a string"); return nil }
        return s
    }

    /// One of `allowed` (the message lists them all, with a did-you-mean).
    func choice(_ allowed: [String]) -> String? {
        guard case .string(let s) = value, allowed.contains(s) else {
            let hint: String
            if case .string(let s) = value { hint = didYouMean(s, among: allowed) } else { hint = "" }
            sink.add(path, "got \(value.brief), expected one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", "))\(hint)")
            return nil
        }
        return s
    }

    /// One of the cases of `E`, by its raw value (with did-you-mean when it is none).
    func choice<E: RawRepresentable & CaseIterable>(_: E.Type) -> E? where E.RawValue == String {
        choice(E.allCases.map(\.rawValue)).flatMap(E.init(rawValue:))
    }

    /// The longest duration a scenario may give anywhere: every sum the model forms from
    /// a handful of them (a time plus delays) stays far inside Int64 nanoseconds (292 years).
    static let longestDuration = SimDuration.days(3650)

    /// A duration string, never negative, at most `atMost` (a located error, not a trap in
    /// the arithmetic it later feeds); `positive` also forbids zero.
    func duration(positive: Bool, atMost: SimDuration = Node.longestDuration,
                  file: String = #fileID, line: Int = #line) -> SimDuration? {
        let lower = positive ? 1.0 : 0.0, upper = Double(atMost.nanoseconds)
        guard case .string(let s) = value else {
            record(.duration, lower, upper, false, file, line)
            fail(Self.durationHelp); return nil
        }
        let d: SimDuration
        do { d = try SimDuration(parsing: s) } catch {
            record(.duration, lower, upper, false, file, line)
            sink.add(path, "got \(value.brief), expected \(Self.durationHelp) (\(error.reason))"); return nil
        }
        let accepted = !(positive && d.nanoseconds <= 0) && d.nanoseconds >= 0 && d <= atMost
        record(.duration, lower, upper, accepted, file, line)
        if positive && d.nanoseconds <= 0 { fail("a positive duration"); return nil }
        if d.nanoseconds < 0 { fail("a duration ≥ 0"); return nil }
        if d > atMost { fail("a duration ≤ \(atMost)"); return nil }
        return d
    }

    /// `"all"`, a range `"a-b"` (or `"a"`; a string, so sweeps can vary it), or a non-empty
    /// list of distinct 1-based indices up to `count`.
    func selection(count: Int?, noun: String) -> DeviceSelection? {
        let expected = "\"all\", a range \"a-b\" or a non-empty list of distinct \(noun) numbers in 1...\(count.map(String.init) ?? "N")"
        if case .string("all") = value { return .all }
        if case .string(let text) = value {
            let ends = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
            guard (1...2).contains(ends.count), let a = ends[0], let b = ends[ends.count - 1], 1 <= a, a <= b,
                  b <= (count ?? Int(Int32.max)) else { fail(expected); return nil }
            return .some(Array(a...b))
        }
        guard case .array(let items) = value, !items.isEmpty else { fail(expected); return nil }
        var out: [Int] = []
        for (i, item) in items.enumerated() {
            let n = Node(value: item, path: index(i), sink: sink)
            guard let v = n.int(in: 1...(count ?? Int(Int32.max))) else { continue }
            if out.contains(v) { n.fail("a \(noun) number not listed before") } else { out.append(v) }
        }
        return out.count == items.count ? .some(out) : nil
    }
}

