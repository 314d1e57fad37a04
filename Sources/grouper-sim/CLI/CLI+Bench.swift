import Scenarios
extension GrouperCLI {
    /// Benchmarks by name; each lives in its own file under Bench/.
    static var benchmarks: [(name: String, summary: String, options: [String], run: @Sendable ([String], CLIOutput) throws -> ExitCode)] {
        [
            ("kernel", "hold-model event rate", KernelBench.options, KernelBench.main),
            ("sharing", "split/join throughput of gf256 and csss257 (docs/performance.md)", SharingBench.options, SharingBench.run),
            ("codec", "encode/decode rate of Grouper messages (docs/performance.md)", CodecBench.options, CodecBench.run),
            ("protocol", "one whole Grouper run of N devices: wall time, events/s (docs/performance.md)", ProtocolBench.options, ProtocolBench.run),
        ]
    }

    static var benchCommand: CLICommand {
        CLICommand(
            name: "bench",
            summary: "Measure kernel, sharing and message codec speed (see docs/performance.md)",
            help: """
            USAGE: grouper-sim bench <name> [options]

            BENCHMARKS:
            \(benchmarks.map { "  \($0.name)  \($0.summary)\n      options: \($0.options.joined(separator: " "))" }.joined(separator: "\n"))

            """,
            run: { args, io in
                guard let name = args.first else {
                    throw CLIError("bench: which benchmark? one of: \(benchmarks.map(\.name).joined(separator: ", "))")
                }
                guard let b = benchmarks.first(where: { $0.name == name }) else {
                    throw CLIError("bench: unknown benchmark '\(name)'\(didYouMean(name, among: benchmarks.map(\.name)))"
                                   + "; one of: \(benchmarks.map(\.name).joined(separator: ", "))")
                }
                return try b.run(Array(args.dropFirst()), io)
            })
    }
}
