import Foundation
import Testing

/// The speed machinery stays behind its fence (docs/architecture.md, "Speed behind one
/// seam"): the client never asks which pipeline the run uses, the memos live in
/// `GrouperModel/Speed`, and unsafe lifetime tricks only in SimKernel, where they are audited.
@Suite struct SpeedFenceTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// Swift files under `folder` (relative to Sources), sorted, with their whole text.
    static func files(under folder: String) throws -> [(name: String, text: String)] {
        let root = sources.appendingPathComponent(folder)
        let names = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".swift") }.sorted()
        return try names.map { ($0, try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) }
    }

    @Test func theClientNeverAsksWhichPipelineRuns() throws {
        let users = try Self.files(under: "GrouperModel/Client").filter { $0.text.contains("compactState") }.map(\.name)
        #expect(users == [])
    }

    @Test func unsafeLifetimeTricksOnlyInTheKernel() throws {
        for folder in ["GrouperModel", "Scenarios", "grouper-sim"] {
            let users = try Self.files(under: folder)
                .filter { $0.text.contains("unowned(unsafe)") || $0.text.contains("_withUnsafeGuaranteedRef") }.map(\.name)
            #expect(users == [], "in \(folder)")
        }
    }

    @Test func theMemosLiveInTheSpeedFolder() throws {
        let speed = Set(try Self.files(under: "GrouperModel/Speed").map(\.name))
        for memo in ["RebuildMemo", "JoinMemo", "HeldMemo", "PushMemo", "DecodedMessageCache", "PartialTable", "StringOrder", "StringNumbering"] {
            #expect(speed.contains(memo + ".swift"), "\(memo)")
            let elsewhere = try Self.files(under: "GrouperModel")
                .filter { !$0.name.hasPrefix("Speed/") && $0.text.contains("final class \(memo)") }.map(\.name)
            #expect(elsewhere == [], "\(memo) declared outside Speed/")
        }
    }
}
