import Foundation
import Testing

/// The folders of `Sources/Scenarios` form layers (docs/architecture.md): a file may use what
/// its own folder and the folders below it declare, never what a folder above it declares.
/// One module cannot enforce that by `import`, so this test reads the sources: every
/// top-level type or function name declared in a folder, looked up as a whole word in the
/// files of the folders below it.
@Suite struct LayeringTests {
    /// Lowest first.
    static let layers = ["Format", "Catalogs", "ScenarioFile", "Plan", "Execution",
                         "GrouperBinding", "Timeline", "Reports", "Shrink", "Experiments", "Explore"]

    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// Swift files under `folder`, sorted, with their text minus `//` comments.
    static func files(in folder: URL) throws -> [(name: String, text: String)] {
        let names = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
        return try names.map { name in
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let code = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line)
            }
            return (name, code.joined(separator: "\n"))
        }
    }

    /// Names declared at the top level (column 0) of `text`.
    static func declaredNames(_ text: String) -> [String] {
        let pattern = #"(?m)^(?:(?:public|package|internal|final|indirect)\s+)*(?:struct|enum|class|protocol|typealias|actor|func)\s+([A-Za-z_][A-Za-z0-9_]*)"#
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    static func uses(_ name: String, in text: String) -> Bool {
        text.range(of: "\\b\(name)\\b", options: .regularExpression) != nil
    }

    @Test func everyScenariosFolderIsALayer() throws {
        let root = Self.sources.appendingPathComponent("Scenarios")
        let folders = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        #expect(folders == Self.layers.sorted(), "a new folder under Sources/Scenarios needs a place in LayeringTests.layers and docs/architecture.md")
    }

    @Test func noFolderUsesAFolderAboveIt() throws {
        let root = Self.sources.appendingPathComponent("Scenarios")
        let contents = try Self.layers.map { try Self.files(in: root.appendingPathComponent($0)) }
        var violations: [String] = []
        for (upper, upperFiles) in contents.enumerated() {
            let names = upperFiles.flatMap { Self.declaredNames($0.text) }
            #expect(!names.isEmpty || upperFiles.isEmpty, "found no declarations in \(Self.layers[upper])")
            for lower in 0..<upper {
                for file in contents[lower] {
                    for name in names where Self.uses(name, in: file.text) {
                        violations.append("\(Self.layers[lower])/\(file.name) uses \(name) of \(Self.layers[upper])")
                    }
                }
            }
        }
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }

    /// The check finds a real upward use: the reader uses `JSONValue` from Format, so Format
    /// seen from above would be a violation.
    @Test func theCheckCanFail() throws {
        let format = try Self.files(in: Self.sources.appendingPathComponent("Scenarios/Format"))
        let file = try Self.files(in: Self.sources.appendingPathComponent("Scenarios/ScenarioFile"))
        let names = format.flatMap { Self.declaredNames($0.text) }
        #expect(names.contains("JSONValue"))
        #expect(file.contains { f in names.contains { Self.uses($0, in: f.text) } })
    }

    /// Lower modules never import higher ones (the package manifest also refuses it).
    @Test func modulesImportOnlyBelow() throws {
        let above = ["SimKernel": ["GrouperModel", "Scenarios", "GrouperSimCLI", "grouper_sim"],
                     "GrouperModel": ["Scenarios", "GrouperSimCLI", "grouper_sim"], "Scenarios": ["GrouperSimCLI", "grouper_sim"]]
        for module in above.keys.sorted() {
            for file in try Self.files(in: Self.sources.appendingPathComponent(module)) {
                for higher in above[module]! {
                    #expect(!Self.uses("import \(higher)", in: file.text), "\(module)/\(file.name) imports \(higher)")
                }
            }
        }
    }

    /// The executable is its `main` alone: everything else of the command line is the
    /// `GrouperSimCLI` library (`Sources/grouper-sim/CLI`), which tests import like any other.
    @Test func theExecutableIsOnlyItsMain() throws {
        let exe = Self.sources.appendingPathComponent("grouper-sim")
        let files = try Self.files(in: exe).map(\.name).filter { !$0.hasPrefix("CLI/") }
        #expect(files == ["main.swift"])
        let tests = Self.sources.deletingLastPathComponent().appendingPathComponent("Tests")
        let executable = ["import", "grouper_sim"].joined(separator: " ")   // split, so this file does not match
        let importing = try Self.files(in: tests).filter { Self.uses(executable, in: $0.text) }.map(\.name)
        #expect(importing.isEmpty, "\(importing)")
    }

    /// The JSON reader and escaper are the `SimJSON` module, not part of the kernel: no
    /// SimKernel source outside `JSON/` declares them.
    @Test func jsonIsItsOwnModule() throws {
        let kernel = try Self.files(in: Self.sources.appendingPathComponent("SimKernel"))
        let json = kernel.filter { $0.name.hasPrefix("JSON/") }
        #expect(json.flatMap { Self.declaredNames($0.text) }.contains("JSONReader"))
        let declared = kernel.filter { !$0.name.hasPrefix("JSON/") }.flatMap { Self.declaredNames($0.text) }
        #expect(!declared.contains { $0.hasPrefix("JSON") }, "\(declared.filter { $0.hasPrefix("JSON") })")
        let manifest = try String(contentsOf: Self.sources.deletingLastPathComponent().appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains(#"path: "Sources/SimKernel/JSON""#))
    }

    /// Threads and locks live in Execution only; the library never reads the wall clock
    /// (the executable does, for the progress bar and benchmarks).
    @Test func threadsOnlyInExecutionAndNoWallClockInTheLibrary() throws {
        let threads = ["Thread", "DispatchQueue", "DispatchGroup", "NSLock", "concurrentPerform"]
        let clocks = ["ContinuousClock", "SuspendingClock", "Date", "DispatchTime", "clock_gettime", "gettimeofday"]
        var found: [String] = []
        for module in ["SimKernel", "GrouperModel", "Scenarios"] {
            for file in try Self.files(in: Self.sources.appendingPathComponent(module)) {
                for word in clocks where Self.uses(word, in: file.text) { found.append("\(module)/\(file.name): \(word)") }
                guard !file.name.hasPrefix("Execution/") else { continue }
                for word in threads where Self.uses(word, in: file.text) { found.append("\(module)/\(file.name): \(word)") }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
