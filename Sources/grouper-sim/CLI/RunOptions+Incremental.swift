import Foundation
import Scenarios
/// `--precision`, `--resume DIR` and `--add-replications R DIR` of `grouper-sim run`.
extension RunOptions {
    static func parseIncremental(_ l: inout ArgumentList, _ o: inout RunOptions) throws {
        if let raw = try l.option("--precision") {
            guard let v = Double(raw), v > 0, v < 1 else {
                throw CLIError("run: --precision must be a number between 0 and 1 (exclusive), the 95% half-width over the mean, e.g. 0.05; got '\(raw)'")
            }
            o.precision = v
        }
        if let raw = try l.option("--precision-metrics") {
            let names = raw.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard !names.contains(where: \.isEmpty) else {
                throw CLIError("run: --precision-metrics needs a comma-separated list of the scenario's metrics, got '\(raw)'")
            }
            o.precisionMetrics = names
        }
        if let raw = try l.option("--precision-stop") {
            guard let stop = PrecisionSpec.Stop(rawValue: raw) else {
                throw CLIError("run: --precision-stop must be one of \(PrecisionSpec.Stop.allCases.map(\.rawValue).joined(separator: ", ")), got '\(raw)'")
            }
            o.precisionStop = stop
        }
        o.resume = try l.option("--resume")
        o.addReplications = try l.int("--add-replications", in: 1...100_000)
    }

    /// `--resume` and `--add-replications` take every option from the folder they continue:
    /// any other choice of runs or outputs conflicts with it. At most one FILE (the scenario,
    /// optional for a built-in); `--add-replications` takes DIR as its last argument.
    static func checkIncremental(_ o: RunOptions) throws -> RunOptions {
        var o = o
        let mode = o.resume != nil ? "--resume" : "--add-replications"
        if o.resume != nil && o.addReplications != nil {
            throw CLIError("run: --resume continues an unfinished run and --add-replications extends a finished one; give one of them")
        }
        let given: [(String, Bool)] = [("--seed", o.seed != nil), ("--replications", o.replications != nil),
                                       ("--precision", o.precision != nil),
                                       ("--precision-metrics", o.precisionMetrics != nil),
                                       ("--precision-stop", o.precisionStop != nil), ("--out", o.out != nil), ("--shard", o.shard != nil),
                                       ("--point", o.point != nil), ("--replication", o.replication != nil),
                                       ("--trace", o.trace != nil), ("--events", o.events != nil),
                                       ("--engine", o.engineGiven), ("--replace", o.replace)]
        if let (name, _) = given.first(where: { $0.1 }) {
            throw CLIError("run: \(mode) takes the scenario's seed, replications, precision and output folder from the run it continues; drop \(name)")
        }
        if o.addReplications != nil {
            guard let dir = o.files.last, o.files.count <= 2 else {
                throw CLIError("run: --add-replications R DIR: which result folder? e.g. `grouper-sim run --add-replications 10 results/smoke`")
            }
            o.resume = nil
            o.out = dir
            o.files.removeLast()
        } else {
            o.out = o.resume
        }
        if o.out == "" { throw CLIError("run: \(mode) needs a folder name, got an empty string") }
        if o.files.count > 1 { throw CLIError("run: \(mode) continues one scenario's folder; give at most one FILE") }
        return o
    }
}
