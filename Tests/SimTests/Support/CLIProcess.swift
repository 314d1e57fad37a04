import Foundation

/// Runs the built `grouper-sim` binary as a separate process (for cross-process
/// determinism tests). The binary sits next to the test bundle in the build folder.
enum CLIProcess {
    struct Result { var status: Int32; var stdout: String; var stderr: String }

    static var executableURL: URL {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = testBinary.deletingLastPathComponent()
        // The runner may be inside a .xctest bundle folder: walk up until we find the binary.
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("grouper-sim")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        // Fallback: the package's debug build folder.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/grouper-sim")
    }

    /// Runs `grouper-sim args…` to completion, in `directory` if given, with `environment`
    /// added to this process's environment.
    static func run(_ args: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> Result {
        let p = Process()
        p.executableURL = executableURL
        p.arguments = args
        if let directory { p.currentDirectoryURL = directory }
        if !environment.isEmpty { p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // Drain stderr on another thread so a chatty child cannot block on a full pipe.
        final class Box: @unchecked Sendable { var data = Data() }
        let errBox = Box()
        let errHandle = err.fileHandleForReading
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { errBox.data = errHandle.readDataToEndOfFile(); group.leave() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let errData = errBox.data
        p.waitUntilExit()
        return Result(status: p.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}
