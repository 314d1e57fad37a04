import Foundation
import Testing
@testable import Scenarios
@testable import Format
@testable import Catalogs
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore
@testable import ScenarioFile

/// Every numeric range the scenario reader checks, at lower − 1, lower, upper and upper + 1.
///
/// The ranges come from the reader itself: with `IssueSink.checkedRanges` switched on, each
/// `int(in:)`, `double(in:)`, `probability()` and `duration(positive:atMost:)` records the field's
/// path, its bounds and where in the reader the check is made. The corpus is every built-in
/// scenario, every example in docs/scenarios.md and the documents in `Fixtures/scenarios/ranges`
/// (which reach the checks the others leave out). For each recorded range the field is set to
/// the four boundary values (integers ± 1, durations ± 1 ns, doubles to the next representable
/// value) and read again: the range check must let the two inside through (another rule may
/// still narrow the field, e.g. distinct lists or a time before the end of the run), and the
/// two outside must be refused with an issue at that path. The table of bounds is pinned in `Fixtures/reader-ranges.txt`, so a
/// bound changed by one fails here even though the check and its message move together.
@Suite struct ReaderRangeBoundaryTests {
    struct Entry: Hashable { var label: String; var path: String; var site: String; var kind: CheckedRange.Kind; var lower: Double; var upper: Double }

    static func corpus() throws -> [(label: String, text: String)] {
        let builtins = BuiltinScenarios.all.map { (label: "builtin " + $0.name, text: $0.text) }
        let docs = try ScenarioFixtures.docExamples().enumerated().map { (label: "docs/scenarios.md example \($0.offset)", text: $0.element) }
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/scenarios/ranges")
        let extra = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted().filter { $0.hasSuffix(".json") }
            .map { (label: "Fixtures/scenarios/ranges/" + $0, text: try String(contentsOf: dir.appendingPathComponent($0), encoding: .utf8)) }
        return builtins + docs + extra
    }

    /// The base read of `tree` with ranges recorded.
    static func read(_ tree: JSONValue, label: String) -> (ranges: [CheckedRange], issues: [ScenarioIssue]) {
        let sink = IssueSink(file: label)
        sink.checkedRanges = []
        _ = ScenarioReader(sink: sink).read(tree)
        return (sink.checkedRanges ?? [], sink.issues)
    }

    /// Each distinct (path, site, kind, bounds) once, with the first document that reaches it.
    static func entries() throws -> [(Entry, JSONValue)] {
        var seen = Set<Entry>()
        var out: [(Entry, JSONValue)] = []
        for (label, text) in try corpus() {
            let tree = try JSONParser.parse(text)
            let (ranges, issues) = read(tree, label: label)
            #expect(issues.isEmpty, "\(label) reads with issues: \(issues)")
            for r in ranges where r.accepted {
                let e = Entry(label: label, path: r.path, site: r.site, kind: r.kind, lower: r.lower, upper: r.upper)
                var key = e; key.label = ""
                if seen.insert(key).inserted { out.append((e, tree)) }
            }
        }
        return out
    }

    static func json(_ kind: CheckedRange.Kind, _ v: Double) -> JSONValue {
        switch kind {
        case .int: return .number(v, text: String(Int64(v)))
        case .double: return .number(v, text: "\(v)")
        case .duration: return .string("\(Int64(v))ns")
        }
    }

    /// The value just outside each bound, or nil where there is none to write.
    static func below(_ e: Entry) -> Double? {
        switch e.kind {
        case .int, .duration: return Double(Int64(e.lower) - 1)
        case .double: return e.lower == -.greatestFiniteMagnitude ? nil : e.lower.nextDown
        }
    }
    static func above(_ e: Entry) -> Double? {
        switch e.kind {
        case .int, .duration: return e.upper >= 9e15 ? nil : Double(Int64(e.upper) + 1)
        case .double: return e.upper == .greatestFiniteMagnitude ? nil : e.upper.nextUp
        }
    }

