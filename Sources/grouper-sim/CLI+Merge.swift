import Scenarios
import SimKernel
import Foundation

extension GrouperCLI {
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
            try l.finish(known: ["--out", "--replace", ModelIdentity.mixOption])
            guard !dirs.isEmpty else { throw CLIError("merge: which shard folders? give the DIRs written by `run --shard`") }
            var shards: [(where_: String, file: ShardFile)] = []
            for d in dirs {
                let path = d + "/" + ShardFile.fileName
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw CLIError("merge: \(path): no such file (run `grouper-sim run FILE --shard i/N --out \(d)` first)")
                }
                do { shards.append((d, try ShardFile.parse(String(decoding: data, as: UTF8.self), where: path))) } catch {
                    throw CLIError("merge: \(error)")
                }
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
