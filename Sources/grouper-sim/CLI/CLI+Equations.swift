import Scenarios
import Foundation
import SimKernel
import GrouperModel

/// Options of `grouper-sim equations` (thesis 6.1–6.8).
public struct EquationsOptions: Sendable {
    public var parameters = EquationParameters()
    public var json = false
    public var ablation = false
    /// `--write-scenario FILE`: write the first replication's scenario instead of running.
    public var writeScenario: String? = nil
    /// `--progress auto|always|never`, as for `run`.
    public var progress = ProgressMode.auto
    static let known = ["--D", "--T", "--U", "--C", "--F", "--L", "--replications", "--variant", "--seed", "--json",
                        "--model", "--ablation", "--jobs", "--write-scenario", "--progress", "--resend-ranges"]

    public static func parse(_ args: [String]) throws -> EquationsOptions {
        var l = ArgumentList(args, command: "equations")
        var o = EquationsOptions()
        o.json = l.flag("--json")
        o.ablation = l.flag("--ablation")
        if let d = try l.int("--D", in: 1...200) { o.parameters.devices = d }
        if let t = try duration(&l, "--T") { o.parameters.ttl = t }
        if let u = try l.int("--U", in: 0...10_000) { o.parameters.updatesPerDevice = u }
        if let c = try l.int("--C", in: 0...100) { o.parameters.confirms = c }
        if let raw = try l.option("--F") {
            guard let f = Double(raw), f.isFinite, f >= 0, f < Double(o.parameters.devices) else {
                throw CLIError("equations: --F must be a number in [0, D) = [0, \(o.parameters.devices)), got '\(raw)'")
            }
            o.parameters.offline = f
        }
        if let lt = try duration(&l, "--L") { o.parameters.offlineTime = lt }
        if let r = try l.int("--replications", in: 1...1000) { o.parameters.replications = r }
        if let s = try l.uint64("--seed") { o.parameters.seed = s }
        o.parameters.jobs = try l.int("--jobs", in: 1...1024) ?? ProcessInfo.processInfo.activeProcessorCount
        if let m = try l.option("--model") {
            switch m {
            case "thesis": o.parameters.model = .thesis
            case "protocol": o.parameters.model = .protocol
            default: throw CLIError("equations: --model must be thesis or protocol, got '\(m)'")
            }
        }
        if let v = try l.option("--variant") {
            guard let variant = ProtocolVariant(rawValue: v) else {
                throw CLIError("equations: --variant must be one of \(ProtocolVariant.allCases.map(\.rawValue).joined(separator: ", ")), got '\(v)'")
            }
            o.parameters.variant = variant
        }
        if let r = try l.option("--resend-ranges") {
            guard let ranges = ResendRanges(rawValue: r) else {
                throw CLIError("equations: --resend-ranges must be one of \(ResendRanges.allCases.map(\.rawValue).joined(separator: ", ")), got '\(r)'")
            }
            guard o.parameters.model == .protocol, !o.ablation || ranges == .span else {
                throw CLIError("equations: --resend-ranges is for --model protocol without --ablation (the ablation has its own \"holes\" step)")
            }
            o.parameters.model.resendHoles = ranges == .holes
        }
        o.writeScenario = try l.option("--write-scenario")
        if let p = try l.option("--progress") {
            guard let mode = ProgressMode(rawValue: p) else {
                throw CLIError("equations: --progress must be one of \(ProgressMode.allCases.map(\.rawValue).joined(separator: ", ")), got '\(p)'")
            }
            o.progress = mode
        }
        if o.writeScenario != nil && (o.ablation || o.json) {
            throw CLIError("equations: --write-scenario writes one model's scenario and runs nothing; not with \(o.ablation ? "--ablation" : "--json")")
        }
        try l.finish(known: known)
        return o
    }

    /// A positive duration between 1 s and 365 d (`"1d"`, `"6h"`).
    static func duration(_ l: inout ArgumentList, _ name: String) throws -> SimDuration? {
        guard let raw = try l.option(name) else { return nil }
        guard let d = try? SimDuration(parsing: raw), d >= .seconds(Int64(1)), d <= .seconds(Int64(365 * 86_400)) else {
            throw CLIError("equations: \(name) must be a duration in 1s...365d (e.g. 1d, 6h), got '\(raw)'")
        }
        return d
    }
}

