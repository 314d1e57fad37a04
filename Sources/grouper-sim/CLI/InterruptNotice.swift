import Scenarios
import Foundation

/// What Ctrl-C (SIGINT) and SIGTERM (what Slurm sends at a time limit or preemption) print:
/// how many runs the unfinished run kept and the command that continues it; the process then
/// exits 130 or 143 (128 + the signal). Every run's record is written atomically as it
/// finishes (`PartialRun.keep`), so whatever the moment of the signal, the kept runs are
/// exactly the finished ones and `--resume` continues from them.
enum InterruptNotice {
    /// The run under way: its partial folder, destination and scenario argument.
    struct Current: Sendable {
        var partial: URL
        var destination: String
        var file: String
        var progress: ProgressBar?
    }

    nonisolated(unsafe) private static var current: Current?
    private static let lock = NSLock()
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// Sets (or with nil clears) the run an interruption would leave unfinished.
    static func set(_ c: Current?) { lock.lock(); current = c; lock.unlock() }

    /// The scenario argument that loads `source` again: the file as given, or the built-in's name.
    static func argument(_ source: ScenarioSource) -> String {
        source.label.hasPrefix("builtin:") ? String(source.label.dropFirst(8)) : source.label
    }

    /// The message for the run under way, or nil when none is.
    static func message() -> String? {
        lock.lock(); let c = current; lock.unlock()
        guard let c else { return nil }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: c.partial.path)) ?? []
        let kept = names.filter { $0.hasPrefix("run-p") && $0.hasSuffix(".json") }.count
        return "\(kept) run\(kept == 1 ? "" : "s") kept in \(c.destination).partial; continue with: "
            + "grouper-sim run \(shellQuoted(c.file)) --resume \(shellQuoted(c.destination))\n"
    }

    static func shellQuoted(_ s: String) -> String {
        let plain = s.allSatisfy { $0.isLetter || $0.isNumber || "-_./+,:=@".contains($0) }
        return plain && !s.isEmpty ? s : "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Installs the handlers for SIGINT and SIGTERM (once, by the executable).
    static func install(io: CLIOutput = .standard) {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                lock.lock(); let bar = current?.progress; lock.unlock()
                bar?.endLine()
                if let m = message() { io.err(m) }
                _exit(128 + sig)
            }
            source.resume()
            sources.append(source)
        }
    }
}

extension GrouperCLI {
    /// Ctrl-C and SIGTERM print what an unfinished run kept and how to continue it, then
    /// exit 130 / 143 (`InterruptNotice`).
    public static func installSignalHandlers() { InterruptNotice.install() }
}