    @Test func everyRangeHoldsAtItsFourBoundaries() throws {
        let entries = try Self.entries()
        #expect(entries.count >= 60, "the corpus reaches only \(entries.count) ranges")
        var problems: [String] = []
        for (e, tree) in entries {
            guard let path = JSONPath.parse(e.path) else { problems.append("\(e.path): not a settable path"); continue }
            let cases: [(Double?, Bool)] = [(Self.below(e), false), (e.lower, true), (e.upper, true), (Self.above(e), false)]
            for (value, inside) in cases {
                guard let value else { continue }
                let variant = try JSONPath.setting(tree, path[...], to: Self.json(e.kind, value))
                let (ranges, issues) = Self.read(variant, label: e.label)
                let check = ranges.first { $0.path == e.path && $0.site == e.site }
                let here = issues.filter { $0.path == e.path }
                let shown = "\(e.label): \(e.path) = \(Self.json(e.kind, value)) (\(e.kind) \(e.lower)...\(e.upper), \(e.site))"
                if inside {
                    // Another rule may narrow the field further (distinct lists, servers = n, a
                    // time before the end of the run, a cap on timer firings): the range itself
                    // must let the value through.
                    if check?.accepted != true { problems.append("\(shown): the range check did not accept it") }
                } else {
                    if check?.accepted == true { problems.append("\(shown): the range check accepted it") }
                    if here.isEmpty { problems.append("\(shown): outside the range but no issue at that path") }
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) boundary problems:\n\(problems.joined(separator: "\n"))")
    }

    /// The table: one line per field pattern (indices dropped) and bounds, sorted.
    static func table() throws -> [String] {
        let lines = try entries().map { e, _ -> String in
            let file = e.site.split(separator: ":").first.map { String($0.split(separator: "/").last ?? $0) } ?? e.site
            let path = e.path.replacing(/\[\d+\]/, with: "[]")
            func f(_ v: Double) -> String { e.kind == .double ? "\(v)" : String(Int64(v)) }
            return "\(path) \(e.kind.rawValue) \(f(e.lower)) \(f(e.upper)) (\(file))"
        }
        return Array(Set(lines)).sorted()
    }

    @Test func theTableOfBoundsIsPinned() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/reader-ranges.txt")
        let now = try Self.table().joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["GROUPER_SIM_WRITE_RANGES"] == "1" {
            try Data(now.utf8).write(to: fixture)
        }
        let pinned = (try? String(contentsOf: fixture, encoding: .utf8)) ?? ""
        let added = Set(now.split(separator: "\n")).subtracting(pinned.split(separator: "\n")).sorted()
        let removed = Set(pinned.split(separator: "\n")).subtracting(now.split(separator: "\n")).sorted()
        #expect(added.isEmpty && removed.isEmpty,
                """
                the reader's bounds differ from Tests/SimTests/Fixtures/reader-ranges.txt \
                (after a deliberate change: GROUPER_SIM_WRITE_RANGES=1 swift test --filter ReaderRangeBoundaryTests)
                now read: \(added)
                pinned but not read: \(removed)
                """)
    }
}

extension ReaderRangeBoundaryTests {
    /// Every range check written in the reader (a call of `int(in:)`, `double(in:)`,
    /// `probability()` or `duration(positive:…)` in `Sources/Scenarios/ScenarioFile`) is reached
    /// by the corpus, so none is left out of the boundary test.
    @Test func everyRangeCheckInTheReaderIsReached() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/Scenarios/ScenarioFile")
        var sites: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() where name.hasSuffix(".swift") {
            let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
            for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.contains("func ") && line.contains(/\.(int\(in:|double\(in:|probability\(\)|duration\(positive:)/) {
                sites.append("ScenarioFile/\(name):\(i + 1)")
            }
        }
        #expect(sites.count >= 40, "found only \(sites.count) range checks: \(sites)")
        let reached = Set(try Self.entries().map(\.0.site))
        let missing = sites.filter { !reached.contains($0) }
        #expect(missing.isEmpty, "range checks no corpus document reaches: \(missing)")
    }
}
