import Scenarios
import Foundation

/// Exit codes of `grouper-sim` (documented in README.md).
public enum ExitCode: Int32, Sendable {
    case ok = 0
    /// A required safety checker (`no-phantom`, `ttl`) failed in some run (liveness ones may have too).
    case checkerFailed = 1
    /// Bad input: arguments, scenario files.
    case badInput = 2
    /// A failure of the tool itself, never the input: an executor that broke (a bug), or an
    /// input/output failure (disk full, no permission).
    case internalError = 3
    /// Only required liveness checkers (`convergence`, `delivery`, `outbox`) failed: nothing bad
    /// happened, something good did not happen in time.
    case livenessFailed = 4

    /// The code for runs' checker verdicts: 1 if a required safety checker failed, else 4 if a
    /// required liveness checker did, else 0.
    static func checkers(_ records: [RunRecord]) -> ExitCode {
        let failed = records.flatMap(\.failedCheckers)
        if failed.contains(where: { $0.kind == .safety }) { return .checkerFailed }
        return failed.isEmpty ? .ok : .livenessFailed
    }

    /// The more severe of two outcomes of checking runs (1 over 4 over 0).
    func worse(_ other: ExitCode) -> ExitCode {
        let rank: (ExitCode) -> Int = { $0 == .checkerFailed ? 2 : $0 == .livenessFailed ? 1 : 0 }
        return rank(other) > rank(self) ? other : self
    }
}

/// A user-facing error: the message says what was wrong and what is allowed.
public struct CLIError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var exitCode: ExitCode
    public init(_ message: String, exitCode: ExitCode = .badInput) {
        self.message = message; self.exitCode = exitCode
    }
    public var description: String { message }

    /// The message with `suffix` added, same exit code.
    func appending(_ suffix: String) -> CLIError { CLIError(message + suffix, exitCode: exitCode) }

    /// `error` with `prefix`: an I/O failure or a broken executor exits 3, anything else 2.
    static func from(_ error: Error, _ prefix: String) -> CLIError {
        if let e = error as? CLIError { return e }
        return CLIError(prefix + "\(error)", exitCode: error is IOFailure || error is RunFailure ? .internalError : .badInput)
    }
}

/// Where a command writes: stdout for results, stderr for progress and errors.
public struct CLIOutput: Sendable {
    public var out: @Sendable (String) -> Void
    public var err: @Sendable (String) -> Void
    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
        self.out = out; self.err = err
    }
    /// The process's own stdout/stderr.
    public static let standard = CLIOutput(
        out: { FileHandle.standardOutput.write(Data(($0).utf8)) },
        err: { FileHandle.standardError.write(Data(($0).utf8)) })
}

/// One subcommand: its name, one-line summary, help text and body.
public struct CLICommand: Sendable {
    public var name: String
    public var summary: String
    public var help: String
    public var run: @Sendable (_ args: [String], _ io: CLIOutput) throws -> ExitCode
}

/// The `grouper-sim` command line. The executable only calls `GrouperCLI.main`.
public enum GrouperCLI {
    public static let version = Tool.version

    /// All subcommands, in the order `--help` lists them.
    public static var commands: [CLICommand] {
        [runCommand, validateCommand, listCommand, mergeCommand, shrinkCommand, exploreCommand, reproduceCommand, thesisEquationsCommand, benchCommand]
            + [timelineCommand]
    }

    public static var usage: String {
        var s = """
        grouper-sim \(version) — deterministic discrete-event simulator of Grouper
        (Shamir-shared messages over self-destructing untrusted servers, with recovery).

        USAGE: grouper-sim <command> [options]

        COMMANDS:

        """
        for c in commands { s += "  " + c.name.padding(toLength: 12, withPad: " ", startingAt: 0) + c.summary + "\n" }
        s += """

        Run `grouper-sim <command> --help` for a command's options.
        EXIT CODES: 0 ok, 1 a safety checker failed, 2 bad input (or a refused output path),
        3 internal error (a bug) or I/O failure, 4 only liveness checkers failed.

        """
        return s
    }

    /// Runs the CLI on `arguments` (without the program name) and returns the exit code.
    public static func main(arguments: [String], io: CLIOutput = .standard) -> Int32 {
        guard let first = arguments.first else { io.err(usage); return ExitCode.badInput.rawValue }
        if first == "--help" || first == "-h" || first == "help" { io.out(usage); return 0 }
        if first == "--version" { io.out("grouper-sim \(version)\n"); return 0 }
        guard let command = commands.first(where: { $0.name == first }) else {
            io.err("error: unknown command '\(first)'\(didYouMean(first, among: commands.map(\.name)))\n"
                   + "Run `grouper-sim --help` for the list of commands.\n")
            return ExitCode.badInput.rawValue
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") { io.out(command.help); return 0 }
        do {
            return try command.run(rest, io).rawValue
        } catch let e as CLIError {
            io.err("error: \(e.message)\n")
            return e.exitCode.rawValue
        } catch let e as RunFailure {
            io.err("error: \(e)\n")
            return ExitCode.internalError.rawValue
        } catch let e as IOFailure {
            io.err("error: \(e)\n")
            return ExitCode.internalError.rawValue
        } catch {
            io.err("error: \(error)\n")
            return ExitCode.badInput.rawValue
        }
    }
}