extension GrouperCLI {
    static var thesisEquationsCommand: CLICommand {
        CLICommand(name: "equations", summary: "Compare the thesis message-count equations 6.1–6.8 with simulated counts",
                   help: """
            USAGE: grouper-sim equations [--model thesis|protocol] [--ablation] [--D N] [--T DUR]
                                         [--U N] [--C N] [--F X] [--L DUR] [--replications R]
                                         [--variant V] [--seed S] [--jobs J] [--json]
                                         [--progress auto|always|never]
                   grouper-sim equations [--model …] [--D … --L …] [--seed S] --write-scenario FILE

            For each of equations 6.1–6.8: the thesis's closed form, the refined closed form for
            the simulated model, and the simulated steady-state count per TTL (mean and 95% CI
            from batch means over many TTL windows after a warm-up of max(2T, 5L); replications
            are added four at a time until every CI half-width is ≤ 5% of its mean or R is
            reached). --model protocol (default) simulates the protocol, F the time-average
            number of offline devices; --model thesis makes the thesis's assumptions real, F
            offline periods of length L per TTL. --ablation switches them one at a time.
            Defaults: D=10, T=1d, U=100 (U_i per device per TTL), C=1, F=0, L=1d, R=40,
            variant thesis, J = number of cores. Every replication runs as a scenario (a
            timed schedule, the model's switches, counts per TTL window as series);
            --write-scenario FILE writes the first one's scenario file and runs nothing
            (`grouper-sim run FILE` replays its schedule). See docs/equations.md.

            OPTIONS:
              --model M        protocol (default) or thesis
              --ablation       one table: thesis model → each assumption switched → protocol
              --D N            devices, 1...200
              --T DUR          TTL, 1s...365d
              --U N            normal messages per device per TTL, 0...10000
              --C N            confirms per device per TTL, 0...100
              --F X            offline devices (see --model), 0 ≤ X < D
              --L DUR          (mean) offline time, 1s...365d
              --replications R cap on replications, 1...1000
              --variant V      thesis, as-built, basic-multicast, no-recovery
              --resend-ranges R  span (default) or holes: what resend requests ask
                               for (protocol.resend_ranges; --model protocol only)
              --jobs J         threads for replications (output does not depend on it)
              --json           one JSON object per equation per line
              --progress P     auto (default), always or never, as for `run`: replications
                               done, up to the cap (every 10 s in a log), on stderr
              --write-scenario FILE  write the first replication's scenario to FILE (new); run nothing

            """,
                   run: { args, io in
            let o = try EquationsOptions.parse(args)
            do {
                if let file = o.writeScenario { return try writeEquationScenario(o.parameters, to: file, io: io) }
                let cap = o.parameters.replications * (o.ablation ? EquationAblation.stepsToRun(o.parameters) : 1)
                let bar = ProgressBar(label: "equations", style: ProgressBar.style(o.progress, terminal: isatty(2) != 0), io: io,
                                      unit: "replications")
                bar.capped(at: cap)
                bar.begin(cap)
                let counter = ReplicationCounter(bar)
                defer { bar.finish() }
                if o.ablation {
                    let a = try EquationAblation.run(o.parameters, tick: counter.tick)
                    bar.finish()
                    io.out(o.json ? a.csv : a.markdown)
                    return .ok
                }
                let r = try ThesisEquations.run(o.parameters, tick: counter.tick)
                bar.finish()
                io.out(o.json ? EquationReport.jsonLines(r, o.parameters) : EquationReport.markdown(r, o.parameters))
            } catch let e as UnrealisableParameters {
                throw CLIError(e.description)
            }
            return .ok
        })
    }
}

extension GrouperCLI {
    /// `equations --write-scenario FILE`: the first replication's scenario, read back before it is
    /// written (a file that would not load is a bug, exit 3); FILE must not exist.
    static func writeEquationScenario(_ p: EquationParameters, to file: String, io: CLIOutput) throws -> ExitCode {
        let path: String
        var isFolder: ObjCBool = false
        if !file.isEmpty, !file.hasSuffix("/"), FileManager.default.fileExists(atPath: OutputSafety.resolved(file).path, isDirectory: &isFolder),
           !isFolder.boolValue {
            throw CLIError("equations: --write-scenario \(file) exists; nothing was written (choose another name)")
        }
        do { path = try OutputSafety.checkFile(file, option: "equations --write-scenario", owned: { _ in true }) } catch let e as OutputDirectory.WriteError {
            throw CLIError(e.description)  // already names "equations --write-scenario"
        }
        guard !FileManager.default.fileExists(atPath: path) else {
            throw CLIError("equations: --write-scenario \(file) exists; nothing was written (choose another name)")
        }
        let (spec, seed) = try ThesisEquations.replicationScenario(p)
        let text = JSONWriter.pretty(spec.resolvedJSON)
        do { _ = try ScenarioLoader.load(ScenarioSource(label: file, text: text)) } catch {
            throw CLIError("equations: the scenario does not read back (a bug): \(error)", exitCode: .internalError)
        }
        if let failure = writeNewFile(Array(text.utf8), to: path) {
            throw CLIError("equations: --write-scenario \(file): cannot write the file (\(failure)); nothing was written")
        }
        io.out("wrote \(file): --model \(p.model.modelName), first replication (run seed \(seed)): \(spec.workload.writes.count) writes, "
               + "\(spec.schedule.count) scheduled commands, \(spec.duration.nanoseconds / p.ttl.nanoseconds) TTL windows "
               + "(warm-up \(spec.warmup.nanoseconds / p.ttl.nanoseconds)); run it with: grouper-sim run \(file)\n")
        return .ok
    }
}

extension GrouperCLI {
    /// Writes `bytes` to a file that must not exist yet; nil when done, else the system's reason
    /// ("No such file or directory"), with no file left behind.
    static func writeNewFile(_ bytes: [UInt8], to path: String) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let reason = n < 0 ? String(cString: strerror(errno)) : "the device took no bytes"
                close(fd); unlink(path)
                return reason
            }
            done += n
        }
        guard close(fd) == 0 else { let reason = String(cString: strerror(errno)); unlink(path); return reason }
        return nil
    }
}

/// Counts replications as they end and shows the count on a bar.
final class ReplicationCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0
    private let bar: ProgressBar
    init(_ bar: ProgressBar) { self.bar = bar }
    var tick: @Sendable () -> Void {
        { [self] in
            lock.lock(); done += 1; let d = done; lock.unlock()
            bar.update(d, Int.max)
        }
    }
}
