import Scenarios
import SimKernel
import Foundation

extension GrouperCLI {
    /// The options `merge` accepts.
    static let mergeOptions = ["--out", "--replace", ModelIdentity.mixOption]

    static var mergeCommand: CLICommand {
        CLICommand(name: "merge", summary: "Combine shard folders into the results of a single run",
                   help: """
            USAGE: grouper-sim merge DIR… [--out DIR] [--replace] [--allow-model-mix]

            Reads shard.json from each DIR (written by `run --shard i/N`), checks that they are
            the N shards of one scenario with the same options, and writes exactly the files a
            single `run` writes, to --out DIR or results/<name>/ (a previous result there only
            of the same scenario file and engine, unless --replace). Shards run by different
            builds (model identities, docs/cli.md) are refused unless --allow-model-mix.
            EXIT CODES: 0 ok, 1 a merged run failed a required safety checker, 4 only
            required liveness checkers failed, 2 bad input.

            """,
                   run: { args, io in
            var l = ArgumentList(args, command: "merge")
            let out = try l.option("--out")
            let replace = l.flag("--replace")
            let mix = l.flag(ModelIdentity.mixOption)
            let dirs = l.positionals()
            try l.finish(known: mergeOptions)
            guard !dirs.isEmpty else { throw CLIError("merge: which shard folders? give the DIRs written by `run --shard`") }
            var shards: [(where_: String, file: ShardFile)] = []
            var unfinished: [String] = []
            // `merge shards/my-*` also matches the `.partial` folders of unfinished shards: they
            // are skipped, and their shards named with the command that finishes them.
            let trimmed = dirs.map { $0.hasSuffix("/") && $0.count > 1 ? String($0.dropLast()) : $0 }
            let folders = trimmed.filter { !$0.hasSuffix(".partial") }
                + trimmed.filter { $0.hasSuffix(".partial") }.map { String($0.dropLast(8)) }.filter { !trimmed.contains($0) }
            for d in folders {
                let path = d + "/" + ShardFile.fileName
                guard let data = FileManager.default.contents(atPath: path) else {
                    if let opened = try? PartialRun.open(at: PartialRun.folder(for: OutputSafety.resolved(d))) {
                        unfinished.append(d + "|" + opened.header.scenarioFile + "|\(opened.records.count)")
                        continue
                    }
                    throw CLIError("merge: \(path): no such file (run `grouper-sim run FILE --shard i/N --out \(d)` first)")
                }
                do { shards.append((d, try ShardFile.parse(String(decoding: data, as: UTF8.self), where: path))) } catch {
                    throw CLIError("merge: \(error)")
                }
            }
            if !unfinished.isEmpty {
                let lines = unfinished.map { entry -> String in
                    let f = entry.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                    let file = shards.first.map { InterruptNotice.argument($0.file.source) }
                        ?? (f[1].hasPrefix("builtin:") ? String(f[1].dropFirst(8)) : f[1])
                    return "  \(f[0]) (\(f[2]) \(f[2] == "1" ? "run" : "runs") kept in \(f[0]).partial): grouper-sim run \(InterruptNotice.shellQuoted(file)) --resume \(InterruptNotice.shellQuoted(f[0]))\n"
                }
                throw CLIError("merge: \(unfinished.count) shard\(unfinished.count == 1 ? " is" : "s are") unfinished; finish "
                    + (unfinished.count == 1 ? "it" : "each") + " with the command shown, then merge again; nothing was written\n"
                    + lines.joined().dropLast())
            }
            let result: ResultSet
            do { result = try ShardMerge.merge(shards, allowModelMix: mix) } catch { throw CLIError.from(error, "") }
            let dir = out ?? "results/\(result.spec.name)"
            let old: ResultOrigin?
            do {
                old = try OutputDirectory.write(result.files, to: dir, writing: ResultOrigin(.result, source: result.scenario.source, engine: result.engine),
                                                replace: replace)
            } catch { throw CLIError.from(error, "merge: ") }
            io.out(result.summaryMarkdown + RunCommand.replaced(old, dir) + "\nwrote \(dir)/ (\(result.records.count) runs from \(shards.count) shards, fingerprint \(result.fingerprint.hex))\n")
            var o = RunOptions(); o.seed = shards[0].file.seed; o.engine = result.engine; o.replications = shards[0].file.replications
            o.precision = shards[0].file.precision
            return RunCommand.report(failures: result.records, scenario: result.scenario, o, io: io)
        })
    }
}
