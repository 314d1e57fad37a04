import Scenarios
import Foundation

extension GrouperCLI {
    static var reproduceCommand: CLICommand {
        CLICommand(
            name: "reproduce",
            summary: "Run the built-in thesis experiments and write results/",
            help: """
            USAGE: grouper-sim reproduce [--out DIR] [--jobs J]

            Runs the thesis timing scenarios (Fig 6.1, Fig 6.2 a–c, csss257) and their gf256
            twins, and equations 6.1–6.8 for the thesis's two worked cases, writing
            DIR/<scenario>/ (runs.csv, summary.csv, summary.md, plot-*.svg, manifest.json) and
            DIR/equations.{md,csv,json}. DIR defaults to results/. Progress goes to stderr.
            The output is byte-identical on a rerun and for any J. See docs/reproduction.md.

            """,
            run: { args, io in
                var list = ArgumentList(args, command: "reproduce")
                let out = try list.option("--out") ?? "results"
                let jobs = try list.int("--jobs", in: 1...1024) ?? ProcessInfo.processInfo.activeProcessorCount
                try list.finish(known: ["--out", "--jobs"])
                do { io.out(try Reproduction.execute(out: out, jobs: jobs, progress: io.err)) } catch let e as OutputDirectory.WriteError {
                    throw CLIError("reproduce: \(e.description)")
                }
                return .ok
            })
    }
}
