import Foundation
import Testing

/// docs/testing.md's everyday loop skips by name exactly the suites and tests tagged `.slow`
/// (`swift test` 6.3 on Linux does not filter by tag), so the list cannot drift from the tags.
@Suite struct SlowTagListTests {
    static let testsRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    /// The names of the suites (`struct`) and tests (`func`) whose `@Suite` or `@Test` attribute
    /// carries the slow tag, in every test source.
    static func taggedNames() throws -> Set<String> {
        var names = Set<String>()
        let files = FileManager.default.enumerator(at: testsRoot, includingPropertiesForKeys: nil)!
        let pattern = try NSRegularExpression(pattern: #"@(?:Suite|Test)\([^)]*\.tags\(\.slow\)\)\s+(?:struct|func)\s+([A-Za-z0-9_]+)"#)
        for case let url as URL in files where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            for m in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                names.insert(String(text[Range(m.range(at: 1), in: text)!]))
            }
        }
        return names
    }

    /// The names in docs/testing.md's `--skip '…'`.
    static func skipped() throws -> [String] {
        let doc = try String(contentsOf: testsRoot.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/testing.md"), encoding: .utf8)
        let start = try #require(doc.range(of: "--skip '"))
        let end = try #require(doc[start.upperBound...].firstIndex(of: "'"))
        return doc[start.upperBound..<end].split(separator: "|").map(String.init)
    }

    @Test func theSkipListNamesExactlyTheSlowTests() throws {
        let tagged = try Self.taggedNames(), listed = try Self.skipped()
        #expect(tagged.count >= 10)
        #expect(Set(listed) == tagged, "listed, not tagged: \(Set(listed).subtracting(tagged).sorted()); tagged, not listed: \(tagged.subtracting(listed).sorted())")
        #expect(listed == listed.sorted(), "keep the list sorted")
    }
}
