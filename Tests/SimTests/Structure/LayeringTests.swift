import Foundation
import Testing

/// The layers of `Sources/Scenarios` are modules (docs/architecture.md): each folder is a
/// target whose dependencies the compiler enforces. These tests keep the manifest and the
/// folders in step and the dependencies pointing down.
@Suite struct LayeringTests {
    /// The folders of `Sources/Scenarios`, lowest first, and their module names.
    static let layers = ["Format", "Catalogs", "ScenarioFile", "Plan", "Execution",
                         "GrouperBinding", "Timeline", "Reports", "Shrink", "Experiments", "Explore"]
    static func module(_ folder: String) -> String { folder == "Timeline" ? "Timelines" : folder }

    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")
    static var manifest: String {
        get throws { try String(contentsOf: sources.deletingLastPathComponent().appendingPathComponent("Package.swift"), encoding: .utf8) }
    }

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

    /// The manifest's dependencies of the target at `path` (the text of its `dependencies:` list).
    static func dependencies(ofTargetAt path: String, in manifest: String) -> [String]? {
        guard let at = manifest.range(of: "path: \"\(path)\"") else { return nil }
        guard let open = manifest.range(of: "dependencies: [", options: .backwards, range: manifest.startIndex..<at.lowerBound),
              let close = manifest.range(of: "]", range: open.upperBound..<at.lowerBound) else { return nil }
        return manifest[open.upperBound..<close.lowerBound].split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
    }

    @Test func everyScenariosFolderIsALayerTarget() throws {
        let root = Self.sources.appendingPathComponent("Scenarios")
        let folders = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { !$0.hasSuffix(".swift") }.sorted()
        #expect(folders == Self.layers.sorted(), "a new folder under Sources/Scenarios needs a place in LayeringTests.layers and docs/architecture.md")
        let manifest = try Self.manifest
        for folder in Self.layers {
            #expect(Self.dependencies(ofTargetAt: "Sources/Scenarios/\(folder)", in: manifest) != nil,
                    "Package.swift has no target with path Sources/Scenarios/\(folder)")
        }
        let umbrella = try String(contentsOf: root.appendingPathComponent("Scenarios.swift"), encoding: .utf8)
        for folder in Self.layers { #expect(umbrella.contains("@_exported import \(Self.module(folder))\n"), "\(folder)") }
    }

    /// A layer's target depends only on layers below it (the compiler then refuses any other use).
    @Test func layerTargetsDependOnlyOnLowerLayers() throws {
        let manifest = try Self.manifest
        let modules = Self.layers.map(Self.module)
        for (i, folder) in Self.layers.enumerated() {
            guard let deps = Self.dependencies(ofTargetAt: "Sources/Scenarios/\(folder)", in: manifest) else {
                Issue.record("Package.swift has no target with path Sources/Scenarios/\(folder)"); continue
            }
            let layered = deps.filter { modules.contains($0) }
            let upward = layered.filter { modules.firstIndex(of: $0)! >= i }
            #expect(upward.isEmpty, "\(folder) depends on \(upward)")
        }
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
