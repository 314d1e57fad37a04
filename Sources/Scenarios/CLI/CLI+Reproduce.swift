extension GrouperCLI {
    static var reproduceCommand: CLICommand {
        CLICommand(
            name: "reproduce",
            summary: "Run the built-in thesis experiments and write results/",
            help: """
            USAGE: grouper-sim reproduce [--out DIR]

            Runs the built-in thesis scenarios (Fig 6.1, Fig 6.2 a–c, equations 6.1–6.8)
            and writes tables, plots and a manifest under results/ (or DIR).

            """,
            run: { args, io in
                var list = ArgumentList(args, command: "reproduce")
                _ = try list.option("--out")
                try list.finish(known: ["--out"])
                io.err("reproduce: the thesis experiments are not implemented yet; nothing to write.\n")
                return .ok
            })
    }
}
