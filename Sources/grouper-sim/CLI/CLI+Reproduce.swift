import Scenarios
import Foundation

extension GrouperCLI {
    /// The options `reproduce` accepts.
    static let reproduceOptions = ["--out", "--jobs", "--replace"]

    static var reproduceCommand: CLICommand {
        CLICommand(
            name: "reproduce",
            summary: "Run the built-in thesis experiments and write results/",
            help: """
            USAGE: grouper-sim reproduce [--out DIR] [--jobs J] [--replace]

            Runs the thesis timing scenarios (Fig 6.1, Fig 6.2 a–c, csss257) and their gf256
            twins, and equations 6.1–6.8 for the thesis's two worked cases, writing
            DIR/<scenario>/ (runs.csv, summary.csv, summary.md, plot-*.svg, manifest.json) and
            DIR/equations.{md,csv,json}. DIR defaults to results/. Progress goes to stderr.
            The output is byte-identical on a rerun and for any J. See docs/reproduction.md.
            A scenario folder holding a result of another scenario text or engine is refused
            (exit 2, before anything runs) unless --replace is given; replaced folders are named.

            """,
            run: { args, io in
                var list = ArgumentList(args, command: "reproduce")
                let out = try list.option("--out") ?? "results"
                let jobs = try list.int("--jobs", in: 1...1024) ?? ProcessInfo.processInfo.activeProcessorCount
                let replace = list.flag("--replace")
                try list.finish(known: reproduceOptions)
                do { io.out(try Reproduction.execute(out: out, jobs: jobs, replace: replace, progress: io.err)) } catch {
                    throw CLIError.from(error, "reproduce: ")
                }
                return .ok
            })
    }
}
